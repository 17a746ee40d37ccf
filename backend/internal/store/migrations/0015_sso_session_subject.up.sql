-- A forward-auth SSO session keeps the provider's stable identity (issuer
-- and subject) and preferred_username as sent, so a service's allow-list is
-- re-checked on every request against the claim each entry names (sub:
-- entries the subject, e-mail entries the verified address, other entries
-- preferred_username).
ALTER TABLE sessions ADD COLUMN sso_issuer TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN sso_subject TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN sso_username TEXT NOT NULL DEFAULT '';

-- Sessions opened before this version may carry an e-mail address the
-- provider had not verified (in Remote-Email, and matched against allow
-- lists): their holders sign in once more.
DELETE FROM sessions WHERE kind = 'sso';

-- Sign-ins in progress now travel sealed in the browser's cookie; rows of
-- the former kinds would never be read again.
DELETE FROM sso_pending WHERE kind IN ('login', 'admin_login');
