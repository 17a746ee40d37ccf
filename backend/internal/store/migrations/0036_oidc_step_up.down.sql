ALTER TABLE oidc_device_codes DROP COLUMN poll_interval;
ALTER TABLE oidc_device_codes DROP COLUMN polled_at;
ALTER TABLE oidc_device_codes DROP COLUMN amr;
ALTER TABLE oidc_auth_requests DROP COLUMN acr;
ALTER TABLE oidc_auth_requests DROP COLUMN acr_values;
ALTER TABLE oidc_clients DROP COLUMN max_age_seconds;
ALTER TABLE oidc_clients DROP COLUMN second_factor;
