package runtime

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Conflict kinds.
const (
	KindHost              = "host"               // an HTTP router matches the same host on a shared entrypoint
	KindSNI               = "sni"                // a TCP router (HostSNI) takes the host's TLS connections on a shared entrypoint
	KindMissingMiddleware = "missing_middleware" // a middleware the service names does not exist in Traefik
)

// Conflict is one problem attributed to a panel service.
type Conflict struct {
	ServiceID      string   `json:"serviceId"`
	Kind           string   `json:"kind"`
	Host           string   `json:"host"`
	Router         string   `json:"router"` // the other router, qualified
	Provider       string   `json:"provider"`
	Rule           string   `json:"rule,omitempty"`
	Entrypoints    []string `json:"entrypoints"` // where both listen
	Priority       int64    `json:"priority,omitempty"`
	PanelPriority  int64    `json:"panelPriority,omitempty"`
	OtherServiceID string   `json:"otherServiceId,omitempty"`
	Middleware     string   `json:"middleware,omitempty"`
	Message        string   `json:"message"`
}

// ConflictsView is GET /api/proxy/conflicts.
type ConflictsView struct {
	Status
	Items []Conflict `json:"items"`
}

// epSet is a set of entrypoints; nil means every entrypoint.
type epSet map[string]bool

func newEPSet(eps []string) epSet {
	if len(eps) == 0 {
		return nil
	}
	s := epSet{}
	for _, e := range eps {
		s[e] = true
	}
	return s
}

// union widens a set; nil (every entrypoint) absorbs anything.
func (a epSet) union(b epSet) epSet {
	if a == nil || b == nil {
		return nil
	}
	for e := range b {
		a[e] = true
	}
	return a
}

// overlap returns the entrypoints both sets listen on (sorted), resolving
// "every entrypoint" against all; ok is false when they share none.
func overlap(a, b epSet, all []string) ([]string, bool) {
	var out []string
	switch {
	case a == nil && b == nil:
		out = append(out, all...)
		if len(out) == 0 {
			return []string{}, true
		}
	case a == nil:
		out = slices.Sorted(maps.Keys(b))
	case b == nil:
		out = slices.Sorted(maps.Keys(a))
	default:
		for e := range a {
			if b[e] {
				out = append(out, e)
			}
		}
		sort.Strings(out)
	}
	return out, len(out) > 0
}

// claim is one host a panel service serves, where, and at which priority.
type claim struct {
	serviceID string
	host      string
	eps       epSet
	priority  int64 // highest priority of the panel's routers for the host; 0 if unknown
}

// Conflicts reports routers of other providers (or other panel services)
// that match a panel service's host on an entrypoint it listens on, and
// middlewares a service names that Traefik does not have.
func (s *Service) Conflicts(ctx context.Context) (ConflictsView, error) {
	v := ConflictsView{Items: []Conflict{}}
	raw, st := s.fetchRaw(ctx)
	v.Status = st
	if raw == nil {
		return v, nil
	}
	var all []string
	if eps, err := s.d.Client.entrypoints(ctx); err == nil {
		for _, ep := range eps {
			all = append(all, ep.Name)
		}
	}
	own, err := s.ownership(ctx, raw)
	if err != nil {
		return v, err
	}
	panel, globals, err := s.panelServicesWithGlobals(ctx)
	if err != nil {
		return v, err
	}
	claims := panelClaims(panel, raw, own)
	v.Items = append(v.Items, routerConflicts(claims, raw.Routers, KindHost, own.router, all)...)
	// The panel's own tcp routers are its services' too (HostSNI of their
	// hostnames): they compete with no one of their own service.
	v.Items = append(v.Items, routerConflicts(claims, raw.TCPRouters, KindSNI, own.streamRouter("tcp"), all)...)
	v.Items = append(v.Items, missingMiddlewares(panel, globals, raw)...)
	sort.SliceStable(v.Items, func(i, j int) bool {
		a, b := v.Items[i], v.Items[j]
		if a.ServiceID != b.ServiceID {
			return a.ServiceID < b.ServiceID
		}
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		return a.Router+a.Middleware < b.Router+b.Middleware
	})
	return v, nil
}

// panelClaims merges what the database says each service serves with what
// its routers actually claim in Traefik (their hosts, entrypoints, priority).
func panelClaims(panel []panelService, raw *rawData, own ownership) []*claim {
	byKey := map[string]*claim{}
	var order []*claim
	add := func(id, host string, eps epSet, prio int64) {
		host = strings.ToLower(host)
		k := id + "|" + host
		c := byKey[k]
		if c == nil {
			c = &claim{serviceID: id, host: host, eps: eps}
			byKey[k] = c
			order = append(order, c)
		} else {
			c.eps = c.eps.union(eps)
		}
		c.priority = max(c.priority, prio)
	}
	for _, ps := range panel {
		for _, h := range ps.hosts {
			add(ps.id, h, newEPSet(ps.entrypoints), 0)
		}
	}
	for name, r := range raw.Routers {
		id := own.router(name, r)
		if id == "" {
			continue
		}
		for _, h := range parseHosts(r.Rule).hosts {
			add(id, h, newEPSet(routerEPs(r)), priority(r.Priority))
		}
	}
	return order
}

func routerEPs(r rawRouter) []string {
	if len(r.Using) > 0 {
		return r.Using
	}
	return r.EntryPoints
}

func routerConflicts(claims []*claim, routers map[string]rawRouter, kind string, ownerOf func(string, rawRouter) string, all []string) []Conflict {
	var out []Conflict
	for _, name := range slices.Sorted(maps.Keys(routers)) {
		r := routers[name]
		p := provider(name)
		owner := ownerOf(name, r)
		// The panel's own routers that belong to no service (the admin
		// router, certificate triggers) and Traefik's internal ones are
		// not competitors.
		if p == "internal" || (owner == "" && p == "http" && strings.HasPrefix(bareName(name), "gh-")) {
			continue
		}
		hc := parseHosts(r.Rule)
		if hc.empty() {
			continue
		}
		eps := newEPSet(routerEPs(r))
		for _, c := range claims {
			if c.serviceID == owner || !hc.matches(c.host) {
				continue
			}
			shared, ok := overlap(c.eps, eps, all)
			if !ok {
				continue
			}
			cf := Conflict{
				ServiceID: c.serviceID, Kind: kind, Host: c.host, Router: name, Provider: p,
				Rule: r.Rule, Entrypoints: shared, Priority: priority(r.Priority),
				PanelPriority: c.priority, OtherServiceID: owner,
			}
			cf.Message = conflictMessage(cf)
			out = append(out, cf)
		}
	}
	return out
}

func conflictMessage(c Conflict) string {
	who := fmt.Sprintf("router %s (%s provider)", c.Router, c.Provider)
	if c.OtherServiceID != "" {
		who = fmt.Sprintf("router %s of another panel service", c.Router)
	}
	where := strings.Join(c.Entrypoints, ", ")
	if where == "" {
		where = "every entrypoint"
	}
	if c.Kind == KindSNI {
		return fmt.Sprintf("TCP %s takes TLS connections for %s on %s before any HTTP router sees them", who, c.Host, where)
	}
	msg := fmt.Sprintf("%s also matches %s on %s", who, c.Host, where)
	switch {
	case c.PanelPriority == 0:
	case c.Priority > c.PanelPriority:
		msg += fmt.Sprintf("; it wins (priority %d over %d)", c.Priority, c.PanelPriority)
	case c.Priority == c.PanelPriority:
		msg += fmt.Sprintf("; both have priority %d, so which one serves a request is not defined", c.Priority)
	default:
		msg += fmt.Sprintf("; the panel's router wins for requests both match (priority %d over %d)", c.PanelPriority, c.Priority)
	}
	return msg
}

// missingMiddlewares reports middlewares a service (or the global settings)
// names that Traefik does not run. Unqualified names resolve in the panel's
// own provider (http), as Traefik does.
func missingMiddlewares(panel []panelService, globals []string, raw *rawData) []Conflict {
	var out []Conflict
	for _, ps := range panel {
		report := func(ref, format string) {
			q := qualify(ref, "http")
			if _, ok := raw.Middlewares[q]; ok {
				return
			}
			out = append(out, Conflict{
				ServiceID: ps.id, Kind: KindMissingMiddleware, Middleware: q, Provider: provider(q),
				Entrypoints: []string{},
				Message:     fmt.Sprintf(format, q) + " does not exist in Traefik; Traefik disables the service's routers until it does",
			})
		}
		for _, m := range ps.middlewares {
			report(m, "middleware %s")
		}
		for _, m := range globals {
			report(m, "global middleware %s (from the settings)")
		}
	}
	return out
}
