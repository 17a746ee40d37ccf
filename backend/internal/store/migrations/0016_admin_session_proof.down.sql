ALTER TABLE admin_sessions DROP COLUMN proved_at;
