DROP TABLE oidc_consents;
DROP TABLE oidc_device_codes;
DROP TABLE oidc_tokens;
DROP TABLE oidc_auth_requests;
DROP TABLE oidc_signing_keys;
