package dynconf

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// fromScratch is what the served configuration must equal: the whole
// snapshot read again, built and encoded.
func (v *env) fromScratch(t *testing.T) (body []byte, etag string, owners map[string]string) {
	t.Helper()
	ctx := context.Background()
	snap, err := v.svc.Snapshot(ctx, firstTLSSource(ctx, v.svc.d.TLSSources))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := BuildWithProblems(snap)
	body, err = Encode(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return body, etagOf(body), cfg.owners.routers
}

func (v *env) checkServed(t *testing.T, step string) {
	t.Helper()
	rec := v.do(t, "/api/proxy/config", nil)
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", step, rec.Code, rec.Body)
	}
	want, etag, owners := v.fromScratch(t)
	if !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("%s: served configuration differs from a build from scratch\n got: %s\nwant: %s", step, rec.Body, want)
	}
	if got := rec.Header().Get("ETag"); got != etag {
		t.Fatalf("%s: ETag %s, want %s", step, got, etag)
	}
	// RouterOwner first: RouterOwners builds the map it would then use.
	owner, err := v.svc.RouterOwner(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var served struct {
		HTTP struct{ Routers map[string]json.RawMessage }
	}
	if err := json.Unmarshal(want, &served); err != nil {
		t.Fatal(err)
	}
	for name := range served.HTTP.Routers {
		if got := owner(name); got != owners[name] {
			t.Fatalf("%s: RouterOwner(%s) = %q, want %q", step, name, got, owners[name])
		}
	}
	if got := owner("gh-no-such-router"); got != "" {
		t.Fatalf("%s: RouterOwner of an unknown router = %q", step, got)
	}
	got, err := v.svc.RouterOwners(context.Background())
	if err != nil || !maps.Equal(got, owners) {
		t.Fatalf("%s: router owners %v (%v), want %v", step, got, err, owners)
	}
	checkStreamOwners(t, v, step)
}

// checkStreamOwners: StreamRouterOwner answers for every tcp and udp
// router what a build from scratch records.
func checkStreamOwners(t *testing.T, v *env, step string) {
	t.Helper()
	ctx := context.Background()
	snap, err := v.svc.Snapshot(ctx, firstTLSSource(ctx, v.svc.d.TLSSources))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := BuildWithProblems(snap)
	owner, err := v.svc.StreamRouterOwner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := streamOwners(cfg)
	if step == "end" {
		t.Logf("%d tcp and udp routers at the end", len(want))
	}
	for k, id := range want {
		proto, name, _ := strings.Cut(k, "/")
		if got := owner(proto, name); got != id {
			t.Fatalf("%s: StreamRouterOwner(%s, %s) = %q, want %q", step, proto, name, got, id)
		}
	}
	if got := owner("tcp", "gh-no-such-router"); got != "" {
		t.Fatalf("%s: StreamRouterOwner of an unknown router = %q", step, got)
	}
}

// isConflict: a write refused with 409 (two stream services that cannot
// share an entrypoint, a hostname taken).
func isConflict(err error) bool {
	var e *apperr.Error
	return errors.As(err, &e) && e.Code == apperr.CodeConflict
}

// streamRequest turns r into a random tcp or udp service.
func streamRequest(rng *rand.Rand, r *services.Request) {
	r.Kind = []string{store.KindTCP, store.KindUDP}[rng.IntN(2)]
	r.Headers, r.Redirect, r.LoadBalancer = nil, nil, store.LoadBalancer{}
	r.Maintenance.Enabled = false
	r.Targets = []store.Target{{Host: "10.0.0.1", Port: 5432, Weight: rng.IntN(2)},
		{Host: "fd00::2", Port: 5432 + rng.IntN(2), Weight: rng.IntN(3)}}[:1+rng.IntN(2)]
	if r.Kind == store.KindUDP {
		r.Hostnames = nil
		r.Entrypoints = [][]string{{"dns"}, {"dns2"}, {"dns", "game"}}[rng.IntN(3)]
		return
	}
	r.Entrypoints = [][]string{{"pg"}, {"pg2"}, {"websecure"}, {"pg", "ssh"}}[rng.IntN(4)]
	r.TCP = &store.TCP{ProxyProtocol: rng.IntN(3), MaxConnections: rng.IntN(2) * 10}
	if rng.IntN(2) == 0 {
		r.TCP.AllowList = []string{"10.0.0.0/8", "2001:db8::/32"}[:1+rng.IntN(2)]
	}
	if rng.IntN(3) == 0 {
		r.Hostnames, r.DomainID = nil, nil
		return
	}
	r.TCP.TLS = []string{store.TLSPassthrough, store.TLSTerminate}[rng.IntN(2)]
}

// TestIncrementalEqualsFromScratch applies random writes of every kind and
// checks after each (and after some pairs) that the served bytes and ETag
// equal a build from scratch of the same state.
func TestIncrementalEqualsFromScratch(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			v := newEnv(t, Deps{Managed: seed == 3})
			randomWrites(t, v, rand.New(rand.NewPCG(seed, 99)), 120) //nolint:gosec // seeded: the test is reproducible
		})
	}
}

func randomWrites(t *testing.T, v *env, rng *rand.Rand, steps int) {
	ctx := context.Background()
	bus := v.svc.d.Bus
	var doms, ids []string
	for i := range 3 {
		doms = append(doms, v.createDomain(t, domains.Request{Domain: fmt.Sprintf("d%d.example.com", i),
			CertResolver: "le", Wildcard: i%2 == 0}))
	}
	// Names chosen to collide: slug "a-b" on entrypoint "c" and slug "a" on
	// "b-c" claim the same router; "cert trigger" the trigger service's name.
	names := []string{"a b", "a", "cert trigger", "app", "app", "web", "x"}
	eps := [][]string{nil, {"web"}, {"websecure"}, {"c"}, {"b-c"}, {"web", "websecure"}}
	request := func() services.Request {
		r := services.Request{
			Name:        names[rng.IntN(len(names))],
			Targets:     []store.Target{{Host: "10.0.0.1", Port: 80 + rng.IntN(3)}},
			Entrypoints: eps[rng.IntN(len(eps))],
		}
		if rng.IntN(2) == 0 {
			d := doms[rng.IntN(len(doms))]
			r.DomainID = &d
			r.Hostnames = []store.Hostname{{Type: store.HostSubdomain, Value: fmt.Sprint("h", rng.IntN(1000))}}
		} else {
			r.Hostnames = []store.Hostname{{Type: store.HostCustom, Value: fmt.Sprintf("c%d.d%d.example.com", rng.IntN(1000), rng.IntN(4))}}
		}
		if rng.IntN(3) == 0 {
			r.Headers = map[string]string{"X-N": fmt.Sprint(rng.IntN(5))}
		}
		r.InsecureSkipVerify = rng.IntN(4) == 0
		if k := rng.IntN(3); k > 0 {
			on := k == 1
			r.HTTPS.Redirect = &on
		}
		if rng.IntN(4) == 0 {
			r.Kind = store.KindRedirect
			r.Redirect = &store.Redirect{URL: fmt.Sprintf("https://to%d.test/$%d", rng.IntN(3), rng.IntN(3)), Permanent: rng.IntN(2) == 0, KeepPath: rng.IntN(2) == 0}
		}
		r.Maintenance.Enabled = rng.IntN(5) == 0
		if rng.IntN(3) == 0 {
			r.Targets[0].Weight = rng.IntN(3)
			r.LoadBalancer.HealthCheck = &store.HealthCheck{Path: "/h", IntervalSeconds: 5 + rng.IntN(2), TimeoutSeconds: 1}
		}
		if rng.IntN(3) == 0 {
			r.LoadBalancer.Sticky = &store.Sticky{CookieName: fmt.Sprint("c", rng.IntN(2))}
			r.LoadBalancer.Timeouts.DialSeconds = rng.IntN(3)
		}
		if rng.IntN(3) == 0 {
			r.HTTPS.HSTS = &store.HSTS{MaxAge: int64(rng.IntN(2)) * 3600, IncludeSubdomains: false}
		}
		if rng.IntN(5) == 0 {
			at := v.clock.Now().Add(time.Duration(1+rng.IntN(3)) * time.Minute)
			r.Expiry = &services.Expiry{Type: store.ExpiryAt, At: &at}
		}
		if rng.IntN(4) == 0 {
			streamRequest(rng, &r)
		}
		return r
	}
	pick := func() string { return ids[rng.IntN(len(ids))] }
	extra := map[string]string{} // domains of op 11, by name
	for i := range 8 {
		s, err := v.services.Create(ctx, request())
		if isConflict(err) {
			continue // two stream services on one entrypoint
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
		v.clock.Add(time.Duration(i%2) * time.Millisecond) // some equal creation times
	}
	v.checkServed(t, "seed")
	for step := range steps {
		op := rng.IntN(13)
		switch op {
		case 0, 1:
			s, err := v.services.Create(ctx, request())
			if err != nil {
				if !strings.Contains(err.Error(), "already used") && !isConflict(err) {
					t.Fatal(err)
				}
				t.Logf("create refused: %v", err) // a random hostname collided
				break
			}
			ids = append(ids, s.ID)
		case 2, 3:
			if _, err := v.services.Update(ctx, pick(), request()); err != nil {
				if !strings.Contains(err.Error(), "expiry.at") && !strings.Contains(err.Error(), "already used") && !isConflict(err) {
					t.Fatal(err)
				}
				t.Logf("update refused: %v", err) // kept its passed expiry, or a random hostname collided
			}
		case 4:
			if _, err := v.services.SetEnabled(ctx, pick(), rng.IntN(2) == 0); err != nil {
				t.Logf("enable refused: %v", err) // expired
			}
		case 5:
			if len(ids) > 1 {
				k := rng.IntN(len(ids))
				if err := v.services.Delete(ctx, ids[k]); err != nil {
					t.Fatal(err)
				}
				ids = append(ids[:k], ids[k+1:]...)
			}
		case 6:
			id := pick()
			var n int64
			v.db.Model(&store.SecurityConfig{}).Where("service_id = ?", id).Count(&n)
			if n > 0 {
				v.db.Where("service_id = ?", id).Delete(&store.SecurityConfig{})
			} else {
				v.db.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: id, Type: store.SecuritySharedLinks,
					Enabled: true, CreatedAt: v.clock.Now(), UpdatedAt: v.clock.Now()})
			}
			bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: id})
		case 7:
			g := settings.Global{DefaultEntrypoints: eps[1+rng.IntN(len(eps)-1)]}
			if rng.IntN(2) == 0 {
				g.GlobalMiddlewares = []string{"secure@file"}
			}
			if rng.IntN(2) == 0 {
				g.AdminDomain = "panel.d0.example.com"
			}
			if _, err := v.settings.Put(ctx, g); err != nil {
				t.Fatal(err)
			}
		case 8:
			d := doms[rng.IntN(len(doms))]
			if _, err := v.domains.Update(ctx, d, domains.Request{Domain: fmt.Sprintf("d%d.example.com", rng.IntN(5)+10),
				CertResolver: "le", Wildcard: rng.IntN(2) == 0, HTTPS: domains.HTTPS{Redirect: rng.IntN(2) == 0,
					HSTS: store.HSTS{MaxAge: int64(rng.IntN(2)) * 31536000}}}); err != nil {
				t.Logf("domain update refused: %v", err)
			}
		case 9:
			v.clock.Add(time.Duration(rng.IntN(90)) * time.Second)
		case 10:
			// No address: protected services are left out with a problem.
			v.svc.d.Panel.Bind([]string{"127.0.0.1:18080", "127.0.0.1:18081", ""}[rng.IntN(3)])
			v.svc.Invalidate()
		case 11:
			// A domain custom host names may sit under (or be), created or
			// deleted.
			name := []string{"d1.example.com", "example.com", "c7.d2.example.com", "d3.example.com"}[rng.IntN(4)]
			if id, ok := extra[name]; ok {
				if err := v.domains.Delete(ctx, id); err != nil {
					t.Logf("domain delete refused: %v", err)
					break
				}
				delete(extra, name)
			} else if d, err := v.domains.Create(ctx, domains.Request{Domain: name, CertResolver: "le", Wildcard: rng.IntN(2) == 0}); err != nil {
				t.Logf("domain create refused: %v", err) // one of doms has the name
			} else {
				extra[name] = d.ID
			}
		case 12:
			// Certificates only: resolver, wildcard, certificate configs.
			d := doms[rng.IntN(len(doms))]
			cur, err := v.domains.Get(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			req := domains.Request{Domain: cur.Domain, CertResolver: []string{"le", "dns"}[rng.IntN(2)], Wildcard: rng.IntN(2) == 0,
				HTTPS: cur.HTTPS}
			if rng.IntN(2) == 0 {
				req.CertConfigs = []store.CertConfig{{Main: fmt.Sprint("h", rng.IntN(1000), ".", cur.Domain), SANs: []string{"*." + cur.Domain}}}
			}
			if _, err := v.domains.Update(ctx, d, req); err != nil {
				t.Fatal(err)
			}
		}
		if rng.IntN(4) > 0 { // sometimes two writes before a read
			v.checkServed(t, fmt.Sprintf("step %d (op %d)", step, op))
		}
	}
	v.checkServed(t, "end")
}

// TestIncrementalRebuildsOnlyTheChangedService: after one update the other
// services' fragments are reused as they are.
func TestIncrementalRebuildsOnlyTheChangedService(t *testing.T) {
	v := newEnv(t, Deps{})
	var ids []string
	for i := range 5 {
		ids = append(ids, v.createService(t, fmt.Sprint("app ", i), fmt.Sprintf("app%d.test", i), nil))
	}
	v.checkServed(t, "before")
	before := map[string]*fragment{}
	for _, r := range v.svc.rows.rows {
		before[r.id] = r.frag
	}
	if _, err := v.services.Update(context.Background(), ids[2], services.Request{Name: "app 2",
		Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "changed.test"}},
		Targets:   []store.Target{{Host: "10.0.0.1", Port: 80}}}); err != nil {
		t.Fatal(err)
	}
	v.checkServed(t, "after")
	for _, r := range v.svc.rows.rows {
		if reused := before[r.id] == r.frag; reused == (r.id == ids[2]) {
			t.Errorf("service %s: fragment reused %v", r.name, reused)
		}
	}
}

// TestIncrementalFailsClosed: a failed read answers 503, and the next
// successful one is complete again.
func TestIncrementalFailsClosed(t *testing.T) {
	v := newEnv(t, Deps{})
	id := v.createService(t, "app", "app.test", nil)
	v.checkServed(t, "before")
	v.createService(t, "other", "other.test", nil)
	if err := v.db.Callback().Query().Before("gorm:query").Register("test:fail", func(db *gorm.DB) {
		if db.Statement.Table == "domains" {
			_ = db.AddError(errors.New("disk on fire"))
		}
	}); err != nil {
		t.Fatal(err)
	}
	if rec := v.do(t, "/api/proxy/config", nil); rec.Code != 503 {
		t.Fatalf("failed read: status %d, want 503", rec.Code)
	}
	_ = v.db.Callback().Query().Remove("test:fail")
	if _, err := v.services.SetEnabled(context.Background(), id, false); err != nil {
		t.Fatal(err)
	}
	v.checkServed(t, "after")
}

// TestRowCacheNote: what each event makes the next rebuild read again.
func TestRowCacheNote(t *testing.T) {
	tests := []struct {
		name    string
		e       change.Event
		full    bool
		dirty   []string
		guard   bool // which services are guarded is asked again for all
		rebuild bool // the generation moves: the next poll rebuilds
	}{
		{"one service", change.Event{Entity: change.Service, Kind: change.Updated, ID: "s1"}, false, []string{"s1"}, false, true},
		{"a service without id", change.Event{Entity: change.Service, Kind: change.Updated}, true, nil, true, true},
		{"a domain", change.Event{Entity: change.Domain, Kind: change.Updated, ID: "d1"}, false, nil, false, true},
		{"a domain without id", change.Event{Entity: change.Domain, Kind: change.Updated}, true, nil, true, true},
		{"settings", change.Event{Entity: change.Settings, Kind: change.Updated}, false, nil, true, true},
		{"a protection", change.Event{Entity: change.Security, Kind: change.Updated, ID: "s1"}, false, nil, true, true},
		{"access rules", change.Event{Entity: change.Access, Kind: change.Updated, ID: "s1"}, false, nil, true, true},
		{"anything (another replica reconnected)", change.Event{Entity: change.All}, true, nil, true, true},
		{"forward-auth sessions", change.Event{Entity: change.Session, Kind: change.Deleted}, false, nil, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c rowCache
			var gen atomic.Uint64
			c.note(tt.e, &gen)
			g, p := c.take(&gen)
			if p.full != tt.full || !slices.Equal(slices.Sorted(maps.Keys(p.dirty)), tt.dirty) || p.guardStale != tt.guard || (g > 0) != tt.rebuild {
				t.Fatalf("full %v, dirty %v, guard %v, generation %d; want full %v, dirty %v, guard %v, rebuild %v",
					p.full, p.dirty, p.guardStale, g, tt.full, tt.dirty, tt.guard, tt.rebuild)
			}
		})
	}
}
