-- The panel's own router in managed mode no longer sits behind Traefik's
-- basic auth (administrators may have no password, or sign in with a
-- passkey), so the cheaper second hash of each password has no reader: drop
-- it rather than keep weaker password material at rest.
ALTER TABLE admin_users DROP COLUMN proxy_hash;
