-- Per-app step-up for the OpenID provider: a client may admit only a
-- portal sign-in made with a second factor, or one at most max_age_seconds
-- old (0: no limit), as a people protection may. An authorization request
-- keeps the acr_values the app sent and the acr its answer carries. A
-- device authorization keeps how it was approved (amr) and its polling
-- (a device polling faster than poll_interval seconds is told slow_down,
-- and its interval grows by 5 seconds, RFC 8628 section 3.5).
ALTER TABLE oidc_clients ADD COLUMN second_factor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE oidc_clients ADD COLUMN max_age_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE oidc_auth_requests ADD COLUMN acr_values TEXT NOT NULL DEFAULT '[]';
ALTER TABLE oidc_auth_requests ADD COLUMN acr TEXT NOT NULL DEFAULT '';
ALTER TABLE oidc_device_codes ADD COLUMN amr TEXT NOT NULL DEFAULT '[]';
ALTER TABLE oidc_device_codes ADD COLUMN polled_at TIMESTAMP;
ALTER TABLE oidc_device_codes ADD COLUMN poll_interval INTEGER NOT NULL DEFAULT 0;
