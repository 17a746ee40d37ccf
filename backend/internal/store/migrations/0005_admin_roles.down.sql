ALTER TABLE admin_users DROP COLUMN disabled_at;
ALTER TABLE admin_users DROP COLUMN role;
