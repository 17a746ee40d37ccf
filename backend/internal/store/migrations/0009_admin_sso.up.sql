-- Administrators who sign in with the OpenID provider are linked to it by
-- the provider's issuer and subject (stable, unlike usernames and email
-- addresses). Email is what the provider last said, for matching and display.
ALTER TABLE admin_users ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE admin_users ADD COLUMN sso_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE admin_users ADD COLUMN sso_subject TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX admin_users_sso ON admin_users (sso_issuer, sso_subject) WHERE sso_subject <> '';
