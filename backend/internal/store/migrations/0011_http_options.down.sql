ALTER TABLE services DROP COLUMN maintenance_message;
ALTER TABLE services DROP COLUMN maintenance;
ALTER TABLE services DROP COLUMN redirect;
ALTER TABLE services DROP COLUMN kind;
ALTER TABLE services DROP COLUMN hsts;
ALTER TABLE services DROP COLUMN https_redirect;
ALTER TABLE domains DROP COLUMN hsts;
ALTER TABLE domains DROP COLUMN https_redirect;
