//go:build bench

package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/access"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestBenchDomainWrite measures, on the real app over HTTP, the first GET
// /api/proxy/config after a domain write at 10,000 services, on SQLite and
// on PostgreSQL (GATEHOUSE_E2E_DATABASE_URL; `make bench` starts a
// throwaway server), next to a full rebuild of the same state measured in
// the same run, and their ratio. Three writes: the certificates of the
// domain every service uses (each service's TLS block is replaced), its
// HTTPS defaults (each service's middlewares are), and another domain no
// service uses. The cached GET shows what answering costs without a build.
// (Renaming that domain builds every service again, and the write itself
// renames 10,000 host names in one transaction: it is left out.)
func TestBenchDomainWrite(t *testing.T) {
	const n, writes = 10000, 20
	fmt.Printf("\nFirst GET /api/proxy/config after a domain write at %d services (app.Run over HTTP, %d writes each; same run)\n", n, writes)
	fmt.Printf("(baseline: a full rebuild, every row read and every service built again, as a domain write cost before;\n")
	fmt.Printf(" measured in process on the same database, without the HTTP answer. CPU: the process's CPU time)\n")
	fmt.Printf("%-10s  %-46s  %10s  %10s  %10s  %8s\n", "engine", "after", "median", "p95", "CPU median", "vs full")
	engines := []struct{ name, pgURL string }{{"SQLite", ""}}
	if os.Getenv(harness.PostgresEnv) != "" {
		engines = append(engines, struct{ name, pgURL string }{"PostgreSQL", harness.PostgresDatabase(t)})
	}
	for _, e := range engines {
		r := measureDomainWrites(t, startSeeded(t, n, e.pgURL), writes)
		full := quantile(r.full.d, 0.5)
		for _, k := range append(r.kinds, r.cached, r.full) {
			m := quantile(k.d, 0.5)
			fmt.Printf("%-10s  %-46s  %10s  %10s  %10s  %7.2fx\n", e.name, k.name, ms3(m), ms3(quantile(k.d, 0.95)),
				ms3(quantile(k.cpu, 0.5)), float64(m)/float64(full))
		}
	}
	if len(engines) == 1 {
		fmt.Printf("PostgreSQL: skipped (%s is not set; `make bench` starts a server)\n", harness.PostgresEnv)
	}
	fmt.Println("goal: first GET after a domain write at 10,000 services under 100 ms")
}

type domainWriteFigures struct {
	kinds        []rebuildKind
	cached, full rebuildKind
}

// measureDomainWrites adds a domain without services to a seeded panel,
// then times the first GET /api/proxy/config after each of writes writes of
// each kind, and writes full rebuilds in process.
func measureDomainWrites(t *testing.T, s seeded, writes int) domainWriteFigures {
	t.Helper()
	p, n := s.p, len(s.ids)
	var other struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains",
		map[string]any{"domain": "other.test", "certResolver": "le"}, &other)
	getConfig(t, p)

	type write struct {
		name string
		put  func(i int) (id string, body map[string]any)
	}
	kinds := []write{
		{fmt.Sprintf("certificates of the domain of all %d", n), func(i int) (string, map[string]any) {
			return s.domainID, map[string]any{"domain": "bench.test", "certResolver": []string{"le2", "le"}[i%2], "wildcard": true}
		}},
		{fmt.Sprintf("HTTPS defaults (HSTS) of the domain of all %d", n), func(i int) (string, map[string]any) {
			return s.domainID, map[string]any{"domain": "bench.test", "certResolver": "le", "wildcard": true,
				"https": map[string]any{"hsts": map[string]any{"maxAge": []int{31536000, 0}[i%2]}}}
		}},
		{"another domain (no service on it)", func(i int) (string, map[string]any) {
			return other.ID, map[string]any{"domain": "other.test", "certResolver": []string{"le2", "le"}[i%2]}
		}},
	}
	var r domainWriteFigures
	for _, k := range kinds {
		f := rebuildKind{name: k.name}
		for i := range writes {
			id, body := k.put(i)
			p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/domains/"+id, body, nil)
			f.add(timeGet(t, p))
		}
		r.kinds = append(r.kinds, f)
	}
	r.cached = rebuildKind{name: "no write (cached)"}
	for range writes {
		r.cached.add(timeGet(t, p))
	}
	r.full = fullRebuilds(t, p, s.database, writes)
	return r
}

// fullRebuilds times writes full rebuilds of the panel's configuration: a
// dynamic-configuration service wired as app.go wires it, on the panel's
// database and listen address, dropping everything it cached before each
// (as every domain write did before domain writes were followed). It
// checks that it builds the very document the panel serves.
func fullRebuilds(t *testing.T, p *harness.Panel, database string, writes int) rebuildKind {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, database)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	}()
	bus := change.NewBus()
	panel := paneladdr.New("", "", nil)
	policy := access.NewService(access.Deps{DB: db, Bus: bus, Now: store.Now})
	svc := dynconf.NewService(dynconf.Deps{DB: db, Bus: bus, Services: services.NewService(services.Deps{DB: db, Bus: bus, Now: store.Now}),
		Settings: settings.NewService(settings.Deps{DB: db, Bus: bus}), Panel: panel,
		Guarded: func(ctx context.Context, ids []string) (func(string) bool, error) {
			prot, err := forwardauth.Protections(ctx, db, ids)
			if err != nil {
				return nil, err
			}
			return policy.Guard(ctx, func(id string) bool { _, ok := prot[id]; return ok }, ids...)
		},
	})
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	panel.Bind(u.Host)
	svc.Invalidate()
	etag, err := svc.CurrentETag(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Client.Get(p.URL + "/api/proxy/config")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if served := resp.Header.Get("ETag"); served != etag {
		t.Fatalf("the full rebuild builds %s, the panel serves %s", etag, served)
	}
	k := rebuildKind{name: "full rebuild (baseline, in process)"}
	for range writes {
		svc.Invalidate()
		start, startCPU := time.Now(), cpuTime()
		if _, err := svc.CurrentETag(ctx); err != nil {
			t.Fatal(err)
		}
		k.add(time.Since(start), cpuTime()-startCPU)
	}
	return k
}
