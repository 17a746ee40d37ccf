-- A shared link may ask its visitor for a PIN or a password before it is
-- used. Only its bcrypt hash is kept; pin_failures counts the wrong answers,
-- and the link locks once it reaches the limit the panel sets.
ALTER TABLE shared_links ADD COLUMN pin_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE shared_links ADD COLUMN pin_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE shared_links ADD COLUMN pin_failures INTEGER NOT NULL DEFAULT 0;
