package audit

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Paging bounds.
const (
	DefaultLimit = 50
	MaxLimit     = 200
	// MaxExport bounds one CSV export.
	MaxExport = 100_000
)

// Filter selects entries. Empty fields match everything.
type Filter struct {
	Actor        string // actor name or id
	Action       string
	ResourceType string // exact, or a parent ("services" matches "services.access")
	ResourceID   string
	Q            string // free text over names, ids, route, address and diff
	From, To     time.Time
	// Before is the paging cursor: only entries with a smaller seq.
	Before int64
	Limit  int
	CSV    bool
}

// ParseFilter reads a Filter from the query string of GET /api/audit:
// actor, action, resourceType, resourceId, q, from, to (RFC 3339), before
// (a seq), limit (1..MaxLimit), format ("json" or "csv").
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Limit: DefaultLimit}
	var errs apperr.Collector
	text := func(name string, limit int) string {
		v := strings.TrimSpace(q.Get(name))
		if len(v) > limit {
			errs.Add(name, "must be at most %d characters", limit)
			return ""
		}
		return v
	}
	f.Actor = text("actor", 200)
	f.Action = text("action", 50)
	f.ResourceType = text("resourceType", 200)
	f.ResourceID = text("resourceId", 200)
	f.Q = text("q", 200)
	when := func(name string) time.Time {
		v := q.Get(name)
		if v == "" {
			return time.Time{}
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			errs.Add(name, "must be a date-time like 2026-01-02T15:04:05Z")
			return time.Time{}
		}
		return t.UTC()
	}
	f.From, f.To = when("from"), when("to")
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		errs.Add("to", "must not be before from")
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			errs.Add("before", "must be a positive sequence number")
		}
		f.Before = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			errs.Add("limit", "must be between 1 and %d", MaxLimit)
		}
		f.Limit = n
	}
	switch q.Get("format") {
	case "", "json":
	case "csv":
		f.CSV = true
	default:
		errs.Add("format", "must be json or csv")
	}
	if err := errs.Err(); err != nil {
		return Filter{}, err
	}
	return f, nil
}
