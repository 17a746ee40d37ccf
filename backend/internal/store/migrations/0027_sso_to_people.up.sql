-- The people protection replaces per-service single sign-on. The allow-
-- lists name provider claims (subjects, verified addresses, usernames,
-- groups) that only Go can turn into people and groups of the directory,
-- so this migration leaves a task and the panel's next start
-- (app.upgradeSSOProtections) replaces every single sign-on protection
-- with a people protection admitting the same identities, then deletes
-- the task in the same transaction: the conversion runs once.
CREATE TABLE upgrade_tasks (
    name TEXT PRIMARY KEY
);
INSERT INTO upgrade_tasks (name) VALUES ('sso_to_people');
