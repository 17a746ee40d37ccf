-- Access rules per service (global rules live in app_config under
-- "access_rules"), machine tokens for clients that cannot sign in, and the
-- landing path of shared links.

-- default_action '' means automatic: authenticate when the service has a
-- protection, allow otherwise. rules is a JSON array (accessrule.Rule).
CREATE TABLE service_access (
    service_id     TEXT PRIMARY KEY REFERENCES services (id) ON DELETE CASCADE,
    default_action TEXT NOT NULL DEFAULT '',
    rules          TEXT NOT NULL DEFAULT '[]',
    updated_at     TIMESTAMP NOT NULL
);

-- The token itself is stored only as a SHA-256 hash; prefix is its first
-- characters, shown so a token can be recognised.
CREATE TABLE machine_tokens (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL UNIQUE,
    token_hash        TEXT NOT NULL UNIQUE,
    prefix            TEXT NOT NULL,
    scope_path        TEXT NOT NULL DEFAULT '',
    scope_methods     TEXT NOT NULL DEFAULT '[]',
    expires_at        TIMESTAMP,
    revoked_at        TIMESTAMP,
    last_used_at      TIMESTAMP,
    last_used_address TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMP NOT NULL
);

CREATE TABLE machine_token_services (
    token_id   TEXT NOT NULL REFERENCES machine_tokens (id) ON DELETE CASCADE,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    PRIMARY KEY (token_id, service_id)
);
CREATE INDEX machine_token_services_service ON machine_token_services (service_id);

ALTER TABLE shared_links ADD COLUMN path TEXT NOT NULL DEFAULT '/';
