-- Managed mode's DNS provider credentials, in one row: the JSON object of
-- their values, encrypted with age to the panel's identity and ASCII-armoured
-- (never plaintext). Every replica reads the same row, so each serves the
-- Traefik wrapper the same environment file under the same hash. Before this
-- table they lived in <data dir>/dns-credentials.age; the panel imports that
-- file once at start while the table is empty.
CREATE TABLE dns_credentials (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    sealed     TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
