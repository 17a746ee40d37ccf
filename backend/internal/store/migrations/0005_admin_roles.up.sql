-- Administrators get a role ("admin": everything; "viewer": every read, no
-- writes, no secret-bearing pages) and can be disabled without being
-- deleted. Existing administrators keep full rights.
ALTER TABLE admin_users ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE admin_users ADD COLUMN disabled_at TIMESTAMP;
