package dynconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// identityHeaders is shared by every forwardAuth middleware of one process
// (never modified): one slice instead of one per protected service.
var identityHeaders = contract.IdentityHeaders()

// identityHeadersRegex strips every other spelling of them (Remote_User,
// remote-user) from the client's request. Traefik 3.6 and 3.7 both accept
// authResponseHeadersRegex, so no Traefik version gates it.
var identityHeadersRegex = contract.IdentityHeadersRegex()

// owners maps emitted names to the panel service that contributed them.
type owners struct {
	routers, services, middlewares, transports map[string]string
}

// Problem is a service (or domain) the builder left out, and why.
type Problem struct {
	Kind   string `json:"kind"` // service, domain or admin
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

type builder struct {
	s        *Snapshot
	cfg      Config
	problems []Problem
	// validEP and validMW memoise name checks: thousands of services share
	// a handful of entrypoint and middleware names.
	validEP, validMW map[string]bool
}

func memo(m map[string]bool, name string, ok func(string) bool) bool {
	v, seen := m[name]
	if !seen {
		v = ok(name)
		m[name] = v
	}
	return v
}

// claimRouter returns name, or name-2, -3, ... if a router already has it
// (slug "a-b" on entrypoint "c" and slug "a" on entrypoint "b-c").
func (b *builder) claimRouter(name string) string {
	n := name
	for i := 2; b.cfg.HTTP.Routers[n] != nil; i++ {
		n = name + "-" + strconv.Itoa(i)
	}
	return n
}

// Build turns a snapshot into Traefik's dynamic configuration. It is pure
// and deterministic: the same snapshot always yields the same value (and,
// encoded, the same bytes). A service with any invalid part is left out
// whole (never emitted with a wider match than asked for) and reported in
// Problems.
func Build(s Snapshot) Config {
	cfg, _ := BuildWithProblems(s)
	return cfg
}

// BuildWithProblems is Build that also reports what it left out.
func BuildWithProblems(s Snapshot) (Config, []Problem) {
	b := newBuilder(&s, len(s.Services))
	slugs := newSlugger()
	for _, sv := range s.Services {
		slug := slugs.next(slugify(sv.Name, "service"))
		if err := b.service(sv, slug); err != nil {
			b.problems = append(b.problems, Problem{Kind: "service", ID: sv.ID, Reason: err.Error()})
		}
	}
	tlsEPs := s.tlsEntrypoints()
	b.certTriggers(tlsEPs)
	b.adminRouter(tlsEPs)
	h := b.cfg.HTTP
	if len(h.ServersTransports) == 0 {
		h.ServersTransports = nil
	}
	if len(h.Middlewares) == 0 {
		h.Middlewares = nil
	}
	if len(h.Routers) == 0 && len(h.Services) == 0 {
		b.cfg.HTTP = nil
	}
	b.cfg.dropEmptyStream()
	return b.cfg, b.problems
}

// newBuilder returns a builder with empty maps sized for n services.
func newBuilder(s *Snapshot, n int) *builder {
	b := &builder{s: s, validEP: map[string]bool{}, validMW: map[string]bool{}}
	b.cfg.HTTP = &HTTPConfig{
		Routers: make(map[string]*Router, 2*n), Services: make(map[string]*TraefikService, n),
		Middlewares: map[string]*Middleware{}, ServersTransports: map[string]*ServersTransport{},
	}
	b.cfg.owners = owners{make(map[string]string, 2*n), make(map[string]string, n), map[string]string{}, map[string]string{}}
	b.newStreamSections()
	return b
}

// Encode renders cfg as Traefik reads it: compact JSON, map keys sorted,
// without HTML escaping (so rules read "&&", not "\u0026\u0026").
func Encode(cfg Config) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(cfg); err != nil {
		return nil, fmt.Errorf("encode dynamic configuration: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func validEntrypoint(ep string) bool { return validate.Entrypoint(ep) }

// service emits one panel service, or nothing and an error.
func (b *builder) service(sv ServiceSpec, slug string) error {
	if services.IsStream(sv.Kind) {
		return b.streamService(sv, slug)
	}
	name := Prefix + slug
	hosts := dedupe(sv.Hosts)
	rule, err := buildRule(hosts, sv.Rules)
	if err != nil {
		return err
	}
	redirectKind := sv.Kind == store.KindRedirect
	var servers []Server
	if redirectKind {
		if err := validate.RedirectURL(sv.Redirect.URL, sv.Redirect.KeepPath); err != nil {
			return fmt.Errorf("redirect URL: %w", err)
		}
	} else if servers, err = targetURLs(sv); err != nil {
		return err
	}
	eps := sv.Entrypoints
	if len(eps) == 0 {
		eps = b.s.DefaultEntrypoints
	}
	eps = dedupe(eps)
	if len(eps) == 0 {
		return fmt.Errorf("no entrypoints (the service lists none and there are no defaults)")
	}
	for _, ep := range eps {
		if !memo(b.validEP, ep, validEntrypoint) {
			return fmt.Errorf("invalid entrypoint %q", ep)
		}
	}

	var mws []string
	type namedMW struct {
		name string
		mw   *Middleware
	}
	var newMW []namedMW
	for _, m := range b.s.GlobalMiddlewares {
		if !memo(b.validMW, m, validate.Middleware) {
			return fmt.Errorf("invalid global middleware %q", m)
		}
		mws = append(mws, m)
	}
	if sv.Protected {
		if b.s.AuthBase == "" {
			return fmt.Errorf("protected, but the panel's address for forward-auth is unknown")
		}
		n := Prefix + "auth-" + slug
		newMW = append(newMW, namedMW{n, &Middleware{ForwardAuth: &ForwardAuth{
			Address:                  b.s.AuthBase + contract.VerifyPath + "?" + contract.ServiceParam + "=" + url.QueryEscape(sv.ID),
			AuthResponseHeaders:      identityHeaders,
			AuthResponseHeadersRegex: identityHeadersRegex,
			AddAuthCookiesToResponse: []string{contract.SessionCookie},
			TrustForwardHeader:       b.s.TrustForwardHeader,
		}}})
		mws = append(mws, n)
	}
	if len(sv.Headers) > 0 {
		for k, v := range sv.Headers {
			if !validate.HeaderName(k) || !validate.HeaderValue(v) {
				return fmt.Errorf("invalid request header %q", k)
			}
		}
		n := Prefix + "headers-" + slug
		newMW = append(newMW, namedMW{n, &Middleware{Headers: &Headers{CustomRequestHeaders: sv.Headers}}})
		mws = append(mws, n)
	}
	for _, m := range sv.Middlewares {
		if !memo(b.validMW, m, validate.Middleware) {
			return fmt.Errorf("invalid middleware %q", m)
		}
		mws = append(mws, m)
	}
	if sv.Maintenance {
		// The panel answers instead of the upstream: nothing of the service's
		// own chain applies (the page is public), the global middlewares do.
		if b.s.AuthBase == "" {
			return fmt.Errorf("in maintenance, but the panel's address for the maintenance page is unknown")
		}
		n := Prefix + "maintenance-" + slug
		newMW = []namedMW{{n, &Middleware{ReplacePath: &ReplacePath{Path: MaintenancePath + "/" + url.PathEscape(sv.ID)}}}}
		mws = append(slices.Clone(b.s.GlobalMiddlewares), n)
		servers, redirectKind = []Server{{URL: b.s.AuthBase}}, false
	} else if redirectKind {
		// Last, so protections and the service's own middlewares still run.
		n := Prefix + "redirect-" + slug
		newMW = append(newMW, namedMW{n, &Middleware{RedirectRegex: &RedirectRegex{
			Regex:       validate.RedirectRegex(sv.Redirect.KeepPath),
			Replacement: validate.RedirectReplacement(sv.Redirect.URL, sv.Redirect.KeepPath),
			Permanent:   sv.Redirect.Permanent,
		}}})
		mws = append(mws, n)
	}

	// HTTPS: plain routers redirect when the service also listens on a TLS
	// entrypoint (else there is nowhere to send the client); TLS routers add
	// HSTS first, so it is on every answer, the panel's sign-in pages too.
	// Neither middleware is emitted when no router would use it. A service
	// on TLS entrypoints only (the default, websecure) gets a router on the
	// plain entrypoint (see redirectEntrypoint) that does nothing but
	// redirect, so the setting works without listing "web" as well.
	redirect, sts := sv.https()
	anyTLS := slices.ContainsFunc(eps, b.s.isTLS)
	anyPlain := slices.ContainsFunc(eps, func(ep string) bool { return !b.s.isTLS(ep) })
	if redirect && anyTLS && !anyPlain {
		if ep := b.s.redirectEntrypoint(); ep != "" {
			eps = append(slices.Clip(eps), ep)
			anyPlain = true
		}
	}
	var redirectMW, hstsMW string
	if redirect && anyTLS && anyPlain {
		redirectMW = Prefix + "https-" + slug
		newMW = append(newMW, namedMW{redirectMW, httpsRedirect()})
	}
	if sts.MaxAge > 0 && anyTLS {
		hstsMW = Prefix + "hsts-" + slug
		newMW = append(newMW, namedMW{hstsMW, hstsHeaders(sts)})
	}

	// Everything is valid: emit.
	target := name
	if redirectKind {
		target = NoopService
	} else {
		pass := sv.PassHostHeader && !sv.Maintenance
		lb := &ServersLoadBalancer{Servers: servers, PassHostHeader: &pass}
		if !sv.Maintenance {
			loadBalancerOptions(lb, sv.LoadBalancer)
			if st := transportFor(sv); st != nil {
				b.cfg.HTTP.ServersTransports[name] = st
				b.cfg.owners.transports[name] = sv.ID
				lb.ServersTransport = name
			}
		}
		b.cfg.HTTP.Services[name] = &TraefikService{LoadBalancer: lb}
		b.cfg.owners.services[name] = sv.ID
	}
	for _, m := range newMW {
		b.cfg.HTTP.Middlewares[m.name] = m.mw
		b.cfg.owners.middlewares[m.name] = sv.ID
	}
	for _, ep := range eps {
		r := &Router{EntryPoints: []string{ep}, Middlewares: mws, Service: target, Rule: rule}
		switch {
		case b.s.isTLS(ep):
			r.TLS = tlsFor(hosts, b.s.certDomain(sv.Domain, hosts))
			if hstsMW != "" {
				r.Middlewares = append([]string{hstsMW}, mws...)
			}
		case redirectMW != "":
			// Nothing else runs on plain HTTP: the client comes back over TLS.
			r.Middlewares = []string{redirectMW}
		}
		rn := b.claimRouter(name + "-" + ep)
		b.cfg.HTTP.Routers[rn] = r
		b.cfg.owners.routers[rn] = sv.ID
	}
	return nil
}

// httpsRedirect is the middleware that sends plain-HTTP clients to HTTPS.
func httpsRedirect() *Middleware {
	return &Middleware{RedirectScheme: &RedirectScheme{Scheme: "https", Permanent: true}}
}

// hstsHeaders is the middleware that adds the Strict-Transport-Security header.
func hstsHeaders(sts store.HSTS) *Middleware {
	return &Middleware{Headers: &Headers{STSSeconds: sts.MaxAge, STSIncludeSubdomains: sts.IncludeSubdomains, STSPreload: sts.Preload}}
}

// targetURLs renders scheme://host:port for each target (IPv6 in brackets).
func targetURLs(sv ServiceSpec) ([]Server, error) {
	if len(sv.Targets) == 0 {
		return nil, fmt.Errorf("no targets")
	}
	out := make([]Server, 0, len(sv.Targets))
	for i, t := range sv.Targets {
		scheme := strings.ToLower(t.Scheme)
		if scheme == "" {
			scheme = "http"
		}
		host := strings.Trim(t.Host, "[]")
		if scheme != "http" && scheme != "https" && scheme != "h2c" {
			return nil, fmt.Errorf("targets[%d]: invalid scheme %q", i, t.Scheme)
		}
		if err := validate.TargetHost(host); err != nil || t.Port < 1 || t.Port > 65535 {
			return nil, fmt.Errorf("targets[%d]: invalid host or port", i)
		}
		if t.Weight < 0 || t.Weight > 1000 {
			return nil, fmt.Errorf("targets[%d]: invalid weight", i)
		}
		srv := Server{URL: scheme + "://" + net.JoinHostPort(host, strconv.Itoa(t.Port))}
		if t.Weight > 0 {
			w := t.Weight
			srv.Weight = &w
		}
		out = append(out, srv)
	}
	return out, nil
}

// tlsFor is the TLS block of a router for hosts under d: the domain's
// resolver, plus the wildcard certificate (main = domain, sans = *.domain)
// when it covers every host, else the first extra certificate config that
// does. Without a domain the block is empty: TLS with the default or a
// stored certificate.
func tlsFor(hosts []string, d *DomainSpec) *RouterTLSConfig {
	t := &RouterTLSConfig{}
	if d == nil {
		return t
	}
	t.CertResolver = d.CertResolver
	if d.Wildcard && coversAll(hosts, []string{d.Domain, "*." + d.Domain}) {
		t.Domains = []Domain{{Main: d.Domain, SANs: []string{"*." + d.Domain}}}
		return t
	}
	for _, cc := range d.CertConfigs {
		if coversAll(hosts, append([]string{cc.Main}, cc.SANs...)) {
			if cc.Resolver != "" {
				t.CertResolver = cc.Resolver
			}
			t.Domains = []Domain{{Main: cc.Main, SANs: cc.SANs}}
			return t
		}
	}
	return t
}

// coversAll reports whether every host matches one of the certificate names
// (exactly, or a "*." name one label deep).
func coversAll(hosts, names []string) bool {
	if len(hosts) == 0 {
		return false
	}
	for _, h := range hosts {
		ok := false
		for _, n := range names {
			if h == n || (strings.HasPrefix(n, "*.") && strings.HasSuffix(h, n[1:]) &&
				!strings.Contains(strings.TrimSuffix(h, n[1:]), ".") && len(h) > len(n)-1) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func dedupe(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// loadBalancerOptions copies the health check and sticky cookie onto lb.
func loadBalancerOptions(lb *ServersLoadBalancer, o store.LoadBalancer) {
	if h := o.HealthCheck; h != nil {
		lb.HealthCheck = &ServerHealthCheck{Path: h.Path, Status: h.Status,
			Interval: seconds(h.IntervalSeconds), Timeout: seconds(h.TimeoutSeconds)}
	}
	if s := o.Sticky; s != nil {
		lb.Sticky = &Sticky{Cookie: &Cookie{Name: s.CookieName, Secure: s.Secure, HTTPOnly: s.HTTPOnly, SameSite: s.SameSite}}
	}
}

// transportFor is the service's own serversTransport, or nil when Traefik's
// default does (no skipped verification, no timeouts).
func transportFor(sv ServiceSpec) *ServersTransport {
	t := sv.LoadBalancer.Timeouts
	if !sv.InsecureSkipVerify && t == (store.Timeouts{}) {
		return nil
	}
	st := &ServersTransport{InsecureSkipVerify: sv.InsecureSkipVerify}
	if t != (store.Timeouts{}) {
		// A forwardingTimeouts block replaces Traefik's defaults as a whole,
		// so the unset ones are written out with Traefik's default values
		// (dial 30s, idle 90s; no response-header limit).
		st.ForwardingTimeouts = &ForwardingTimeouts{DialTimeout: orDefault(t.DialSeconds, "30s"),
			ResponseHeaderTimeout: seconds(t.ResponseHeaderSeconds), IdleConnTimeout: orDefault(t.IdleConnSeconds, "90s")}
	}
	return st
}

// seconds renders n seconds as a Go duration string; 0 is left out.
func seconds(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n) + "s"
}

func orDefault(n int, def string) string {
	if n <= 0 {
		return def
	}
	return seconds(n)
}
