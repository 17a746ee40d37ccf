ALTER TABLE shared_links DROP COLUMN pin_failures;
ALTER TABLE shared_links DROP COLUMN pin_hash;
ALTER TABLE shared_links DROP COLUMN pin_kind;
