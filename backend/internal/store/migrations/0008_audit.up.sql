-- The audit log: one row per change, sign-in or failed sign-in. seq grows by
-- one per entry; hash is SHA-256 over the entry's fields and prev_hash (the
-- previous entry's hash), so editing, deleting or reordering a row breaks
-- the chain `gatehouse audit verify` walks. Pruning keeps the last pruned
-- entry's seq and hash in app_config ("audit_anchor") to verify from.
CREATE TABLE audit_entries (
    id            TEXT PRIMARY KEY,
    seq           BIGINT NOT NULL UNIQUE,
    at            TIMESTAMP NOT NULL,
    actor_kind    TEXT NOT NULL,
    actor_id      TEXT NOT NULL DEFAULT '',
    actor_name    TEXT NOT NULL DEFAULT '',
    address       TEXT NOT NULL DEFAULT '',
    action        TEXT NOT NULL,
    resource_type TEXT NOT NULL DEFAULT '',
    resource_id   TEXT NOT NULL DEFAULT '',
    resource_name TEXT NOT NULL DEFAULT '',
    method        TEXT NOT NULL DEFAULT '',
    route         TEXT NOT NULL DEFAULT '',
    status        INTEGER NOT NULL DEFAULT 0,
    diff          TEXT NOT NULL DEFAULT '[]',
    prev_hash     TEXT NOT NULL DEFAULT '',
    hash          TEXT NOT NULL
);
CREATE INDEX audit_entries_at ON audit_entries (at);
CREATE INDEX audit_entries_resource ON audit_entries (resource_type, resource_id);
CREATE INDEX audit_entries_actor ON audit_entries (actor_name);
