DROP TABLE people_group_members;
DROP TABLE people_groups;
DROP INDEX people_email;
DROP INDEX people_sso;
-- Before this migration every row was an administrator: people without a
-- panel role go back disabled, with the least role, so none gains access.
UPDATE people SET panel_role = 'viewer', disabled_at = COALESCE(disabled_at, CURRENT_TIMESTAMP) WHERE panel_role NOT IN ('admin', 'viewer');
ALTER TABLE people DROP COLUMN display_name;
ALTER TABLE people RENAME COLUMN panel_role TO role;
ALTER TABLE people RENAME TO admin_users;
CREATE UNIQUE INDEX admin_users_sso ON admin_users (sso_issuer, sso_subject) WHERE sso_subject <> '';
