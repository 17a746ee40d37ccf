ALTER TABLE admin_users DROP COLUMN proxy_hash;
