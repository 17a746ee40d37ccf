// This file checks Strict-Transport-Security policies, for the domains
// (defaults) and services (overrides) that store them.

package validate

import (
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// HSTSMaxAge is the longest max-age accepted (two years, the longest browsers
// honour); HSTSPreloadMinAge is the shortest the preload list accepts (one year).
const (
	HSTSMaxAge        = 2 * 365 * 24 * 3600
	HSTSPreloadMinAge = 365 * 24 * 3600
)

// Policy is a Strict-Transport-Security policy as domains and services
// store it (store.HSTS converts to it).
type Policy struct {
	MaxAge            int64
	IncludeSubdomains bool
	Preload           bool
}

// HSTS adds the problems of h to c under field (e.g. "https.hsts").
func HSTS(c *apperr.Collector, field string, h Policy) {
	if h.MaxAge < 0 || h.MaxAge > HSTSMaxAge {
		c.Add(field+".maxAge", "must be between 0 (no header) and %d seconds (two years)", HSTSMaxAge)
		return
	}
	if h.MaxAge == 0 && (h.IncludeSubdomains || h.Preload) {
		c.Add(field+".maxAge", "must be set (at least 1) to use includeSubdomains or preload")
	}
	if h.Preload && (!h.IncludeSubdomains || h.MaxAge < HSTSPreloadMinAge) {
		c.Add(field+".preload", "needs includeSubdomains and a maxAge of at least one year (%d seconds)", HSTSPreloadMinAge)
	}
}
