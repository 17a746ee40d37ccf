-- The client that opened each administrator session, recorded at sign-in so
-- an administrator can recognise and end their other sessions. Sessions
-- opened before this migration show empty values.
ALTER TABLE admin_sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE admin_sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
