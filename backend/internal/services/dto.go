package services

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Expiry is when a service switches itself off.
type Expiry struct {
	Type    string     `json:"type"`
	At      *time.Time `json:"at,omitempty"`
	Seconds int64      `json:"seconds,omitempty"`
}

// HTTPS is a service's HTTPS options; a nil field inherits the domain's
// default (no domain: no redirect, no HSTS).
type HTTPS struct {
	Redirect *bool       `json:"redirect"`
	HSTS     *store.HSTS `json:"hsts"`
}

// Maintenance switches a service to the panel's maintenance page, which
// shows Message (plain text), keeping every other setting.
type Maintenance struct {
	Enabled bool   `json:"enabled"`
	Message string `json:"message"`
}

// Request is the body of POST and PUT /api/services.
type Request struct {
	Name               string             `json:"name"`
	DomainID           *string            `json:"domainId"`
	Hostnames          []store.Hostname   `json:"hostnames"`
	Targets            []store.Target     `json:"targets"`
	PassHostHeader     *bool              `json:"passHostHeader"`
	InsecureSkipVerify bool               `json:"insecureSkipVerify"`
	Entrypoints        []string           `json:"entrypoints"`
	Rules              []store.Rule       `json:"rules"`
	Middlewares        []string           `json:"middlewares"`
	Headers            map[string]string  `json:"headers"`
	HTTPS              HTTPS              `json:"https"`
	Kind               string             `json:"kind"`
	Redirect           *store.Redirect    `json:"redirect"`
	Maintenance        Maintenance        `json:"maintenance"`
	LoadBalancer       store.LoadBalancer `json:"loadBalancer"`
	Launcher           store.Launcher     `json:"launcher"`
	// TCP is a tcp service's options; nil is the default (TLS passthrough
	// with hostnames, plain TCP without).
	TCP     *store.TCP `json:"tcp"`
	Enabled *bool      `json:"enabled"`
	Expiry  *Expiry    `json:"expiry"`
}

// Protection summarises which protections a service has enabled.
type Protection struct {
	BasicAuth   bool `json:"basicAuth"`
	SSO         bool `json:"sso"`
	SharedLinks bool `json:"sharedLinks"`
	Tokens      bool `json:"tokens"`
	EmailCode   bool `json:"emailCode"`
	People      bool `json:"people"`
	// Exposure is who can open the service without signing in, as its
	// protections and access rules (global and its own) decide: "everyone"
	// (no protection, or rules that allow every request), "some" (allow
	// rules with conditions) or "none".
	Exposure string `json:"exposure"`
	// StreamGuarded is, for a tcp or udp service, that a protection or
	// access rules (its own or the global ones) would guard it: a TCP or
	// UDP router cannot ask forward-auth, so Traefik's configuration leaves
	// the service out (fail closed). Always false for an HTTP service.
	StreamGuarded bool `json:"streamGuarded"`
}

// Any reports whether any protection is enabled.
func (p Protection) Any() bool {
	return p.BasicAuth || p.SSO || p.SharedLinks || p.Tokens || p.EmailCode || p.People
}

// Response is a service as the API shows it.
type Response struct {
	ID                 string             `json:"id"`
	Name               string             `json:"name"`
	DomainID           *string            `json:"domainId"`
	Hostnames          []store.Hostname   `json:"hostnames"`
	FQDNs              []string           `json:"fqdns"`
	Targets            []store.Target     `json:"targets"`
	PassHostHeader     bool               `json:"passHostHeader"`
	InsecureSkipVerify bool               `json:"insecureSkipVerify"`
	Entrypoints        []string           `json:"entrypoints"`
	Rules              []store.Rule       `json:"rules"`
	Middlewares        []string           `json:"middlewares"`
	Headers            map[string]string  `json:"headers"`
	HTTPS              HTTPS              `json:"https"`
	Kind               string             `json:"kind"`
	Redirect           store.Redirect     `json:"redirect"`
	Maintenance        Maintenance        `json:"maintenance"`
	LoadBalancer       store.LoadBalancer `json:"loadBalancer"`
	Launcher           store.Launcher     `json:"launcher"`
	TCP                store.TCP          `json:"tcp"`
	Enabled            bool               `json:"enabled"`
	Expiry             Expiry             `json:"expiry"`
	ExpiresAt          *time.Time         `json:"expiresAt"`
	EnabledAt          *time.Time         `json:"enabledAt"`
	Protection         Protection         `json:"protection"`
	CreatedAt          time.Time          `json:"createdAt"`
	UpdatedAt          time.Time          `json:"updatedAt"`
}

func toResponse(s store.Service, p Protection) Response {
	r := Response{
		ID: s.ID, Name: s.Name, DomainID: s.DomainID,
		Hostnames: nonNil(s.Hostnames.V), FQDNs: FQDNs(s),
		Targets: nonNil(s.Targets.V), PassHostHeader: s.PassHostHeader,
		InsecureSkipVerify: s.InsecureSkipVerify, Entrypoints: nonNil(s.Entrypoints.V),
		Rules: nonNil(s.Rules.V), Middlewares: nonNil(s.Middlewares.V), Headers: s.Headers.V,
		HTTPS: HTTPS{Redirect: s.HTTPSRedirect, HSTS: s.HSTS.V}, Kind: s.Kind, Redirect: s.Redirect.V,
		Maintenance: Maintenance{Enabled: s.Maintenance, Message: s.MaintenanceMessage}, LoadBalancer: s.LoadBalancer.V,
		Launcher: s.Launcher.V, TCP: s.TCP.V, Enabled: s.Enabled, ExpiresAt: s.ExpiresAt, EnabledAt: s.EnabledAt, Protection: p,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
	}
	if r.Headers == nil {
		r.Headers = map[string]string{}
	}
	r.TCP.AllowList = nonNil(r.TCP.AllowList)
	r.Expiry = Expiry{Type: s.ExpiryType}
	switch s.ExpiryType {
	case store.ExpiryAt:
		r.Expiry.At = s.ExpiresAt
	case store.ExpiryDuration:
		if s.LifetimeSeconds != nil {
			r.Expiry.Seconds = *s.LifetimeSeconds
		}
	}
	return r
}

// toRequest is the request that would store row unchanged.
func toRequest(row store.Service) Request {
	r := toResponse(row, Protection{})
	return Request{
		Name: r.Name, DomainID: r.DomainID, Hostnames: r.Hostnames, Targets: r.Targets,
		PassHostHeader: &r.PassHostHeader, InsecureSkipVerify: r.InsecureSkipVerify,
		Entrypoints: r.Entrypoints, Rules: r.Rules, Middlewares: r.Middlewares, Headers: r.Headers,
		HTTPS: r.HTTPS, Kind: r.Kind, Redirect: &r.Redirect,
		Maintenance: r.Maintenance, LoadBalancer: r.LoadBalancer, Launcher: r.Launcher, TCP: &r.TCP,
		Enabled: &r.Enabled, Expiry: &r.Expiry,
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// FQDNs resolves a service's hostnames against its (preloaded) domain.
func FQDNs(s store.Service) []string {
	out := make([]string, 0, len(s.Hostnames.V))
	for _, h := range s.Hostnames.V {
		if name := resolve(h, s.Domain); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func resolve(h store.Hostname, d *store.Domain) string {
	switch h.Type {
	case store.HostCustom:
		return h.Value
	case store.HostApex:
		if d != nil {
			return d.Domain
		}
	case store.HostSubdomain:
		if d != nil {
			return h.Value + "." + d.Domain
		}
	}
	return ""
}
