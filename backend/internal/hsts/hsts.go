// Package hsts checks Strict-Transport-Security policies, for the domains
// (defaults) and services (overrides) that store them.
package hsts

import (
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// MaxAge is the longest max-age accepted (two years, the longest browsers
// honour); PreloadMinAge is the shortest the preload list accepts (one year).
const (
	MaxAge        = 2 * 365 * 24 * 3600
	PreloadMinAge = 365 * 24 * 3600
)

// Check adds the problems of h to c under field (e.g. "https.hsts").
func Check(c *apperr.Collector, field string, h store.HSTS) {
	if h.MaxAge < 0 || h.MaxAge > MaxAge {
		c.Add(field+".maxAge", "must be between 0 (no header) and %d seconds (two years)", MaxAge)
		return
	}
	if h.MaxAge == 0 && (h.IncludeSubdomains || h.Preload) {
		c.Add(field+".maxAge", "must be set (at least 1) to use includeSubdomains or preload")
	}
	if h.Preload && (!h.IncludeSubdomains || h.MaxAge < PreloadMinAge) {
		c.Add(field+".preload", "needs includeSubdomains and a maxAge of at least one year (%d seconds)", PreloadMinAge)
	}
}
