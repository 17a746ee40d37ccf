-- Notification channels. settings holds the kind's plain fields (JSON);
-- secrets holds its tokens, passwords and keyed webhook URLs as one JSON
-- object sealed with the panel's age identity. events is a JSON array of
-- event kinds the channel receives. The last_* columns keep the outcome of
-- the latest delivery, without secrets, for the UI.
CREATE TABLE notify_channels (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL,
    settings        TEXT NOT NULL DEFAULT '{}',
    secrets         TEXT NOT NULL DEFAULT '',
    events          TEXT NOT NULL DEFAULT '[]',
    enabled         BOOLEAN NOT NULL DEFAULT TRUE,
    last_attempt_at TIMESTAMP NULL,
    last_ok         BOOLEAN NOT NULL DEFAULT FALSE,
    last_error      TEXT NOT NULL DEFAULT '',
    last_event      TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL
);
