-- Signing in on the portal with the OpenID provider. A person linked to the
-- provider (sso_issuer, sso_subject) keeps when the link was made
-- (sso_linked_at). sso_username is set only by the upgrade from
-- per-service single sign-on: the previous release admitted a provider
-- user whose preferred_username (or subject) was a listed name, so the
-- person made for that name is linked to the first provider identity with
-- that name. from_provider marks a group membership the provider's groups
-- claim gave: it follows the claim at every sign-in, while memberships an
-- administrator gave stay as they are. A group's provider_name, when set,
-- is the exact value of the groups claim that means this group (the upgrade
-- sets it to the name a per-service allow-list used, which the directory's
-- own group names may not be able to spell); otherwise the claim's value
-- matches the group's name, whatever its case.
ALTER TABLE people ADD COLUMN sso_linked_at TIMESTAMP;
ALTER TABLE people ADD COLUMN sso_username TEXT NOT NULL DEFAULT '';
ALTER TABLE people_group_members ADD COLUMN from_provider BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE people_groups ADD COLUMN provider_name TEXT NOT NULL DEFAULT '';
