package dynconf

import (
	"strconv"
	"strings"
)

// Prefix starts every emitted name, so the panel's objects are recognisable
// among other providers' (and in the conflict view).
const Prefix = "gh-"

// Fixed names for objects that do not belong to one service.
const (
	panelServiceName   = Prefix + "panel"
	triggerServiceName = Prefix + "cert-trigger"
	triggerPathMW      = Prefix + "cert-trigger-path"
)

// MaintenancePath is where the panel answers a service's maintenance page
// (followed by /<service id>); maintenance routers rewrite every path to it.
const MaintenancePath = "/api/proxy/maintenance"

// NoopService is Traefik's built-in service that answers nothing itself:
// the routers of redirect services use it, their middleware answers.
const NoopService = "noop@internal"

// TriggerPath is the reserved path certificate-trigger routers match; no
// real service is expected to use it.
const TriggerPath = "/.well-known/gatehouse-cert-trigger"

// CertTriggerPath is where the panel answers certificate-trigger requests
// (triggerPathMW rewrites TriggerPath to it).
const CertTriggerPath = "/api/proxy/cert-trigger"

// reservedSlugs would make a service's names collide with the fixed ones.
var reservedSlugs = map[string]bool{"admin": true, "cert": true, "panel": true, "auth": true, "headers": true}

const maxSlug = 40

// slugify turns a display name into [a-z0-9-], at most maxSlug long.
func slugify(name, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxSlug {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return fallback
	}
	return s
}

// slugger hands out unique slugs: the first holder of a base keeps it, later
// ones get -2, -3, ... in call order (creation order, so stable).
type slugger struct {
	used map[string]bool
	last map[string]int // the last suffix handed out per base
}

func newSlugger() *slugger {
	u := map[string]bool{}
	for k := range reservedSlugs {
		u[k] = true
	}
	return &slugger{used: u, last: map[string]int{}}
}

func (s *slugger) next(base string) string {
	slug := base
	n := s.last[base]
	if n < 2 {
		n = 2
	}
	for s.used[slug] {
		slug = base + "-" + strconv.Itoa(n)
		n++
	}
	s.last[base] = n
	s.used[slug] = true
	return slug
}
