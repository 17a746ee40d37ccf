DROP TABLE audit_entries;
DELETE FROM app_config WHERE key IN ('audit', 'audit_anchor');
