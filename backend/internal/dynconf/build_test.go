package dynconf

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// golden compares got (encoded as indented JSON) with testdata/<name>.golden.json.
func golden(t *testing.T, name string, got any, replace ...string) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	b := []byte(strings.NewReplacer(replace...).Replace(buf.String()))
	testutil.Golden(t, filepath.Join("testdata", name+".golden.json"), b)
}

func tgt(host string, port int) store.Target {
	return store.Target{Scheme: "http", Host: host, Port: port}
}

var (
	example = DomainSpec{ID: "d1", Domain: "example.com", CertResolver: "le"}
	wild    = DomainSpec{ID: "d2", Domain: "wild.test", CertResolver: "dns", Wildcard: true}
	extra   = DomainSpec{ID: "d3", Domain: "corp.test", CertResolver: "le", CertConfigs: []store.CertConfig{
		{Main: "*.apps.corp.test", SANs: []string{"apps.corp.test"}, Resolver: "dns"},
		{Main: "intranet.corp.test", SANs: []string{"wiki.corp.test"}},
	}}
)

var (
	yes, no = true, false
	secure  = DomainSpec{ID: "d4", Domain: "secure.test", CertResolver: "le", HTTPSRedirect: true,
		HSTS: store.HSTS{MaxAge: 31536000, IncludeSubdomains: true, Preload: true}}
)

func base(s Snapshot) Snapshot {
	if s.DefaultEntrypoints == nil {
		s.DefaultEntrypoints = []string{"websecure"}
	}
	if s.AuthBase == "" {
		s.AuthBase = "http://gatehouse:8080"
	}
	return s
}

func TestBuildGolden(t *testing.T) {
	tests := []struct {
		name string
		snap Snapshot
	}{
		{"empty", Snapshot{}},
		{"hosts", Snapshot{Domains: []DomainSpec{example}, Services: []ServiceSpec{
			{ID: "s1", Name: "App", Hosts: []string{"app.example.com"}, Domain: &example, Targets: []store.Target{tgt("10.0.0.1", 8080)}, PassHostHeader: true},
			{ID: "s2", Name: "Apex site", Hosts: []string{"example.com", "www.example.com"}, Domain: &example, Targets: []store.Target{tgt("10.0.0.2", 80)}, PassHostHeader: true},
			{ID: "s3", Name: "Custom host", Hosts: []string{"custom.org"}, Targets: []store.Target{
				{Scheme: "https", Host: "fd00::1", Port: 8443}, {Scheme: "h2c", Host: "grpc.internal", Port: 9000},
			}, InsecureSkipVerify: true},
		}}},
		{"collisions", Snapshot{Services: []ServiceSpec{
			{ID: "s1", Name: "My App", Hosts: []string{"a.test"}, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s2", Name: "my-app", Hosts: []string{"b.test"}, Targets: []store.Target{tgt("10.0.0.2", 80)}},
			{ID: "s3", Name: "MY APP!", Hosts: []string{"c.test"}, Targets: []store.Target{tgt("10.0.0.3", 80)}},
			{ID: "s4", Name: "admin", Hosts: []string{"d.test"}, Targets: []store.Target{tgt("10.0.0.4", 80)}},
			{ID: "s5", Name: "ñ", Hosts: []string{"e.test"}, Targets: []store.Target{tgt("10.0.0.5", 80)}},
		}}},
		{"entrypoints_mixed_tls", Snapshot{
			EntrypointTLS: map[string]bool{"web": false, "internal": true},
			Domains:       []DomainSpec{example},
			Services: []ServiceSpec{
				{ID: "s1", Name: "both", Hosts: []string{"app.example.com"}, Domain: &example, Targets: []store.Target{tgt("10.0.0.1", 80)},
					Entrypoints: []string{"web", "websecure", "internal", "https-alt", "plain"}},
				{ID: "s2", Name: "defaults", Hosts: []string{"def.example.com"}, Domain: &example, Targets: []store.Target{tgt("10.0.0.2", 80)}},
			}}},
		{"certs", Snapshot{Domains: []DomainSpec{wild, extra}, Services: []ServiceSpec{
			{ID: "s1", Name: "under wildcard", Hosts: []string{"x.wild.test", "wild.test"}, Domain: &wild, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s2", Name: "too deep", Hosts: []string{"a.b.wild.test"}, Domain: &wild, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s3", Name: "apps", Hosts: []string{"x.apps.corp.test"}, Domain: &extra, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s4", Name: "wiki", Hosts: []string{"wiki.corp.test"}, Domain: &extra, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s5", Name: "other", Hosts: []string{"other.corp.test"}, Domain: &extra, Targets: []store.Target{tgt("10.0.0.1", 80)}},
		}}},
		{"managed_admin", Snapshot{
			Managed: true, AdminDomain: "panel.example.com", PanelURL: "http://gatehouse:8080",
			EntrypointTLS: map[string]bool{"web": false, "websecure": true},
			Domains:       []DomainSpec{example},
			HasAdmin:      true,
		}},
		{"managed_portal", Snapshot{
			Managed: true, AdminDomain: "panel.example.com", PortalDomain: "auth.example.com", PanelURL: "http://gatehouse:8080",
			EntrypointTLS: map[string]bool{"web": false, "websecure": true},
			Domains:       []DomainSpec{example},
			HasAdmin:      true,
		}},
		{"protected", Snapshot{
			GlobalMiddlewares: []string{"secure-headers@file", "ratelimit"},
			Services: []ServiceSpec{{ID: "svc/1", Name: "wiki", Hosts: []string{"wiki.test"}, Targets: []store.Target{tgt("10.0.0.1", 80)},
				Protected: true, Middlewares: []string{"compress@docker"},
				Headers: map[string]string{"X-Tenant": "acme", "X-Env": "prod"}}},
		}},
		{"rules", Snapshot{Services: []ServiceSpec{{ID: "s1", Name: "api", Hosts: []string{"api.test", "api2.test"},
			Targets: []store.Target{tgt("10.0.0.1", 80)},
			Rules: []store.Rule{
				{Type: "method", Value: "POST"},
				{Type: "pathPrefix", Value: "/api"}, {Type: "pathPrefix", Value: "/v2"},
				{Type: "path", Value: "/health"},
				{Type: "header", Name: "X-Api-Key", Value: "k1"},
				{Type: "query", Name: "debug", Value: "1"},
				{Type: "method", Value: "GET"},
				{Type: "clientIP", Value: "10.0.0.0/8"}, {Type: "clientIP", Value: "fd00::1"},
			}}}}},
		{"https", Snapshot{
			EntrypointTLS: map[string]bool{"web": false, "websecure": true},
			Domains:       []DomainSpec{secure, example},
			Services: []ServiceSpec{
				// Inherits the domain's redirect and HSTS.
				{ID: "s1", Name: "inherits", Hosts: []string{"a.secure.test"}, Domain: &secure, Targets: []store.Target{tgt("10.0.0.1", 80)},
					Entrypoints: []string{"web", "websecure"}, Protected: true},
				// Overrides both: no redirect, a shorter HSTS.
				{ID: "s2", Name: "overrides", Hosts: []string{"b.secure.test"}, Domain: &secure, Targets: []store.Target{tgt("10.0.0.1", 80)},
					Entrypoints: []string{"web", "websecure"}, HTTPSRedirect: &no, HSTS: &store.HSTS{MaxAge: 600}},
				// Turns both on under a domain without defaults.
				{ID: "s3", Name: "own", Hosts: []string{"c.example.com"}, Domain: &example, Targets: []store.Target{tgt("10.0.0.1", 80)},
					Entrypoints: []string{"web", "websecure"}, HTTPSRedirect: &yes, HSTS: &store.HSTS{MaxAge: 86400, IncludeSubdomains: true}},
				// Plain HTTP only: the redirect has nowhere to go and is left out.
				{ID: "s4", Name: "plain", Hosts: []string{"d.secure.test"}, Domain: &secure, Targets: []store.Target{tgt("10.0.0.1", 80)},
					Entrypoints: []string{"web"}},
				// HSTS off explicitly (maxAge 0) under a domain that sends it.
				{ID: "s5", Name: "no hsts", Hosts: []string{"e.secure.test"}, Domain: &secure, Targets: []store.Target{tgt("10.0.0.1", 80)},
					HSTS: &store.HSTS{}},
			}}},
		{"redirect_kind", Snapshot{
			EntrypointTLS: map[string]bool{"web": false, "websecure": true},
			Services: []ServiceSpec{
				{ID: "s1", Name: "moved", Hosts: []string{"old.test", "www.old.test"}, Kind: store.KindRedirect, Entrypoints: []string{"web", "websecure"},
					Redirect: store.Redirect{URL: "https://new.test/base/", Permanent: true, KeepPath: true}},
				// Dollars in the target are doubled: Traefik must not expand them.
				{ID: "s2", Name: "landing", Hosts: []string{"promo.test"}, Kind: store.KindRedirect, Protected: true,
					Targets:  []store.Target{tgt("10.0.0.1", 80)}, // kept, not emitted
					Redirect: store.Redirect{URL: "https://shop.test/offer?ref=$1&x=$$2"}},
				{ID: "s3", Name: "bad target", Hosts: []string{"bad.test"}, Kind: store.KindRedirect,
					Redirect: store.Redirect{URL: "javascript:alert(1)"}},
			}}},
		{"maintenance", Snapshot{
			EntrypointTLS:     map[string]bool{"web": false, "websecure": true},
			GlobalMiddlewares: []string{"secure-headers@file"},
			Domains:           []DomainSpec{secure},
			Services: []ServiceSpec{
				// Its protection, headers, middlewares and transport wait; HTTPS still applies.
				{ID: "s/1", Name: "shop", Hosts: []string{"shop.secure.test"}, Domain: &secure, Entrypoints: []string{"web", "websecure"},
					Targets: []store.Target{{Scheme: "https", Host: "10.0.0.1", Port: 443}}, InsecureSkipVerify: true, PassHostHeader: true,
					Protected: true, Headers: map[string]string{"X-A": "1"}, Middlewares: []string{"compress@file"}, Maintenance: true},
				{ID: "s2", Name: "moved", Hosts: []string{"moved.test"}, Kind: store.KindRedirect,
					Redirect: store.Redirect{URL: "https://new.test/"}, Maintenance: true},
			}}},
		{"load_balancer", Snapshot{Services: []ServiceSpec{
			{ID: "s1", Name: "all", Hosts: []string{"all.test"}, PassHostHeader: true,
				Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80, Weight: 3}, {Scheme: "http", Host: "10.0.0.2", Port: 80}},
				LoadBalancer: store.LoadBalancer{
					HealthCheck: &store.HealthCheck{Path: "/healthz", IntervalSeconds: 10, TimeoutSeconds: 3, Status: 204},
					Sticky:      &store.Sticky{CookieName: "lb", Secure: true, HTTPOnly: true, SameSite: "strict"},
					Timeouts:    store.Timeouts{ResponseHeaderSeconds: 60},
				}},
			// Defaults: a generated cookie name, any 2xx/3xx, Traefik's dial and idle timeouts.
			{ID: "s2", Name: "some", Hosts: []string{"some.test"}, InsecureSkipVerify: true,
				Targets: []store.Target{{Scheme: "https", Host: "10.0.0.3", Port: 443}},
				LoadBalancer: store.LoadBalancer{HealthCheck: &store.HealthCheck{Path: "/", IntervalSeconds: 30, TimeoutSeconds: 5},
					Sticky: &store.Sticky{}, Timeouts: store.Timeouts{DialSeconds: 2, IdleConnSeconds: 10}}},
		}}},
		{"invalid_left_out", Snapshot{Services: []ServiceSpec{
			{ID: "s1", Name: "backtick", Hosts: []string{"a.test"}, Targets: []store.Target{tgt("10.0.0.1", 80)},
				Rules: []store.Rule{{Type: "path", Value: "/x`) || Host(`evil"}}},
			{ID: "s2", Name: "no hosts", Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s3", Name: "bad host", Hosts: []string{"a`b.test"}, Targets: []store.Target{tgt("10.0.0.1", 80)}},
			{ID: "s4", Name: "ok", Hosts: []string{"ok.test"}, Targets: []store.Target{tgt("10.0.0.1", 80)}},
		}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := base(tc.snap)
			cfg, problems := BuildWithProblems(snap)
			golden(t, "build_"+tc.name, struct {
				Config   Config    `json:"config"`
				Problems []Problem `json:"problems"`
			}{cfg, problems})
			a, _ := Encode(Build(snap))
			b, _ := Encode(Build(snap))
			if !bytes.Equal(a, b) {
				t.Error("two builds of one snapshot differ")
			}
			if err := CheckConfig(cfg); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestBuildNeverWidensAMatch(t *testing.T) {
	snap := base(Snapshot{Services: []ServiceSpec{{ID: "s1", Name: "x", Hosts: []string{"a.test"},
		Targets: []store.Target{tgt("10.0.0.1", 80)}, Rules: []store.Rule{{Type: "path", Value: "no-slash"}}}}})
	cfg := Build(snap)
	if len(cfg.Section().Routers) != 0 {
		t.Fatalf("a service with an invalid rule must be left out whole, got %v", cfg.Section().Routers)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"My App": "my-app", "  --x--  ": "x", "ÄÖ": "service", "a__b..c": "a-b-c",
		strings.Repeat("ab", 40): strings.Repeat("ab", 20),
	} {
		if got := slugify(in, "service"); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTLSHeuristic(t *testing.T) {
	for ep, want := range map[string]bool{"websecure": true, "https": true, "tls-ext": true, "web": false, "http": false, "internal": false} {
		if IsTLSByName(ep) != want {
			t.Errorf("IsTLSByName(%q) = %v", ep, !want)
		}
	}
}

// Behind trusted proxies Traefik must pass their X-Forwarded-For entries on
// to verify; otherwise verify sees only Traefik's own peer.
func TestBuildTrustForwardHeader(t *testing.T) {
	for _, trust := range []bool{false, true} {
		cfg := Build(Snapshot{AuthBase: "http://gatehouse:8080", TrustForwardHeader: trust, Services: []ServiceSpec{{
			ID: "s1", Name: "app", Hosts: []string{"app.test"}, Entrypoints: []string{"web"}, Protected: true,
			Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80}},
		}}})
		mw := cfg.HTTP.Middlewares["gh-auth-app"]
		if mw == nil || mw.ForwardAuth == nil || mw.ForwardAuth.TrustForwardHeader != trust {
			t.Fatalf("trust=%v: %+v", trust, mw)
		}
	}
}

// The panel's own router has no authentication layer of Traefik's (the
// panel's session guard protects it) and waits for the first administrator,
// so first-run setup cannot be claimed through the public domain.
func TestAdminRouter(t *testing.T) {
	base := Snapshot{Managed: true, AdminDomain: "panel.example.com", PanelURL: "http://gatehouse:8080",
		EntrypointTLS: map[string]bool{"websecure": true}}
	for _, hasAdmin := range []bool{false, true} {
		s := base
		s.HasAdmin = hasAdmin
		cfg, problems := BuildWithProblems(s)
		r := cfg.Section().Routers["gh-admin-websecure"]
		if (r != nil) != hasAdmin {
			t.Fatalf("hasAdmin=%v: router %+v, problems %+v", hasAdmin, r, problems)
		}
		if r != nil && len(r.Middlewares) != 0 {
			t.Fatalf("the admin router has middlewares %v", r.Middlewares)
		}
		if !hasAdmin && (len(problems) != 1 || !strings.Contains(problems[0].Reason, "no administrator exists yet")) {
			t.Fatalf("problems %+v", problems)
		}
	}
}

// With replicas the admin router goes to their load balancer in the file
// provider, and the panel's own single-server service is left out.
func TestAdminRouterOnReplicas(t *testing.T) {
	s := Snapshot{Managed: true, AdminDomain: "panel.example.com", PortalDomain: "auth.example.com", PanelURL: "http://127.0.0.1:8081",
		PanelService: "gatehouse-panel@file", PanelMiddlewares: []string{"gatehouse-retry@file"},
		HasAdmin: true, EntrypointTLS: map[string]bool{"websecure": true}}
	cfg, problems := BuildWithProblems(s)
	for _, name := range []string{"gh-admin-websecure", "gh-portal-websecure"} {
		r := cfg.Section().Routers[name]
		if r == nil || r.Service != "gatehouse-panel@file" || !slices.Equal(r.Middlewares, []string{"gatehouse-retry@file"}) || len(problems) != 0 {
			t.Fatalf("router %s %+v, problems %+v", name, r, problems)
		}
	}
	if _, ok := cfg.Section().Services[panelServiceName]; ok {
		t.Fatalf("the panel's own service is still emitted: %+v", cfg.Section().Services)
	}
}

func TestWarnings(t *testing.T) {
	noResolver := DomainSpec{ID: "d5", Domain: "plain.test"}
	tlsMap := map[string]bool{"web": false, "websecure": true}
	tests := []struct {
		name string
		sv   ServiceSpec
		want []string
		tls  map[string]bool // nil: tlsMap
	}{
		{"resolver", ServiceSpec{Hosts: []string{"a.example.com"}, Domain: &example, Entrypoints: []string{"websecure"}}, nil, nil},
		{"wildcard covers", ServiceSpec{Hosts: []string{"a.wild.test"}, Domain: &wild, Entrypoints: []string{"websecure"}}, nil, nil},
		{"domain without resolver", ServiceSpec{Hosts: []string{"a.plain.test"}, Domain: &noResolver, Entrypoints: []string{"web", "websecure"}},
			[]string{WarnDefaultCertificate}, nil},
		{"custom host, no domain", ServiceSpec{Hosts: []string{"a.other.org"}, Entrypoints: []string{"websecure"}}, []string{WarnDefaultCertificate}, nil},
		{"custom host under a known domain", ServiceSpec{Hosts: []string{"x.example.com"}, Entrypoints: []string{"websecure"}}, nil, nil},
		{"plain only", ServiceSpec{Hosts: []string{"a.other.org"}, Entrypoints: []string{"web"}}, nil, nil},
		{"redirect without TLS", ServiceSpec{Hosts: []string{"a.secure.test"}, Domain: &secure, Entrypoints: []string{"web"}},
			[]string{WarnRedirectWithoutTLS, WarnHSTSWithoutTLS}, nil},
		{"defaults are TLS", ServiceSpec{Hosts: []string{"a.other.org"}}, []string{WarnDefaultCertificate}, nil},
		{"redirect from web", ServiceSpec{Hosts: []string{"a.secure.test"}, Domain: &secure, Entrypoints: []string{"websecure"}}, nil, nil},
		{"redirect with no plain entrypoint", ServiceSpec{Hosts: []string{"a.secure.test"}, Domain: &secure, Entrypoints: []string{"websecure"}},
			[]string{WarnRedirectWithoutPlain}, map[string]bool{"websecure": true, "traefik": false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tlsMap := tlsMap
			if tc.tls != nil {
				tlsMap = tc.tls
			}
			snap := base(Snapshot{EntrypointTLS: tlsMap, Domains: []DomainSpec{example, wild, noResolver, secure}})
			var got []string
			for _, w := range Warnings(&snap, tc.sv) {
				got = append(got, w.Code)
				if w.Message == "" {
					t.Errorf("%s: no message", w.Code)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("warnings = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRedirectFromPlainEntrypoint: a service on TLS entrypoints only (the
// default) with the HTTPS redirect on gets a router on the plain entrypoint
// that only redirects; without the redirect, or without a plain entrypoint
// to redirect from, it gets none.
func TestRedirectFromPlainEntrypoint(t *testing.T) {
	off := false
	tests := []struct {
		name     string
		tls      map[string]bool
		redirect *bool
		want     string // the plain router's entrypoint, "" for none
	}{
		{"nothing known: web", nil, nil, "web"},
		{"web known", map[string]bool{"web": false, "websecure": true, "traefik": false}, nil, "web"},
		{"http known", map[string]bool{"http": false, "websecure": true}, nil, "http"},
		{"no plain entrypoint", map[string]bool{"websecure": true, "traefik": false}, nil, ""},
		{"web is TLS", map[string]bool{"web": true, "websecure": true}, nil, ""},
		{"redirect off", nil, &off, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Build(Snapshot{EntrypointTLS: tc.tls, DefaultEntrypoints: []string{"websecure"}, Domains: []DomainSpec{secure},
				Services: []ServiceSpec{{ID: "s1", Name: "app", Hosts: []string{"a.secure.test"}, Domain: &secure,
					Targets: []store.Target{tgt("10.0.0.1", 80)}, HTTPSRedirect: tc.redirect}}})
			var got string
			for name, r := range cfg.HTTP.Routers {
				if r.TLS != nil || !strings.HasPrefix(name, "gh-app") {
					continue
				}
				if got != "" {
					t.Fatalf("two plain routers")
				}
				got = r.EntryPoints[0]
				if len(r.Middlewares) != 1 || r.Middlewares[0] != "gh-https-app" || cfg.HTTP.Middlewares["gh-https-app"].RedirectScheme == nil {
					t.Fatalf("plain router %s: middlewares %v, want only the redirect", name, r.Middlewares)
				}
			}
			if got != tc.want {
				t.Fatalf("plain router on %q, want %q", got, tc.want)
			}
		})
	}
}
