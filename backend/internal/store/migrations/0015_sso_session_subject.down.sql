ALTER TABLE sessions DROP COLUMN sso_username;
ALTER TABLE sessions DROP COLUMN sso_subject;
ALTER TABLE sessions DROP COLUMN sso_issuer;
