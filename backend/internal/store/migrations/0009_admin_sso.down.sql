DROP INDEX admin_users_sso;
ALTER TABLE admin_users DROP COLUMN sso_subject;
ALTER TABLE admin_users DROP COLUMN sso_issuer;
ALTER TABLE admin_users DROP COLUMN email;
