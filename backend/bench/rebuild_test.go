//go:build bench

package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestBenchDynconfRebuild measures, on the real app over HTTP, the first
// GET /api/proxy/config after a write, at 1,000 and 10,000 services: after a
// service write (rebuilt incrementally), against two baselines from the same
// run: after a domain write (every row read and every service built again,
// the cost of a build from scratch) and the cached GET.
func TestBenchDynconfRebuild(t *testing.T) {
	const writes = 20
	fmt.Printf("\nFirst GET /api/proxy/config after a write (app.Run over HTTP, %d writes each; same run)\n", writes)
	fmt.Printf("(CPU: the process's CPU time for the same GET, server and client, which stays meaningful on a loaded machine)\n")
	fmt.Printf("%9s  %-34s  %10s  %10s  %10s  %9s\n", "services", "after", "median", "p95", "CPU median", "bytes")
	for _, n := range []int{1000, 10000} {
		p := harness.StartPanel(t, map[string]string{"PANEL_LOG_LEVEL": "warn"})
		r := measureRebuild(t, p, filepath.Join(p.DataDir, "gatehouse.db"), n, writes)
		fmt.Printf("%9d  %-34s  %10s  %10s  %10s  %9d\n", n, "start (first build, nothing cached)", ms3(r.start), "", "", r.size)
		for _, k := range r.kinds() {
			fmt.Printf("%9d  %-34s  %10s  %10s  %10s\n", n, k.name, ms3(quantile(k.d, 0.5)), ms3(quantile(k.d, 0.95)),
				ms3(quantile(k.cpu, 0.5)))
		}
	}
	fmt.Println("goal: first GET after a service write at 10,000 services under 100 ms")
}

// rebuildFigures are the timings of GET /api/proxy/config measureRebuild
// takes: wall and process CPU time per GET.
type rebuildFigures struct {
	start                    time.Duration // the first GET, nothing cached
	size                     int           // its body's bytes
	svc, full, cached        []time.Duration
	svcCPU, fullCPU, cachedC []time.Duration
}

type rebuildKind struct {
	name   string
	d, cpu []time.Duration
}

func (r rebuildFigures) kinds() []rebuildKind {
	return []rebuildKind{{"service write (incremental)", r.svc, r.svcCPU}, {"domain write (full rebuild)", r.full, r.fullCPU},
		{"no write (cached)", r.cached, r.cachedC}}
}

// measureRebuild seeds n services into the panel's database (a SQLite path
// or a PostgreSQL URL) and times the first GET /api/proxy/config after each
// of writes service writes, after each of writes domain writes, and without
// a write.
func measureRebuild(t *testing.T, p *harness.Panel, database string, n, writes int) rebuildFigures {
	t.Helper()
	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains",
		map[string]any{"domain": "bench.test", "certResolver": "le", "wildcard": true}, &dom)
	ids := seedServices(t, database, dom.ID, n)
	// The seed publishes no events, and a background loop may have built
	// the configuration while it was written: a domain write drops it.
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/domains/"+dom.ID,
		map[string]any{"domain": "bench.test", "certResolver": "le", "wildcard": true}, nil)

	var r rebuildFigures
	start := time.Now()
	r.size = len(getConfig(t, p))
	r.start = time.Since(start)
	for i := range writes {
		k := (i * 7919) % len(ids)
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+ids[k], map[string]any{
			"name": fmt.Sprint("svc ", k), "domainId": dom.ID,
			"hostnames":   []map[string]string{{"type": "subdomain", "value": fmt.Sprint("app", k)}},
			"targets":     []map[string]any{{"host": "10.0.0.2", "port": 9000 + i}},
			"entrypoints": []string{"web", "websecure"},
			"rules":       []map[string]string{{"type": "pathPrefix", "value": "/api"}},
			"headers":     map[string]string{"X-Service": fmt.Sprint(k)},
		}, nil)
		w, c := timeGet(t, p)
		r.svc, r.svcCPU = append(r.svc, w), append(r.svcCPU, c)
	}
	// A domain write makes the next GET read and build everything.
	for i := range writes {
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/domains/"+dom.ID,
			map[string]any{"domain": "bench.test", "certResolver": []string{"le", "le2"}[i%2], "wildcard": true}, nil)
		w, c := timeGet(t, p)
		r.full, r.fullCPU = append(r.full, w), append(r.fullCPU, c)
	}
	for range writes {
		w, c := timeGet(t, p)
		r.cached, r.cachedC = append(r.cached, w), append(r.cachedC, c)
	}
	return r
}

// seedServices writes n services straight into the panel's database (as the
// services feature does, without publishing events: the caller then makes
// the panel drop what it built), every third protected by a shared link.
func seedServices(t *testing.T, database, domainID string, n int) []string {
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
	now := store.Now()
	ids := make([]string, 0, n)
	err = db.Transaction(func(tx *gorm.DB) error {
		for i := range n {
			id := store.NewID()
			row := store.Service{
				ID: id, Name: fmt.Sprint("svc ", i), DomainID: &domainID,
				Hostnames:      store.JSON[[]store.Hostname]{V: []store.Hostname{{Type: store.HostSubdomain, Value: fmt.Sprint("app", i)}}},
				Targets:        store.JSON[[]store.Target]{V: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 8000 + i%1000}}},
				PassHostHeader: true, Enabled: true, ExpiryType: store.ExpiryNever, EnabledAt: &now,
				Entrypoints: store.JSON[[]string]{V: []string{"web", "websecure"}},
				Rules:       store.JSON[[]store.Rule]{V: []store.Rule{{Type: "pathPrefix", Value: "/api"}}},
				Middlewares: store.JSON[[]string]{V: []string{}},
				Headers:     store.JSON[map[string]string]{V: map[string]string{"X-Service": fmt.Sprint(i)}},
				CreatedAt:   now.Add(time.Duration(i) * time.Millisecond), UpdatedAt: now,
			}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
			row.Domain = &store.Domain{ID: domainID, Domain: "bench.test"}
			if err := services.SyncHostnames(tx, row); err != nil {
				return err
			}
			if i%3 == 0 {
				if err := tx.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: id, Type: store.SecuritySharedLinks,
					Enabled: true, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
					return err
				}
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed %d services: %v", n, err)
	}
	return ids
}

func getConfig(t *testing.T, p *harness.Panel) []byte {
	t.Helper()
	resp, err := http.Get(p.URL + "/api/proxy/config")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/proxy/config: %d %v", resp.StatusCode, err)
	}
	return body
}

// timeGet is the wall time of one GET /api/proxy/config, body read, and
// the process's CPU time meanwhile.
func timeGet(t *testing.T, p *harness.Panel) (wall, cpu time.Duration) {
	t.Helper()
	start, startCPU := time.Now(), cpuTime()
	getConfig(t, p)
	return time.Since(start), cpuTime() - startCPU
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

func ms3(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond)) }
