DROP INDEX audit_entries_resource_id;
