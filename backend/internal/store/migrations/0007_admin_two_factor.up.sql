-- Two-factor sign-in for administrators: TOTP, one-use recovery codes and
-- passkeys (WebAuthn). The TOTP secret is sealed with the panel's age
-- identity; recovery codes and challenge tokens are random and high-entropy,
-- so they are stored only as SHA-256 hashes.

CREATE TABLE admin_totp (
    user_id      TEXT PRIMARY KEY REFERENCES admin_users (id) ON DELETE CASCADE,
    secret       TEXT NOT NULL,
    -- NULL until a code confirms the enrolment; only then does it count.
    confirmed_at TIMESTAMP,
    -- The last 30-second step a code was accepted for: an older or equal
    -- step is refused, so one code never signs in twice.
    last_step    BIGINT NOT NULL DEFAULT 0,
    created_at   TIMESTAMP NOT NULL
);

CREATE TABLE admin_recovery_codes (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL UNIQUE,
    used_at    TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admin_recovery_codes_user ON admin_recovery_codes (user_id);

CREATE TABLE admin_passkeys (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
    -- base64url of the WebAuthn credential id, for lookups at sign-in.
    credential_id TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    -- The go-webauthn credential (public key, sign count, flags) as JSON.
    credential    TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    last_used_at  TIMESTAMP
);
CREATE INDEX admin_passkeys_user ON admin_passkeys (user_id);

-- Short-lived sign-in and WebAuthn ceremony state, bound to a browser by a
-- cookie whose value is stored here only as a hash. purpose is
-- "second_factor" (the password was right, a second factor is due),
-- "passkey_login" (passwordless) or "passkey_register".
CREATE TABLE admin_challenges (
    id         TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    purpose    TEXT NOT NULL,
    user_id    TEXT REFERENCES admin_users (id) ON DELETE CASCADE,
    address    TEXT NOT NULL DEFAULT '',
    data       TEXT NOT NULL DEFAULT '',
    expires_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX admin_challenges_expires ON admin_challenges (expires_at);

-- Panel-wide sign-in policy: one row.
CREATE TABLE admin_security (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    require_two_factor BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at         TIMESTAMP
);
INSERT INTO admin_security (id, require_two_factor) VALUES (1, FALSE);
