ALTER TABLE shared_links DROP COLUMN path;
DROP TABLE machine_token_services;
DROP TABLE machine_tokens;
DROP TABLE service_access;
