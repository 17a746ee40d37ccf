package alerts

import (
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Bounds of a rule's fields.
const (
	maxName          = 100
	maxForMinutes    = 24 * 60
	maxLatencyMs     = 600_000
	maxRules         = 500
	defaultEventList = 100
	maxEventList     = 500
	maxIDLen         = 64
)

// normalize checks the meaning of req and returns it cleaned: the name
// trimmed, an empty service id as none, the threshold of a kind without one
// as 0. Field names are the JSON ones.
func normalize(req RuleRequest) (RuleRequest, error) {
	var col apperr.Collector
	req.Name = strings.TrimSpace(req.Name)
	switch n := utf8.RuneCountInString(req.Name); {
	case !utf8.ValidString(req.Name):
		col.Add("name", "must be UTF-8 text")
	case n == 0 || n > maxName:
		col.Add("name", "must be between 1 and %d characters", maxName)
	case strings.ContainsFunc(req.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		col.Add("name", "must not contain control characters")
	}
	if req.ServiceID != nil {
		id := strings.TrimSpace(*req.ServiceID)
		switch {
		case id == "":
			req.ServiceID = nil
		case len(id) > maxIDLen:
			col.Add("serviceId", "must be a service's id (at most %d characters)", maxIDLen)
		default:
			req.ServiceID = &id
		}
	}
	switch req.Kind {
	case ErrorRatio:
		if !(req.Threshold > 0 && req.Threshold <= 100) {
			col.Add("threshold", "must be a percentage above 0 and at most 100")
		}
	case LatencyP95:
		if !(req.Threshold >= 1 && req.Threshold <= maxLatencyMs) {
			col.Add("threshold", "must be between 1 and %d milliseconds", maxLatencyMs)
		}
	case NoTraffic, BackendDown:
		req.Threshold = 0
	default:
		names := make([]string, len(Kinds))
		for i, k := range Kinds {
			names[i] = string(k)
		}
		col.Add("kind", "must be one of %s", strings.Join(names, ", "))
	}
	if req.ForMinutes < 1 || req.ForMinutes > maxForMinutes {
		col.Add("forMinutes", "must be between 1 and %d minutes", maxForMinutes)
	}
	return req, col.Err()
}
