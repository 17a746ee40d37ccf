DROP TABLE registration_settings;
ALTER TABLE invitations DROP COLUMN kind;
