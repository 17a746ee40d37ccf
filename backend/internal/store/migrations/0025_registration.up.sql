-- Self-registration: a visitor with an address in a listed domain asks for
-- a link; the link is an invitation of kind 'registration' (same token
-- handling, same accept path). The settings are one row.
ALTER TABLE invitations ADD COLUMN kind TEXT NOT NULL DEFAULT 'invitation';
CREATE TABLE registration_settings (
    id          INTEGER PRIMARY KEY,
    mode        TEXT NOT NULL DEFAULT 'off',
    domains     TEXT NOT NULL DEFAULT '[]',
    group_ids   TEXT NOT NULL DEFAULT '[]',
    updated_at  TIMESTAMP NOT NULL
);
