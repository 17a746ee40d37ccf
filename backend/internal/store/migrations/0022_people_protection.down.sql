DROP INDEX sessions_portal_session;
DROP INDEX sessions_person;
ALTER TABLE services DROP COLUMN launcher;
ALTER TABLE sessions DROP COLUMN signed_in_at;
ALTER TABLE sessions DROP COLUMN second_factor;
ALTER TABLE sessions DROP COLUMN portal_session_id;
ALTER TABLE sessions DROP COLUMN person_id;
