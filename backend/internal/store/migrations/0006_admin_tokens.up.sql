-- Administrators' API tokens: bearer credentials for scripts that use the
-- panel's API. Only the SHA-256 hash of a value is stored. A token acts with
-- its own role, never more than its creator's current role, and dies with
-- its creator.
CREATE TABLE admin_tokens (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    token_hash        TEXT NOT NULL UNIQUE,
    prefix            TEXT NOT NULL,
    role              TEXT NOT NULL,
    created_by        TEXT NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
    created_at        TIMESTAMP NOT NULL,
    expires_at        TIMESTAMP,
    revoked_at        TIMESTAMP,
    last_used_at      TIMESTAMP,
    last_used_address TEXT NOT NULL DEFAULT ''
);
CREATE INDEX admin_tokens_created_by ON admin_tokens (created_by);
