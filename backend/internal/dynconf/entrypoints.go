package dynconf

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
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

// IsTLSByPort is the port half of the heuristic: 443 and 8443 are TLS.
func IsTLSByPort(port int) bool { return port == 443 || port == 8443 }

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
	add := func(eps []string) {
		for _, ep := range eps {
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

// TraefikAPI reads Traefik's /api/entrypoints: an entrypoint is TLS when it
// has http.tls set, or (no TLS block but) listens on 443/8443. The last good
// answer is kept and refreshed at most every refresh interval, so a brief
// API outage never flips routers between TLS and plain HTTP.
type TraefikAPI struct {
	url     string
	client  *http.Client
	now     func() time.Time
	refresh time.Duration

	mu      sync.Mutex
	last    map[string]bool
	fetched time.Time
}

// NewTraefikAPI returns a source reading apiURL (e.g. http://traefik:8080).
func NewTraefikAPI(apiURL string, now func() time.Time) *TraefikAPI {
	return &TraefikAPI{
		url: strings.TrimRight(apiURL, "/"), now: now, refresh: 30 * time.Second,
		client: &http.Client{Timeout: 2 * time.Second},
	}
}

// TLSEntrypoints implements EntrypointTLS.
func (a *TraefikAPI) TLSEntrypoints(ctx context.Context) (map[string]bool, bool) {
	if a == nil || a.url == "" {
		return nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last != nil && a.now().Sub(a.fetched) < a.refresh {
		return a.last, true
	}
	m, err := a.fetch(ctx)
	a.fetched = a.now() // also after a failure: do not hammer a down API
	if err == nil {
		a.last = m
	}
	return a.last, a.last != nil
}

type apiEntrypoint struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	HTTP    struct {
		TLS json.RawMessage `json:"tls"`
	} `json:"http"`
}

func (a *TraefikAPI) fetch(ctx context.Context) (map[string]bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url+"/api/entrypoints", nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("traefik entrypoints: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("traefik entrypoints: status %d", resp.StatusCode)
	}
	var eps []apiEntrypoint
	if err := json.NewDecoder(resp.Body).Decode(&eps); err != nil {
		return nil, fmt.Errorf("traefik entrypoints: %w", err)
	}
	return entrypointTLSFromAPI(eps), nil
}

func entrypointTLSFromAPI(eps []apiEntrypoint) map[string]bool {
	m := make(map[string]bool, len(eps))
	for _, ep := range eps {
		tls := len(ep.HTTP.TLS) > 0 && string(ep.HTTP.TLS) != "null"
		if !tls {
			if _, p, err := net.SplitHostPort(ep.Address); err == nil {
				if n, err := strconv.Atoi(strings.SplitN(p, "/", 2)[0]); err == nil {
					tls = IsTLSByPort(n)
				}
			}
		}
		m[ep.Name] = tls
	}
	return m
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
