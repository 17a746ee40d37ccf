-- Traffic over time. One row per step (res: 60 for a minute, 3600 for an
-- hour; at: the step's start in unix seconds) and panel service
-- (service_id '' is every Traefik service together), written only for
-- steps that carried traffic. The primary key is the only index: it serves
-- one service's range and the global range alike, and on SQLite a second
-- index would hold every key a second time.
-- latency is the request-duration histogram of the step, its non-zero
-- buckets only, as "<upper bound in seconds>:<count>" pairs separated by
-- spaces (per bucket, not cumulative; "+Inf" is the last), so any range's
-- percentiles are computed when it is read.
-- up and checks: backends Traefik saw up, and with any status, summed
-- over the step's samples (the share of health checks up is up/checks).
CREATE TABLE traffic_samples (
    service_id  TEXT NOT NULL,
    res         INTEGER NOT NULL,
    at          BIGINT NOT NULL,
    req_2xx     BIGINT NOT NULL DEFAULT 0,
    req_3xx     BIGINT NOT NULL DEFAULT 0,
    req_4xx     BIGINT NOT NULL DEFAULT 0,
    req_5xx     BIGINT NOT NULL DEFAULT 0,
    bytes_in    BIGINT NOT NULL DEFAULT 0,
    bytes_out   BIGINT NOT NULL DEFAULT 0,
    latency     TEXT NOT NULL DEFAULT '',
    up          INTEGER NOT NULL DEFAULT 0,
    checks      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (service_id, res, at)
);
-- Forward-auth decisions: every replica counts the requests it answered
-- and writes its own rows (replica: its cluster id, '' on SQLite); a
-- query sums the replicas. The hourly roll-up sums them into replica ''.
CREATE TABLE traffic_decisions (
    service_id    TEXT NOT NULL,
    res           INTEGER NOT NULL,
    at            BIGINT NOT NULL,
    replica       TEXT NOT NULL DEFAULT '',
    allowed       BIGINT NOT NULL DEFAULT 0,
    signed_in     BIGINT NOT NULL DEFAULT 0,
    challenged    BIGINT NOT NULL DEFAULT 0,
    denied        BIGINT NOT NULL DEFAULT 0,
    rate_limited  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (service_id, res, at, replica)
);
