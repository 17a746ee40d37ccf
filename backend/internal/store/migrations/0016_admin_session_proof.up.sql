-- When the person behind each administrator session last proved who they
-- are (signing in, or a password, code or passkey given again): adding a
-- passkey, new recovery codes and removing a second factor need a proof of
-- the last few minutes. Sessions opened before this migration have none
-- and are asked for one.
ALTER TABLE admin_sessions ADD COLUMN proved_at TIMESTAMP;
