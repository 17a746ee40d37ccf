package dynconf

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// domainFixture is a panel with two domains and services that read them in
// every way a fragment can: subdomain and apex host names of a domain (its
// HTTPS defaults, its certificates), the same with their own HTTPS settings,
// plain HTTP only, custom host names under a domain, two levels under it,
// under none, and a custom host name under one domain on a service of
// another. The admin domain sits under a.test.
type domainFixture struct {
	v    *env
	a, b string            // the domains' ids
	ids  map[string]string // service name -> id
}

var domainA = domains.Request{Domain: "a.test", CertResolver: "le", Wildcard: true,
	CertConfigs: []store.CertConfig{{Main: "x.a.test", SANs: []string{"y.a.test"}}},
	HTTPS:       domains.HTTPS{Redirect: true, HSTS: store.HSTS{MaxAge: 100}}}

var domainB = domains.Request{Domain: "b.test", CertResolver: "le"}

func newDomainFixture(t *testing.T) *domainFixture {
	t.Helper()
	v := newEnv(t, Deps{Managed: true, Panel: paneladdr.New("http://gatehouse:8080", "", nil)})
	ctx := context.Background()
	if _, err := v.settings.Put(ctx, settings.Global{AdminDomain: "panel.a.test", DefaultEntrypoints: []string{"web", "websecure"}}); err != nil {
		t.Fatal(err)
	}
	v.db.Create(&store.Person{ID: "a1", Username: "admin", PasswordHash: "$2a$10$hash", CreatedAt: v.clock.Now(), UpdatedAt: v.clock.Now()})
	fx := &domainFixture{v: v, a: v.createDomain(t, domainA), b: v.createDomain(t, domainB), ids: map[string]string{}}
	off := false
	own := store.HSTS{MaxAge: 5}
	sub := func(domain *string, value string) func(*services.Request) {
		return func(r *services.Request) {
			r.DomainID = domain
			r.Hostnames = []store.Hostname{{Type: store.HostSubdomain, Value: value}}
		}
	}
	for _, s := range []struct {
		name, host string
		mod        func(*services.Request)
	}{
		{"sub", "", sub(&fx.a, "app")},
		{"apex", "", func(r *services.Request) {
			r.DomainID, r.Hostnames, r.Entrypoints = &fx.a, []store.Hostname{{Type: store.HostApex}}, []string{"websecure"}
		}},
		{"own https", "", func(r *services.Request) {
			sub(&fx.a, "own")(r)
			r.HTTPS = services.HTTPS{Redirect: &off, HSTS: &own}
		}},
		{"plain", "", func(r *services.Request) {
			sub(&fx.a, "plain")(r)
			r.Entrypoints = []string{"web"}
		}},
		{"certconfig", "", sub(&fx.a, "x")},
		{"custom a", "c.a.test", nil},
		{"custom deep", "x.sub.a.test", nil},
		{"custom b", "c.b.test", nil},
		{"elsewhere", "z.other.test", nil},
		{"b under a", "q.a.test", func(r *services.Request) { r.DomainID = &fx.b }},
		{"protected", "", sub(&fx.b, "p")},
	} {
		host := s.host
		if host == "" {
			host = "placeholder.test"
		}
		fx.ids[s.name] = v.createService(t, s.name, host, s.mod)
	}
	now := v.clock.Now()
	v.db.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: fx.ids["protected"], Type: store.SecuritySharedLinks,
		Enabled: true, CreatedAt: now, UpdatedAt: now})
	v.svc.Invalidate()
	return fx
}

// fragments maps each cached service to its fragment.
func (fx *domainFixture) fragments() map[string]*fragment {
	out := map[string]*fragment{}
	for _, r := range fx.v.svc.rows.rows {
		out[r.name] = r.frag
	}
	return out
}

// TestDomainWriteEqualsFromScratch makes each kind of domain write and
// checks that the configuration served next is byte for byte a build from
// scratch of the same state, and what became of each service's fragment:
// kept (with its TLS block replaced in place when that changed), copied
// with other HTTPS middlewares, or built again (host names that changed, or
// a service write).
func TestDomainWriteEqualsFromScratch(t *testing.T) {
	ctx := context.Background()
	with := func(mod func(*domains.Request)) domains.Request {
		r := domainA
		r.CertConfigs = slices.Clone(domainA.CertConfigs)
		mod(&r)
		return r
	}
	// The services that take a.test's HTTPS defaults and listen on plain
	// HTTP and TLS (HSTS and the redirect apply), or TLS only (HSTS, and a
	// plain router that only redirects while the redirect is on).
	both, tlsOnly := []string{"sub", "certconfig"}, []string{"apex"}
	tests := []struct {
		name    string
		write   func(fx *domainFixture) error
		rebuilt []string // services whose fragment is built again
		copied  []string // services whose fragment is copied with new HTTPS middlewares
		changed bool     // the configuration differs from before the write
	}{
		{"create an unrelated domain", func(fx *domainFixture) error {
			_, err := fx.v.domains.Create(ctx, domains.Request{Domain: "c.test", CertResolver: "le", Wildcard: true})
			return err
		}, nil, nil, true},
		{"create a domain a custom host name sits under", func(fx *domainFixture) error {
			_, err := fx.v.domains.Create(ctx, domains.Request{Domain: "sub.a.test", CertResolver: "other"})
			return err
		}, nil, nil, true},
		{"create the domain of an unattached host", func(fx *domainFixture) error {
			_, err := fx.v.domains.Create(ctx, domains.Request{Domain: "other.test", CertResolver: "le", Wildcard: true})
			return err
		}, nil, nil, true},
		{"certificate resolver", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.CertResolver = "le2" }))
			return err
		}, nil, nil, true},
		{"wildcard off", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.Wildcard = false }))
			return err
		}, nil, nil, true},
		{"wildcard on another domain", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.b, domains.Request{Domain: "b.test", CertResolver: "le", Wildcard: true})
			return err
		}, nil, nil, true},
		{"certificate configs", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) {
				r.Wildcard = false
				r.CertConfigs = append(r.CertConfigs, store.CertConfig{Main: "a.test", SANs: []string{"app.a.test"}, Resolver: "dns"})
			}))
			return err
		}, nil, nil, true},
		{"no certificate configs", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.CertConfigs = nil }))
			return err
		}, nil, nil, true},
		{"HSTS default", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.HTTPS.HSTS = store.HSTS{MaxAge: 200, IncludeSubdomains: true} }))
			return err
		}, nil, append(both, tlsOnly...), true},
		{"HSTS off", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.HTTPS.HSTS = store.HSTS{} }))
			return err
		}, nil, append(both, tlsOnly...), true},
		{"redirect default", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.HTTPS.Redirect = false }))
			return err
		}, tlsOnly, both, true}, // a TLS-only service's plain router goes with the redirect
		{"HSTS value only", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.HTTPS.HSTS.MaxAge = 300 }))
			return err
		}, nil, append(both, tlsOnly...), true},
		{"certificates, HSTS and redirect at once", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) {
				r.CertResolver, r.Wildcard, r.HTTPS = "le2", false, domains.HTTPS{}
			}))
			return err
		}, tlsOnly, both, true},
		{"HTTPS defaults on a domain without them", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.b, domains.Request{Domain: "b.test", CertResolver: "le",
				HTTPS: domains.HTTPS{Redirect: true, HSTS: store.HSTS{MaxAge: 60}}})
			return err
		}, nil, []string{"b under a", "protected"}, true},
		{"rename", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.Domain = "renamed.test" }))
			return err
		}, []string{"sub", "apex", "own https", "plain", "certconfig"}, nil, true},
		{"display name and default flag only", func(fx *domainFixture) error {
			_, err := fx.v.domains.Update(ctx, fx.a, with(func(r *domains.Request) { r.Name, r.IsDefault = "Main", true }))
			return err
		}, nil, nil, false},
		{"delete a domain custom host names sit under", func(fx *domainFixture) error {
			if err := fx.v.services.Delete(ctx, fx.ids["protected"]); err != nil {
				return err
			}
			if err := fx.v.services.Delete(ctx, fx.ids["b under a"]); err != nil {
				return err
			}
			return fx.v.domains.Delete(ctx, fx.b)
		}, nil, nil, true},
		{"delete a domain services use (refused)", func(fx *domainFixture) error {
			err := fx.v.domains.Delete(ctx, fx.a)
			if e, ok := apperr.As(err); !ok || e.Code != apperr.CodeConflict {
				return fmt.Errorf("delete: %w, want a conflict", err)
			}
			return nil
		}, nil, nil, false},
		{"a service write and a domain write before the next read", func(fx *domainFixture) error {
			if _, err := fx.v.services.Update(ctx, fx.ids["sub"], services.Request{Name: "sub", DomainID: &fx.b,
				Hostnames: []store.Hostname{{Type: store.HostSubdomain, Value: "moved"}},
				Targets:   []store.Target{{Host: "10.0.0.1", Port: 80}}}); err != nil {
				return err
			}
			_, err := fx.v.domains.Update(ctx, fx.b, domains.Request{Domain: "b2.test", CertResolver: "le",
				HTTPS: domains.HTTPS{HSTS: store.HSTS{MaxAge: 7}}})
			return err
		}, []string{"sub", "protected"}, []string{"b under a"}, true},
		{"a domain write, then a service moves onto it", func(fx *domainFixture) error {
			if _, err := fx.v.domains.Update(ctx, fx.b, domains.Request{Domain: "b.test", CertResolver: "le2", Wildcard: true}); err != nil {
				return err
			}
			_, err := fx.v.services.Update(ctx, fx.ids["custom a"], services.Request{Name: "custom a", DomainID: &fx.b,
				Hostnames: []store.Hostname{{Type: store.HostApex}}, Targets: []store.Target{{Host: "10.0.0.1", Port: 80}}})
			return err
		}, []string{"custom a"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newDomainFixture(t)
			fx.v.checkServed(t, "before")
			before, body := fx.fragments(), fx.v.do(t, "/api/proxy/config", nil).Body.String()
			if err := tt.write(fx); err != nil {
				t.Fatal(err)
			}
			fx.v.checkServed(t, "after")
			if after := fx.v.do(t, "/api/proxy/config", nil).Body.String(); (after != body) != tt.changed {
				t.Errorf("configuration changed: %v, want %v", after != body, tt.changed)
			}
			for name, f := range fx.fragments() {
				got := reuse(before[name], f)
				want := "kept"
				if slices.Contains(tt.rebuilt, name) {
					want = "built again"
				} else if slices.Contains(tt.copied, name) {
					want = "copied"
				}
				if got != want {
					t.Errorf("service %q: fragment %s, want %s", name, got, want)
				}
			}
		})
	}
}

// reuse says what became of a fragment: kept (and maybe patched in place),
// copied (sharing the service object's entry), or built again. Every
// assembly points the entries it used at the body it serves (share), so a
// copy no longer shares its bytes with the fragment it came from; it shares
// the name string the build made, which a new build makes anew.
func reuse(old, now *fragment) string {
	switch {
	case old == now:
		return "kept"
	case old != nil && len(old.entries[secServices]) > 0 && len(now.entries[secServices]) > 0 &&
		sameString(old.entries[secServices][0].name, now.entries[secServices][0].name):
		return "copied"
	}
	return "built again"
}

// sameString reports whether two strings are the same bytes in memory.
func sameString(a, b string) bool {
	return unsafe.StringData(a) == unsafe.StringData(b) //nolint:gosec // compares addresses, reads nothing through them
}

// TestDomainWriteSequence chains domain writes of every kind without a
// rebuild from scratch in between, checking after each.
func TestDomainWriteSequence(t *testing.T) {
	ctx := context.Background()
	fx := newDomainFixture(t)
	fx.v.checkServed(t, "start")
	steps := []domains.Request{
		{Domain: "a.test", CertResolver: "le2", Wildcard: true},
		{Domain: "a.test", CertResolver: "le2"},
		{Domain: "a.test", CertResolver: "le2", CertConfigs: []store.CertConfig{{Main: "*.a.test", SANs: []string{"a.test"}}}},
		{Domain: "renamed.a.test", CertResolver: "le", Wildcard: true},
		{Domain: "a.test", CertResolver: "le", Wildcard: true, HTTPS: domains.HTTPS{Redirect: true}},
		{Domain: "a.test", CertResolver: "le", HTTPS: domains.HTTPS{HSTS: store.HSTS{MaxAge: 10}}},
		{Domain: "a.test", CertResolver: "le", HTTPS: domains.HTTPS{HSTS: store.HSTS{MaxAge: 10, IncludeSubdomains: true}}},
		domainA,
		{Domain: "a.test", CertResolver: "le"},
	}
	for i, r := range steps {
		if _, err := fx.v.domains.Update(ctx, fx.a, r); err != nil {
			t.Fatal(err)
		}
		fx.v.checkServed(t, fmt.Sprintf("step %d (%s)", i, r.Domain))
	}
}
