-- Administrators become people: one directory of the people Gatehouse knows,
-- each with a panel role ("admin", "viewer", or "none": a person who may not
-- use the panel at all). Every administrator keeps their id, so their
-- sessions, TOTP, recovery codes, passkeys, challenges and API tokens (which
-- reference it) keep working; both engines rewrite those foreign keys with
-- the table's new name.
ALTER TABLE admin_users RENAME TO people;
ALTER TABLE people RENAME COLUMN role TO panel_role;
ALTER TABLE people ADD COLUMN display_name TEXT NOT NULL DEFAULT '';

DROP INDEX admin_users_sso;
CREATE UNIQUE INDEX people_sso ON people (sso_issuer, sso_subject) WHERE sso_subject <> '';

-- An e-mail address names one person, whatever its case. Addresses shared
-- by administrators before (only ever used to link a first SSO sign-in) stay
-- with the oldest of them.
UPDATE people SET email = '' WHERE email <> '' AND EXISTS (
    SELECT 1 FROM people o WHERE lower(o.email) = lower(people.email)
        AND (o.created_at < people.created_at OR (o.created_at = people.created_at AND o.id < people.id)));
CREATE UNIQUE INDEX people_email ON people (lower(email)) WHERE email <> '';

-- Groups of people, with a name unique whatever its case. "groups" is a
-- keyword in both engines' window syntax, hence the prefix.
CREATE TABLE people_groups (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX people_groups_name ON people_groups (lower(name));

CREATE TABLE people_group_members (
    group_id   TEXT NOT NULL REFERENCES people_groups (id) ON DELETE CASCADE,
    person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (group_id, person_id)
);
CREATE INDEX people_group_members_person ON people_group_members (person_id);
