-- The "people" protection opens sessions for people of the directory,
-- through the sign-in portal: person_id names the person (their name,
-- address and groups are read from the directory on every request),
-- portal_session_id the portal session it came from (signing out there ends
-- it), second_factor whether that sign-in used a second factor, and
-- signed_in_at when the person last proved who they are (a service's
-- maximum sign-in age is measured from it).
ALTER TABLE sessions ADD COLUMN person_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN portal_session_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN second_factor BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE sessions ADD COLUMN signed_in_at TIMESTAMP;
-- How a service shows on the portal's launcher: shown or hidden, a
-- description, an icon, a group and an order (JSON).
ALTER TABLE services ADD COLUMN launcher TEXT NOT NULL DEFAULT '{}';
CREATE INDEX sessions_person ON sessions (person_id);
CREATE INDEX sessions_portal_session ON sessions (portal_session_id);
