package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
)

// RouterState is one of Traefik's routers built from a panel service.
type RouterState struct {
	Name   string   `json:"name"` // qualified: name@http
	Status string   `json:"status"`
	Errors []string `json:"errors"`
}

// ServiceEvidence is what Traefik's runtime says about one panel service:
// its routers and every error Traefik reports on them or on the services and
// middlewares they use.
type ServiceEvidence struct {
	Routers []RouterState `json:"routers"`
	Errors  []string      `json:"errors"`
}

// Enabled reports whether Traefik runs at least one of the routers and
// reports no error: the only evidence that a service is live.
func (e ServiceEvidence) Enabled() bool {
	if len(e.Errors) > 0 || len(e.Routers) == 0 {
		return false
	}
	for _, r := range e.Routers {
		if r.Status != "enabled" {
			return false
		}
	}
	return true
}

// EvidenceView answers, per panel service id, what Traefik runs.
type EvidenceView struct {
	Status
	Services map[string]ServiceEvidence
}

// Evidence reads Traefik's runtime once and attributes its routers, and the
// errors of the services and middlewares they use, to the panel's services.
// Status says why nothing is known when Traefik's API is not configured or
// does not answer.
func (s *Service) Evidence(ctx context.Context) (EvidenceView, error) {
	v := EvidenceView{Services: map[string]ServiceEvidence{}}
	raw, st := s.fetchRaw(ctx)
	v.Status = st
	if raw == nil {
		return v, nil
	}
	own, err := s.ownership(ctx, raw)
	if err != nil {
		return v, err
	}
	names := make([]string, 0, len(raw.Routers))
	for name := range raw.Routers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := raw.Routers[name]
		id := own.router(name, r)
		if id == "" {
			continue
		}
		e := v.Services[id]
		e.Routers = append(e.Routers, RouterState{Name: name, Status: r.Status, Errors: nonNil(r.Errors)})
		e.Errors = appendErrors(e.Errors, "router "+name, r.Errors)
		p := provider(name)
		if r.Service != "" {
			e.Errors = appendErrors(e.Errors, "service "+qualify(r.Service, p), infoErrors(raw.Services[qualify(r.Service, p)]))
		}
		for _, m := range r.Middlewares {
			e.Errors = appendErrors(e.Errors, "middleware "+qualify(m, p), infoErrors(raw.Middlewares[qualify(m, p)]))
		}
		v.Services[id] = e
	}
	streamEvidence(v.Services, raw.TCPRouters, own.streamRouter("tcp"), raw.TCPServices, raw.TCPMiddlewares)
	streamEvidence(v.Services, raw.UDPRouters, own.streamRouter("udp"), raw.UDPServices, nil)
	return v, nil
}

// streamEvidence adds the tcp or udp routers the panel's services own, and
// the errors of the services and middlewares they use, as Evidence does for
// HTTP routers. A router's state is named "tcp:<name>" or "udp:<name>" only
// in the errors; its Name is Traefik's.
func streamEvidence(out map[string]ServiceEvidence, routers map[string]rawRouter, owner func(string, rawRouter) string,
	svcs, mws map[string]json.RawMessage) {
	names := make([]string, 0, len(routers))
	for name := range routers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := routers[name]
		id := owner(name, r)
		if id == "" {
			continue
		}
		e := out[id]
		e.Routers = append(e.Routers, RouterState{Name: name, Status: r.Status, Errors: nonNil(r.Errors)})
		e.Errors = appendErrors(e.Errors, "router "+name, r.Errors)
		p := provider(name)
		if r.Service != "" {
			svc := qualify(r.Service, p)
			e.Errors = appendErrors(e.Errors, "service "+svc, infoErrors(svcs[svc]))
		}
		for _, m := range r.Middlewares {
			e.Errors = appendErrors(e.Errors, "middleware "+qualify(m, p), infoErrors(mws[qualify(m, p)]))
		}
		out[id] = e
	}
}

func infoErrors(raw json.RawMessage) []string {
	if raw == nil {
		return nil
	}
	var info rawInfo
	_ = json.Unmarshal(raw, &info)
	return info.Errors
}

// appendErrors adds "<what>: <message>" for each message not yet listed.
func appendErrors(dst []string, what string, msgs []string) []string {
	for _, m := range msgs {
		if line := what + ": " + m; !slices.Contains(dst, line) {
			dst = append(dst, line)
		}
	}
	return dst
}
