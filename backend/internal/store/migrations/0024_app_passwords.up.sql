-- App passwords: named, revocable passwords a person creates for clients
-- that can only do basic auth. The secret is 256 random bits made by the
-- panel, so a SHA-256 hash is stored (as for machine tokens): no
-- stretching is needed and verify can look it up by hash.
CREATE TABLE app_passwords (
    id           TEXT PRIMARY KEY,
    person_id    TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    secret_hash  TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE UNIQUE INDEX app_passwords_secret ON app_passwords (secret_hash);
CREATE UNIQUE INDEX app_passwords_name ON app_passwords (person_id, name);
