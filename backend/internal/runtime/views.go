package runtime

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Entrypoint is one of Traefik's entrypoints.
type Entrypoint struct {
	Name         string `json:"name"`
	Address      string `json:"address"`
	TLS          bool   `json:"tls"`
	CertResolver string `json:"certResolver,omitempty"`
	AsDefault    bool   `json:"asDefault"`
	// Protocol is "udp" for an address ending in /udp, else "tcp" (which
	// HTTP routers use too).
	Protocol string `json:"protocol"`
}

// EntrypointsView is GET /api/proxy/entrypoints.
type EntrypointsView struct {
	Status
	Items []Entrypoint `json:"items"`
}

// Entrypoints lists Traefik's entrypoints, sorted by name.
func (s *Service) Entrypoints(ctx context.Context) EntrypointsView {
	v := EntrypointsView{Items: []Entrypoint{}}
	if s.d.Client == nil {
		v.Status = s.status(nil)
		return v
	}
	eps, err := s.d.Client.entrypoints(ctx)
	v.Status = s.status(err)
	if err != nil {
		return v
	}
	v.Items = toEntrypoints(eps)
	return v
}

func toEntrypoints(eps []rawEntrypoint) []Entrypoint {
	out := make([]Entrypoint, 0, len(eps))
	for _, ep := range eps {
		e := Entrypoint{Name: ep.Name, Address: ep.Address, AsDefault: ep.AsDefault, Protocol: addressProtocol(ep.Address)}
		if ep.HTTP != nil && ep.HTTP.TLS != nil {
			e.TLS, e.CertResolver = true, ep.HTTP.TLS.CertResolver
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// addressProtocol is an entrypoint address's protocol: "udp" for
// ":53/udp", "tcp" otherwise (":443", ":443/tcp").
func addressProtocol(addr string) string {
	if _, p, ok := strings.Cut(addr, "/"); ok && strings.EqualFold(p, "udp") {
		return "udp"
	}
	return "tcp"
}

// EntrypointProtocols maps each of Traefik's entrypoints to "tcp" or "udp"
// (see addressProtocol). ok is false when Traefik's API is not configured
// or cannot be reached: then nothing is known. The answer is cached like
// every read of the API.
func (c *Client) EntrypointProtocols(ctx context.Context) (map[string]string, bool) {
	if c == nil {
		return nil, false
	}
	eps, err := c.entrypoints(ctx)
	if err != nil {
		return nil, false
	}
	m := make(map[string]string, len(eps))
	for _, ep := range eps {
		m[ep.Name] = addressProtocol(ep.Address)
	}
	return m, true
}

// Middleware is one HTTP middleware Traefik runs.
type Middleware struct {
	Name     string   `json:"name"` // qualified: name@provider
	Provider string   `json:"provider"`
	Type     string   `json:"type"`
	Status   string   `json:"status"`
	Errors   []string `json:"errors"`
	UsedBy   []string `json:"usedBy"`
}

// MiddlewaresView is GET /api/proxy/middlewares.
type MiddlewaresView struct {
	Status
	Items []Middleware `json:"items"`
}

// Middlewares lists the middlewares a service may name: every HTTP
// middleware except Traefik's internal ones and the panel's own (gh-*@http),
// which the panel attaches by itself.
func (s *Service) Middlewares(ctx context.Context) MiddlewaresView {
	v := MiddlewaresView{Items: []Middleware{}}
	raw, st := s.fetchRaw(ctx)
	v.Status = st
	if raw == nil {
		return v
	}
	for _, m := range toMiddlewares(raw) {
		if m.Provider == "internal" || (m.Provider == "http" && strings.HasPrefix(m.Name, "gh-")) {
			continue
		}
		v.Items = append(v.Items, m)
	}
	return v
}

func toMiddlewares(raw *rawData) []Middleware {
	out := make([]Middleware, 0, len(raw.Middlewares))
	for _, name := range slices.Sorted(maps.Keys(raw.Middlewares)) {
		var info rawInfo
		_ = json.Unmarshal(raw.Middlewares[name], &info)
		out = append(out, Middleware{
			Name: name, Provider: provider(name), Type: typeOf(raw.Middlewares[name]),
			Status: info.Status, Errors: nonNil(info.Errors), UsedBy: nonNil(info.UsedBy),
		})
	}
	return out
}

// Router is one HTTP, TCP or UDP router.
type Router struct {
	Name        string          `json:"name"` // qualified: name@provider
	Provider    string          `json:"provider"`
	Rule        string          `json:"rule,omitempty"`
	Service     string          `json:"service"`
	EntryPoints []string        `json:"entryPoints"`
	Middlewares []string        `json:"middlewares,omitempty"`
	Priority    int64           `json:"priority,omitempty"`
	TLS         json.RawMessage `json:"tls,omitempty"`
	Status      string          `json:"status"`
	Errors      []string        `json:"errors"`
	ServiceID   string          `json:"serviceId,omitempty"`
}

// TraefikService is one HTTP service Traefik runs.
type TraefikService struct {
	Name         string   `json:"name"`
	Provider     string   `json:"provider"`
	Type         string   `json:"type"`
	Status       string   `json:"status"`
	Errors       []string `json:"errors"`
	ServersUp    int      `json:"serversUp"`
	ServersTotal int      `json:"serversTotal"`
	UsedBy       []string `json:"usedBy"`
	ServiceID    string   `json:"serviceId,omitempty"`
}

// View is GET /api/proxy/runtime.
type View struct {
	Status
	Version     string           `json:"version"`
	Routers     []Router         `json:"routers"`
	Services    []TraefikService `json:"services"`
	Middlewares []Middleware     `json:"middlewares"`
	Entrypoints []Entrypoint     `json:"entrypoints"`
	TCPRouters  []Router         `json:"tcpRouters"`
	UDPRouters  []Router         `json:"udpRouters"`
	// OwnersKnown is false when the panel could not tell which routers are
	// its own; serviceId is then missing everywhere.
	OwnersKnown bool `json:"ownersKnown"`
}

// Runtime is a live snapshot of everything Traefik runs, from every provider.
func (s *Service) Runtime(ctx context.Context) (View, error) {
	v := View{
		Routers: []Router{}, Services: []TraefikService{}, Middlewares: []Middleware{},
		Entrypoints: []Entrypoint{}, TCPRouters: []Router{}, UDPRouters: []Router{},
	}
	if s.d.Client == nil {
		v.Status = s.status(nil)
		return v, nil
	}
	var (
		wg      sync.WaitGroup
		raw     *rawData
		eps     []rawEntrypoint
		ver     string
		errs    [3]error
		fetches = []func(){
			func() { raw, errs[0] = s.d.Client.rawData(ctx) },
			func() { eps, errs[1] = s.d.Client.entrypoints(ctx) },
			func() { ver, errs[2] = s.d.Client.version(ctx) },
		}
	)
	for _, f := range fetches {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			v.Status = s.status(err)
			return v, nil
		}
	}
	v.Status = s.status(nil)
	v.Version = ver
	own, err := s.ownership(ctx, raw)
	if err != nil {
		return v, err
	}
	v.OwnersKnown = own.known
	v.Routers = toRouters(raw.Routers, own.router)
	v.TCPRouters = toRouters(raw.TCPRouters, own.streamRouter("tcp"))
	v.UDPRouters = toRouters(raw.UDPRouters, own.streamRouter("udp"))
	v.Middlewares = toMiddlewares(raw)
	v.Entrypoints = toEntrypoints(eps)
	for _, name := range slices.Sorted(maps.Keys(raw.Services)) {
		var info rawInfo
		_ = json.Unmarshal(raw.Services[name], &info)
		rs := TraefikService{
			Name: name, Provider: provider(name), Type: typeOf(raw.Services[name]), Status: info.Status,
			Errors: nonNil(info.Errors), UsedBy: nonNil(info.UsedBy), ServiceID: own.services[name],
		}
		rs.ServersUp, rs.ServersTotal = serverCounts(info)
		v.Services = append(v.Services, rs)
	}
	return v, nil
}

func toRouters(m map[string]rawRouter, owner func(string, rawRouter) string) []Router {
	out := make([]Router, 0, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		r := m[name]
		eps := r.Using
		if len(eps) == 0 {
			eps = r.EntryPoints
		}
		out = append(out, Router{
			Name: name, Provider: provider(name), Rule: r.Rule, Service: r.Service,
			EntryPoints: nonNil(eps), Middlewares: r.Middlewares, Priority: priority(r.Priority),
			TLS: r.TLS, Status: r.Status, Errors: nonNil(r.Errors), ServiceID: owner(name, r),
		})
	}
	return out
}

// serverCounts counts a service's servers and how many Traefik considers up.
func serverCounts(info rawInfo) (up, total int) {
	for _, st := range info.ServerStatus {
		total++
		if strings.EqualFold(st, "UP") {
			up++
		}
	}
	if total == 0 && info.LoadBalancer != nil {
		total = len(info.LoadBalancer.Servers)
	}
	return up, total
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
