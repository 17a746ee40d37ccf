-- Alert rules: a threshold on a service's traffic (service_id set) or on
-- the panel's totals (service_id NULL), held for for_minutes before it
-- fires. kind: error_ratio (threshold in percent), latency_p95 (threshold
-- in milliseconds), no_traffic and backend_down (no threshold).
CREATE TABLE alert_rules (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    service_id   TEXT REFERENCES services (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    threshold    DOUBLE PRECISION NOT NULL DEFAULT 0,
    for_minutes  INTEGER NOT NULL,
    enabled      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX alert_rules_name ON alert_rules (name);
CREATE INDEX alert_rules_service ON alert_rules (service_id);

-- Alert events: one row per episode, from firing to resolved. The history
-- outlives its rule and service (names copied, no foreign keys). At most
-- one episode of a rule is open: the partial unique index keeps a second
-- leader from firing the same episode twice.
CREATE TABLE alert_events (
    id              TEXT PRIMARY KEY,
    rule_id         TEXT NOT NULL,
    rule_name       TEXT NOT NULL,
    service_id      TEXT,
    service_name    TEXT NOT NULL DEFAULT '',
    kind            TEXT NOT NULL,
    threshold       DOUBLE PRECISION NOT NULL DEFAULT 0,
    for_minutes     INTEGER NOT NULL,
    value           DOUBLE PRECISION,
    fired_at        TIMESTAMP NOT NULL,
    resolved_at     TIMESTAMP,
    resolved_value  DOUBLE PRECISION,
    resolution      TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX alert_events_open ON alert_events (rule_id) WHERE resolved_at IS NULL;
CREATE INDEX alert_events_fired ON alert_events (fired_at);
CREATE INDEX alert_events_rule ON alert_events (rule_id, fired_at);
CREATE INDEX alert_events_service ON alert_events (service_id, fired_at);
