package dynconf

import (
	"context"
	"sort"
	"strings"
)

// EntrypointTLS is a source of truth about which entrypoints terminate TLS.
// ok is false when the source has nothing to say (not configured,
// unreachable and never reached); the next source is asked then.
type EntrypointTLS interface {
	TLSEntrypoints(ctx context.Context) (tls map[string]bool, ok bool)
}

// IsTLSByName is the documented last-resort heuristic: an entrypoint whose
// name contains "secure", "https" or "tls" (websecure, https, tls-public) is
// a TLS entrypoint; everything else (web, http, ...) serves plain HTTP.
func IsTLSByName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "secure") || strings.Contains(n, "https") || strings.Contains(n, "tls")
}

// isTLS answers for one entrypoint: the snapshot's knowledge first, the
// name heuristic otherwise.
func (s *Snapshot) isTLS(ep string) bool {
	if v, ok := s.EntrypointTLS[ep]; ok {
		return v
	}
	return IsTLSByName(ep)
}

// tlsEntrypoints lists (sorted) every TLS entrypoint the snapshot knows of or
// refers to: certificate-trigger and admin routers bind to these.
func (s *Snapshot) tlsEntrypoints() []string {
	set := map[string]bool{}
	for ep, v := range s.EntrypointTLS {
		if v && validEntrypoint(ep) {
			set[ep] = true
		}
	}
	seen := map[string]bool{} // thousands of services share a few names
	add := func(eps []string) {
		for _, ep := range eps {
			if seen[ep] {
				continue
			}
			seen[ep] = true
			if s.isTLS(ep) && validEntrypoint(ep) {
				set[ep] = true
			}
		}
	}
	add(s.DefaultEntrypoints)
	for _, sv := range s.Services {
		add(sv.Entrypoints)
	}
	out := make([]string, 0, len(set))
	for ep := range set {
		out = append(out, ep)
	}
	sort.Strings(out)
	return out
}

// redirectEntrypoint is the plain-HTTP entrypoint a service listening on TLS
// entrypoints only is redirected from when its HTTPS redirect is on: "web"
// (Traefik's documented name, the one the install guide and managed mode
// define), else "http", unless a source knows the entrypoints and has
// neither as a plain one; "" then, and the redirect is inactive (Warnings
// says so).
func (s *Snapshot) redirectEntrypoint() string {
	for _, ep := range [...]string{"web", "http"} {
		if tls, known := s.EntrypointTLS[ep]; known && !tls {
			return ep
		}
	}
	if len(s.EntrypointTLS) == 0 {
		return "web"
	}
	return ""
}

// firstTLSSource asks each source in order and returns the first answer.
func firstTLSSource(ctx context.Context, sources []EntrypointTLS) map[string]bool {
	for _, s := range sources {
		if s == nil {
			continue
		}
		if m, ok := s.TLSEntrypoints(ctx); ok {
			return m
		}
	}
	return nil
}
