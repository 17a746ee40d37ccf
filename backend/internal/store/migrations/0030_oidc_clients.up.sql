-- OpenID Connect clients: the apps that sign people in with the panel as
-- their provider. The id is the client_id. A confidential client's secret
-- is 256 random bits made by the panel, shown once; only its SHA-256 is
-- stored (as for machine tokens and app passwords). List columns are JSON
-- arrays in TEXT.
CREATE TABLE oidc_clients (
    id                          TEXT PRIMARY KEY,
    name                        TEXT NOT NULL,
    logo_url                    TEXT NOT NULL DEFAULT '',
    preset                      TEXT NOT NULL DEFAULT '',
    public                      BOOLEAN NOT NULL DEFAULT FALSE,
    secret_hash                 TEXT NOT NULL DEFAULT '',
    redirect_uris               TEXT NOT NULL DEFAULT '[]',
    post_logout_redirect_uris   TEXT NOT NULL DEFAULT '[]',
    backchannel_logout_uri      TEXT NOT NULL DEFAULT '',
    allowed_groups              TEXT NOT NULL DEFAULT '[]',
    scopes                      TEXT NOT NULL DEFAULT '[]',
    grant_types                 TEXT NOT NULL DEFAULT '[]',
    signing_alg                 TEXT NOT NULL DEFAULT 'RS256',
    claim_mappings              TEXT NOT NULL DEFAULT '[]',
    implied_consent             BOOLEAN NOT NULL DEFAULT FALSE,
    access_token_ttl_seconds    INTEGER NOT NULL DEFAULT 3600,
    id_token_ttl_seconds        INTEGER NOT NULL DEFAULT 3600,
    refresh_token_ttl_seconds   INTEGER NOT NULL DEFAULT 2592000,
    service_id                  TEXT REFERENCES services (id) ON DELETE SET NULL,
    disabled_at                 TIMESTAMP,
    created_at                  TIMESTAMP NOT NULL,
    updated_at                  TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX oidc_clients_name ON oidc_clients (name);
CREATE INDEX oidc_clients_service ON oidc_clients (service_id);
