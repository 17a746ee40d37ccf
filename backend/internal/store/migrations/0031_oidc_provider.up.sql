-- The OpenID Connect provider's state, shared by every replica: signing
-- keys (private halves sealed with the panel's age identity), pending
-- authorization requests and their codes, access and refresh tokens,
-- device authorizations and remembered consents. Codes and tokens are 256
-- random bits made by the panel: only their SHA-256 is stored.
CREATE TABLE oidc_signing_keys (
    id          TEXT PRIMARY KEY,
    alg         TEXT NOT NULL,
    private_key TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    -- signs from active_from (published in the JWKS before), until a newer
    -- key of its algorithm signs; published until expires_at.
    active_from TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP
);
CREATE INDEX oidc_signing_keys_alg ON oidc_signing_keys (alg, active_from);

CREATE TABLE oidc_auth_requests (
    id                    TEXT PRIMARY KEY,
    client_id             TEXT NOT NULL REFERENCES oidc_clients (id) ON DELETE CASCADE,
    redirect_uri          TEXT NOT NULL,
    state                 TEXT NOT NULL DEFAULT '',
    nonce                 TEXT NOT NULL DEFAULT '',
    scopes                TEXT NOT NULL DEFAULT '[]',
    response_type         TEXT NOT NULL,
    response_mode         TEXT NOT NULL DEFAULT '',
    code_challenge        TEXT NOT NULL DEFAULT '',
    code_challenge_method TEXT NOT NULL DEFAULT '',
    max_age               INTEGER,
    prompt                TEXT NOT NULL DEFAULT '[]',
    person_id             TEXT REFERENCES people (id) ON DELETE CASCADE,
    portal_session_id     TEXT NOT NULL DEFAULT '',
    auth_time             TIMESTAMP,
    amr                   TEXT NOT NULL DEFAULT '[]',
    done                  BOOLEAN NOT NULL DEFAULT FALSE,
    denied                BOOLEAN NOT NULL DEFAULT FALSE,
    code_hash             TEXT,
    code_used_at          TIMESTAMP,
    created_at            TIMESTAMP NOT NULL,
    expires_at            TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX oidc_auth_requests_code ON oidc_auth_requests (code_hash);
CREATE INDEX oidc_auth_requests_expiry ON oidc_auth_requests (expires_at);

CREATE TABLE oidc_tokens (
    id                TEXT PRIMARY KEY,
    kind              TEXT NOT NULL,
    token_hash        TEXT NOT NULL,
    client_id         TEXT NOT NULL REFERENCES oidc_clients (id) ON DELETE CASCADE,
    person_id         TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    scopes            TEXT NOT NULL DEFAULT '[]',
    audience          TEXT NOT NULL DEFAULT '[]',
    amr               TEXT NOT NULL DEFAULT '[]',
    auth_time         TIMESTAMP NOT NULL,
    -- family: every refresh token rotated from one grant, and the access
    -- tokens issued with them; a reused refresh token revokes it all.
    family_id         TEXT NOT NULL,
    auth_request_id   TEXT NOT NULL DEFAULT '',
    portal_session_id TEXT NOT NULL DEFAULT '',
    used_at           TIMESTAMP,
    revoked_at        TIMESTAMP,
    created_at        TIMESTAMP NOT NULL,
    expires_at        TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX oidc_tokens_hash ON oidc_tokens (token_hash);
CREATE INDEX oidc_tokens_family ON oidc_tokens (family_id);
CREATE INDEX oidc_tokens_person ON oidc_tokens (person_id, client_id);
CREATE INDEX oidc_tokens_session ON oidc_tokens (portal_session_id);
CREATE INDEX oidc_tokens_request ON oidc_tokens (auth_request_id);
CREATE INDEX oidc_tokens_expiry ON oidc_tokens (expires_at);

CREATE TABLE oidc_device_codes (
    device_code_hash TEXT PRIMARY KEY,
    user_code        TEXT NOT NULL,
    client_id        TEXT NOT NULL REFERENCES oidc_clients (id) ON DELETE CASCADE,
    scopes           TEXT NOT NULL DEFAULT '[]',
    state            TEXT NOT NULL DEFAULT 'pending',
    person_id        TEXT REFERENCES people (id) ON DELETE CASCADE,
    auth_time        TIMESTAMP,
    created_at       TIMESTAMP NOT NULL,
    expires_at       TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX oidc_device_codes_user_code ON oidc_device_codes (user_code);

CREATE TABLE oidc_consents (
    person_id  TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    client_id  TEXT NOT NULL REFERENCES oidc_clients (id) ON DELETE CASCADE,
    scopes     TEXT NOT NULL DEFAULT '[]',
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (person_id, client_id)
);
