-- Traffic over time. A series is one panel service's figures as one
-- writer keeps them: Traefik's (replica '', written by the leader) or one
-- replica's forward-auth decisions (replica: its cluster id, '' with one
-- replica; a query sums the replicas). service_id '' is every service
-- together. Rows name their series by its small integer id (chosen at
-- random by the writer, retried on a clash) rather than by the service's
-- 36-character id: on SQLite the primary key is a second copy of the key
-- columns, so the key is kept to a few bytes.
CREATE TABLE traffic_series (
    id          BIGINT PRIMARY KEY,
    service_id  TEXT NOT NULL,
    replica     TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX traffic_series_service ON traffic_series (service_id, replica);
-- One row per series, resolution (res: 60 for a minute, 3600 for an hour)
-- and step (at: its start, unix seconds), written only for steps that
-- carried traffic or had a backend down. latency is the step's
-- request-duration histogram, its non-zero buckets only, as
-- "<upper bound in seconds>:<count>" pairs separated by spaces (per
-- bucket, not cumulative; "+Inf" last), so any range's percentiles are
-- computed when it is read. up and checks: backends Traefik saw up, and
-- with any status, summed over the step's samples.
CREATE TABLE traffic_samples (
    series     BIGINT NOT NULL,
    res        INTEGER NOT NULL,
    at         BIGINT NOT NULL,
    req_2xx    BIGINT NOT NULL DEFAULT 0,
    req_3xx    BIGINT NOT NULL DEFAULT 0,
    req_4xx    BIGINT NOT NULL DEFAULT 0,
    req_5xx    BIGINT NOT NULL DEFAULT 0,
    bytes_in   BIGINT NOT NULL DEFAULT 0,
    bytes_out  BIGINT NOT NULL DEFAULT 0,
    latency    TEXT NOT NULL DEFAULT '',
    up         INTEGER NOT NULL DEFAULT 0,
    checks     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (series, res, at)
);
CREATE TABLE traffic_decisions (
    series        BIGINT NOT NULL,
    res           INTEGER NOT NULL,
    at            BIGINT NOT NULL,
    allowed       BIGINT NOT NULL DEFAULT 0,
    signed_in     BIGINT NOT NULL DEFAULT 0,
    challenged    BIGINT NOT NULL DEFAULT 0,
    denied        BIGINT NOT NULL DEFAULT 0,
    rate_limited  BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (series, res, at)
);
