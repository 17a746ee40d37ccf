package runtime

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Server is one backend of a panel service.
type Server struct {
	URL        string  `json:"url"`
	Status     string  `json:"status"`          // Traefik's view: UP, DOWN, or UNKNOWN when Traefik cannot tell
	Probe      string  `json:"probe,omitempty"` // with ?probe=true: up or down (a TCP connect)
	ProbeError string  `json:"probeError,omitempty"`
	ProbeMs    float64 `json:"probeMs,omitempty"`
}

// ServiceHealth is the backend health of one panel service.
type ServiceHealth struct {
	ServiceID string   `json:"serviceId"`
	Name      string   `json:"name"`
	Source    string   `json:"source"` // traefik (server status) or panel (targets; Traefik has no status)
	Up        int      `json:"up"`
	Total     int      `json:"total"`
	Servers   []Server `json:"servers"`
}

// HealthView is GET /api/proxy/health.
type HealthView struct {
	Status
	Probed bool            `json:"probed"`
	Items  []ServiceHealth `json:"items"`
}

// maxProbes bounds concurrent direct probes.
const maxProbes = 16

// Health reports each enabled panel service's backends as Traefik sees them
// (its server status, kept current by health checks when configured) and,
// with probe, as a direct TCP connect sees them. The targets come from the
// panel when Traefik is unreachable, so the probe still works then.
func (s *Service) Health(ctx context.Context, probe bool) (HealthView, error) {
	v := HealthView{Probed: probe, Items: []ServiceHealth{}}
	var raw *rawData
	if s.d.Client != nil {
		raw, v.Status = s.fetchRaw(ctx)
	} else {
		v.Status = s.status(nil)
	}
	panel, byService, err := s.panelServicesInTraefik(ctx, raw)
	if err != nil {
		return v, err
	}
	// Sized once: the round holds the items while it probes (10,000
	// services grown by appends would hold room for 16,384).
	v.Items = make([]ServiceHealth, 0, len(panel))
	for _, ps := range panel {
		h := ServiceHealth{ServiceID: ps.id, Name: ps.name, Source: "panel", Servers: []Server{}}
		if raw != nil {
			for _, n := range byService[ps.id] {
				var info rawInfo
				if b, ok := raw.Services[n]; ok && json.Unmarshal(b, &info) == nil {
					h.Source = "traefik"
					h.Servers = append(h.Servers, serversOf(info)...)
				}
			}
		}
		if h.Source == "panel" {
			for _, t := range ps.targets {
				h.Servers = append(h.Servers, Server{URL: targetURL(t), Status: "UNKNOWN"})
			}
		}
		v.Items = append(v.Items, h)
	}
	if probe {
		s.probeAll(ctx, v.Items)
	}
	for i := range v.Items {
		h := &v.Items[i]
		h.Total = len(h.Servers)
		for _, sv := range h.Servers {
			if sv.Status == "UP" {
				h.Up++
			}
		}
	}
	return v, nil
}

func serversOf(info rawInfo) []Server {
	var out []Server
	for _, u := range slices.Sorted(maps.Keys(info.ServerStatus)) {
		out = append(out, Server{URL: u, Status: strings.ToUpper(info.ServerStatus[u])})
	}
	if len(out) == 0 && info.LoadBalancer != nil {
		for _, sv := range info.LoadBalancer.Servers {
			u := sv.URL
			if u == "" {
				u = sv.Address
			}
			out = append(out, Server{URL: u, Status: "UNKNOWN"})
		}
	}
	return out
}

func targetURL(t store.Target) string {
	return t.Scheme + "://" + net.JoinHostPort(t.Host, strconv.Itoa(t.Port))
}

// probeAll connects to every server concurrently (bounded), filling Probe.
func (s *Service) probeAll(ctx context.Context, items []ServiceHealth) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxProbes)
	for i := range items {
		for j := range items[i].Servers {
			sv := &items[i].Servers[j]
			// A slot is taken before the goroutine starts: at most
			// maxProbes goroutines exist, not one parked per server (10,000
			// services held 10,000 stacks for the length of a round).
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				s.probe(ctx, sv)
			}()
		}
	}
	wg.Wait()
}

// probe opens and closes one TCP connection: it says whether something
// listens, and never speaks HTTP, so it cannot follow a redirect.
func (s *Service) probe(ctx context.Context, sv *Server) {
	addr, err := dialAddress(sv.URL)
	if err != nil {
		sv.Probe, sv.ProbeError = "down", err.Error()
		return
	}
	ctx, cancel := context.WithTimeout(ctx, s.d.ProbeTimeout)
	defer cancel()
	start := time.Now()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		sv.Probe, sv.ProbeError = "down", reason(err, s.d.ProbeTimeout)
		return
	}
	_ = conn.Close()
	sv.Probe, sv.ProbeMs = "up", round(float64(time.Since(start).Microseconds())/1000, 2)
}

// dialAddress turns a server URL (or a bare host:port) into host:port,
// defaulting the port by scheme.
func dialAddress(raw string) (string, error) {
	if !strings.Contains(raw, "://") {
		if _, _, err := net.SplitHostPort(raw); err != nil {
			return "", err
		}
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return "", &net.AddrError{Err: "not a server URL", Addr: raw}
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port), nil
}
