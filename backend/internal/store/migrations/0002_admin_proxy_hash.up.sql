-- A second, cheaper bcrypt hash of each administrator's password, used only by
-- Traefik's basicAuth in front of the panel's own router in managed mode.
-- Traefik checks basic auth on every request without caching, so the
-- login-strength hash (cost 12, ~0.3 s per check) would make the panel slow
-- through the proxy. Empty until the password is next set or used to sign in.
ALTER TABLE admin_users ADD COLUMN proxy_hash TEXT NOT NULL DEFAULT '';
