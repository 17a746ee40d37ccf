package machinetokens

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Limits of a token.
const (
	maxName     = 100
	maxServices = 100
	maxLifetime = 10 * 365 * 24 * time.Hour
)

// normalize checks the fields' meaning (the JSON shape was checked when the
// body was bound) and canonicalises them. Whether the services exist is
// checked in the transaction that stores the token.
func (r *CreateRequest) normalize(now time.Time) error {
	var c apperr.Collector
	r.Name = strings.TrimSpace(r.Name)
	if n := utf8.RuneCountInString(r.Name); n < 1 || n > maxName || !nameChars(r.Name) {
		c.Add("name", "must be 1 to %d characters: letters, digits, spaces, and . _ @ + -", maxName)
	}
	switch {
	case len(r.ServiceIDs) == 0:
		c.Add("serviceIds", "must name at least one service")
	case len(r.ServiceIDs) > maxServices:
		c.Add("serviceIds", "must name at most %d services", maxServices)
	}
	seen := map[string]bool{}
	ids := r.ServiceIDs[:0]
	for _, id := range r.ServiceIDs {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	r.ServiceIDs = ids
	if r.Scope.PathPrefix = strings.TrimSpace(r.Scope.PathPrefix); r.Scope.PathPrefix != "" {
		p := rules.PathMatch{Type: rules.PathPrefix, Value: r.Scope.PathPrefix}
		rules.NormalizePath(&p, "scope.pathPrefix", &c)
		r.Scope.PathPrefix = p.Value
	}
	methods := []string{}
	for i, m := range r.Scope.Methods {
		m = strings.ToUpper(strings.TrimSpace(m))
		if !rules.ValidMethod(m) {
			c.Add(fmt.Sprintf("scope.methods[%d]", i), "must be an HTTP method such as GET or PROPFIND")
			continue
		}
		if !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
	}
	r.Scope.Methods = methods
	if r.ExpiresAt != nil {
		t := r.ExpiresAt.UTC()
		r.ExpiresAt = &t
		switch {
		case !t.After(now):
			c.Add("expiresAt", "must be in the future")
		case t.Sub(now) > maxLifetime:
			c.Add("expiresAt", "must be within 10 years")
		}
	}
	return c.Err()
}

// nameChars keeps names readable in Remote-User ("token:<name>") and logs.
func nameChars(s string) bool {
	for _, r := range s {
		ok := r == ' ' || r == '.' || r == '_' || r == '@' || r == '+' || r == '-' ||
			'0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}

// Check normalizes and validates req as Create does, for callers that
// write tokens another way (the configuration import).
func Check(req *CreateRequest, now time.Time) error { return req.normalize(now) }
