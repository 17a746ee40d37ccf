ALTER TABLE admin_sessions DROP COLUMN address;
ALTER TABLE admin_sessions DROP COLUMN user_agent;
