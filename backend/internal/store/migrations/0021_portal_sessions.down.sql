DROP INDEX admin_sessions_portal;
ALTER TABLE admin_sessions DROP COLUMN remember;
ALTER TABLE admin_sessions DROP COLUMN second_factor;
ALTER TABLE admin_sessions DROP COLUMN portal;
