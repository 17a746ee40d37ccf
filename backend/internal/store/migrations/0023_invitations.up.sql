-- Invitations: an administrator invites a person, who chooses a password or
-- registers a passkey through a one-use link. The person is created disabled
-- when invited (so the username and e-mail are theirs, and a passkey can be
-- bound to their id) and enabled when they accept. Only the SHA-256 hash of
-- the link's token is stored. Username and e-mail are copied so the list
-- still names a revoked invitation whose person was removed.
CREATE TABLE invitations (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    person_id   TEXT REFERENCES people (id) ON DELETE SET NULL,
    username    TEXT NOT NULL,
    email       TEXT NOT NULL DEFAULT '',
    created_by  TEXT NOT NULL DEFAULT '',
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP,
    revoked_at  TIMESTAMP,
    created_at  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX invitations_token ON invitations (token_hash);
CREATE INDEX invitations_person ON invitations (person_id);

-- Password resets asked for by e-mail: one use, short-lived, hashed.
CREATE TABLE password_resets (
    token_hash  TEXT PRIMARY KEY,
    person_id   TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX password_resets_person ON password_resets (person_id);
