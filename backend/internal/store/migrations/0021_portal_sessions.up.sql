-- Sessions opened on the sign-in portal's host are portal sessions: they
-- answer only there, serve every person whatever their panel role, follow
-- the portal's session policy and are where service sessions come from.
-- second_factor says the sign-in used a second factor or a passkey;
-- remember says it asked to be remembered (the longer idle timeout).
ALTER TABLE admin_sessions ADD COLUMN portal BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE admin_sessions ADD COLUMN second_factor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE admin_sessions ADD COLUMN remember BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX admin_sessions_portal ON admin_sessions (user_id, portal);
