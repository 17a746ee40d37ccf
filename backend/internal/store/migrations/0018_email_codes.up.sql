-- One-time codes of the e-mail code protection. Only a keyed hash of the
-- code is stored; a code works once, for a few minutes and a few attempts.
CREATE TABLE email_codes (
    id         TEXT PRIMARY KEY,
    service_id TEXT NOT NULL REFERENCES services (id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    code_hash  TEXT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    expires_at TIMESTAMP NOT NULL,
    used_at    TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX email_codes_lookup ON email_codes (service_id, email);
CREATE INDEX email_codes_expires ON email_codes (expires_at);
