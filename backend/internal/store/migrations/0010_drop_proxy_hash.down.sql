-- The column comes back empty; migration 0002's readers fill it at the next
-- sign-in or password change.
ALTER TABLE admin_users ADD COLUMN proxy_hash TEXT NOT NULL DEFAULT '';
