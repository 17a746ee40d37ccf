-- The people search matches the start of a username, an e-mail address or
-- a display name, whatever its case: one index per field on its lower-case
-- form lets both engines answer a prefix as a range of the index
-- (lower(x) >= 'ann' AND lower(x) < 'ano') instead of reading every person.
CREATE INDEX people_search_username ON people (lower(username));
CREATE INDEX people_search_email ON people (lower(email));
CREATE INDEX people_search_name ON people (lower(display_name));
