ALTER TABLE people_groups DROP COLUMN provider_name;
ALTER TABLE people_group_members DROP COLUMN from_provider;
ALTER TABLE people DROP COLUMN sso_username;
ALTER TABLE people DROP COLUMN sso_linked_at;
