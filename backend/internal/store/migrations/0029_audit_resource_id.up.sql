-- The audit log names an entry recorded without a name (older entries, a
-- write that returned nothing to name) after the newest entry about the
-- same resource id that had one: this index answers that per id.
CREATE INDEX audit_entries_resource_id ON audit_entries (resource_id, seq);
