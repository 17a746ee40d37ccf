-- State that every replica on one database must see, so that a request may
-- land on any of them.
--
-- Sign-ins in progress: an OpenID sign-in started on one replica finishes on
-- another (forward-auth logins, their one-time exchange tokens, the panel's
-- own sign-ins). kind names the flow; key_hash is the SHA-256 of the OAuth
-- state or of the exchange token, never the value itself; payload is JSON.
-- Taking one deletes the row in the same statement, so exactly one replica
-- wins; expired rows are never honoured and are swept.
CREATE TABLE sso_pending (
    kind       TEXT NOT NULL,
    key_hash   TEXT NOT NULL,
    payload    TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    PRIMARY KEY (kind, key_hash)
);
CREATE INDEX sso_pending_expires ON sso_pending (expires_at);

-- Failed attempts (sign-ins, basic auth, tokens) counted by the rate limiter
-- on PostgreSQL, one row per failure, so the limit holds across replicas.
-- key_hash is the SHA-256 of the limiter's scope and key (addresses and user
-- names are not stored as they are); scope lets each limiter prune its own
-- window.
CREATE TABLE rate_limit_failures (
    id        TEXT PRIMARY KEY,
    scope     TEXT NOT NULL,
    key_hash  TEXT NOT NULL,
    failed_at TIMESTAMP NOT NULL
);
CREATE INDEX rate_limit_failures_key ON rate_limit_failures (key_hash, failed_at);
CREATE INDEX rate_limit_failures_scope ON rate_limit_failures (scope, failed_at);
