package audit

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return len(s) == 36 && err == nil
}

// parentItem is the GET route of the item a sub-resource route belongs to
// ("/api/services/:id/access" belongs to "/api/services/:id"), when that
// item answers GET: an entry about a service's access rules is named
// after the service.
func parentItem(route string, routes routeSet) string {
	i := strings.LastIndex(route, "/:")
	if i < 0 {
		return ""
	}
	end := strings.IndexByte(route[i+1:], '/')
	if end < 0 {
		return "" // the route is the item itself
	}
	parent := route[:i+1+end]
	if !routes["GET "+parent] {
		return ""
	}
	return parent
}

// maxNameLookups bounds how many ids one page looks up.
const maxNameLookups = 500

// fillNames names the entries recorded without a name after the newest
// entry about the same resource id that had one: entries written before
// names were recorded for every write, and writes whose answer had none
// (the entry that created the resource named it, and the log keeps that
// entry after the resource is gone). The stored row is not changed: its
// hash covers what was recorded.
func (s *Service) fillNames(ctx context.Context, rows []row) error {
	var ids []string
	seen := map[string]bool{}
	for i := range rows {
		// Only generated ids (UUIDs) are unique across resources; a type
		// name or a file name in the id slot could match another's entry.
		if id := rows[i].ResourceID; rows[i].ResourceName == "" && isUUID(id) && !seen[id] && len(ids) < maxNameLookups {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var named []struct {
		ResourceID   string
		ResourceName string
	}
	err := s.db.WithContext(ctx).Model(&row{}).Select("resource_id", "resource_name").
		Where(`resource_id IN ? AND resource_name <> '' AND seq = (SELECT MAX(b.seq) FROM audit_entries b
			WHERE b.resource_id = audit_entries.resource_id AND b.resource_name <> '')`, ids).
		Find(&named).Error
	if err != nil {
		return fmt.Errorf("name audit entries: %w", err)
	}
	names := make(map[string]string, len(named))
	for _, n := range named {
		names[n.ResourceID] = n.ResourceName
	}
	for i := range rows {
		if rows[i].ResourceName == "" {
			rows[i].ResourceName = names[rows[i].ResourceID]
		}
	}
	return nil
}
