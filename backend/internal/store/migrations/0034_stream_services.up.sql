-- TCP and UDP services (kind "tcp" or "udp"): a TCP service's options as
-- JSON (TLS mode, PROXY protocol version, address allow list, connection
-- limit). Its SNI host names are the service's hostnames, its entrypoints
-- and targets the service's own columns; a UDP service needs nothing more.
ALTER TABLE services ADD COLUMN tcp TEXT NOT NULL DEFAULT '{}';
