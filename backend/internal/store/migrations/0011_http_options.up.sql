-- HTTPS options. A domain holds the defaults its services inherit: redirect
-- plain HTTP to HTTPS, and the Strict-Transport-Security policy (JSON
-- {"maxAge":..,"includeSubdomains":..,"preload":..}; maxAge 0 sends none).
-- A service overrides either one: NULL / 'null' inherits the domain's.
ALTER TABLE domains ADD COLUMN https_redirect BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE domains ADD COLUMN hsts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE services ADD COLUMN https_redirect BOOLEAN;
ALTER TABLE services ADD COLUMN hsts TEXT NOT NULL DEFAULT 'null';
-- What a service does: 'proxy' to its targets, or 'redirect' every request to
-- redirect's URL (JSON {"url":..,"permanent":..,"keepPath":..}); the targets
-- stay stored when a service becomes a redirect and back.
ALTER TABLE services ADD COLUMN kind TEXT NOT NULL DEFAULT 'proxy';
ALTER TABLE services ADD COLUMN redirect TEXT NOT NULL DEFAULT '{}';
-- Maintenance: while on, the service's routers send every request to the
-- panel, which answers 503 with maintenance_message; the rest of the
-- service's settings are kept as they are.
ALTER TABLE services ADD COLUMN maintenance BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE services ADD COLUMN maintenance_message TEXT NOT NULL DEFAULT '';
-- Load-balancer options (JSON): Traefik health check, sticky-session cookie
-- and upstream timeouts; a target's weight lives in targets.
ALTER TABLE services ADD COLUMN load_balancer TEXT NOT NULL DEFAULT '{}';
