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

// TestBenchDynconfRebuild measures, on the real app over HTTP, the first GET
// /api/proxy/config after a write, at 1,000 and 10,000 services: after a
// service write and after a domain write (both rebuilt incrementally),
// against two baselines from the same run: a full rebuild (every row read
// and every service built again, the cost of a build from scratch) and the
// cached GET.
func TestBenchDynconfRebuild(t *testing.T) {
	const writes = 20
	fmt.Printf("\nFirst GET /api/proxy/config after a write (app.Run over HTTP, %d writes each; same run)\n", writes)
	fmt.Printf("(CPU: the process's CPU time for the same GET, server and client, which stays meaningful on a loaded machine;\n")
	fmt.Printf(" the full rebuild is measured in process on the same database, without the HTTP answer)\n")
	fmt.Printf("%9s  %9s  %-36s  %10s  %10s  %10s\n", "services", "bytes", "after", "median", "p95", "CPU median")
	for _, n := range []int{1000, 10000} {
		r := measureRebuild(t, startSeeded(t, n, ""), writes)
		for _, k := range r.kinds() {
			fmt.Printf("%9d  %9d  %-36s  %10s  %10s  %10s\n", n, r.size, k.name, ms3(quantile(k.d, 0.5)), ms3(quantile(k.d, 0.95)),
				ms3(quantile(k.cpu, 0.5)))
		}
	}
	fmt.Println("goal: first GET after a service or domain write at 10,000 services under 100 ms")
}

// rebuildFigures are the timings of GET /api/proxy/config measureRebuild
// takes: wall and process CPU time per GET.
type rebuildFigures struct {
	size                int // the document's bytes
	svc, domain, cached rebuildKind
	full                rebuildKind // in process (see fullRebuilds)
}

type rebuildKind struct {
	name   string
	d, cpu []time.Duration
}

func (r rebuildFigures) kinds() []rebuildKind {
	return []rebuildKind{r.svc, r.domain, r.full, r.cached}
}

// seeded is a panel started on a database seeded with n services.
type seeded struct {
	p        *harness.Panel
	database string // a SQLite path or a PostgreSQL URL
	domainID string // bench.test, the domain of every service
	ids      []string
}

// startSeeded writes the domain bench.test and n services on it into a new
// database (a SQLite file in a new data directory when pgURL is empty, else
// the empty PostgreSQL database pgURL), then starts the panel on it, so that
// its first build reads them all: the seed publishes no events.
func startSeeded(t *testing.T, n int, pgURL string) seeded {
	t.Helper()
	env := map[string]string{"PANEL_LOG_LEVEL": "warn"}
	database := pgURL
	if pgURL == "" {
		dir := t.TempDir()
		env["PANEL_DATA_DIR"], database = dir, filepath.Join(dir, "gatehouse.db")
	} else {
		env["PANEL_DATABASE_URL"] = pgURL
	}
	if err := store.Migrate(database); err != nil {
		t.Fatal(err)
	}
	domainID, ids := seedServices(t, database, n)
	return seeded{p: harness.StartPanel(t, env), database: database, domainID: domainID, ids: ids}
}

// measureRebuild times the first GET /api/proxy/config of a seeded panel
// after each of writes service writes and after each of writes domain writes
// (the certificate resolver of the domain of every service), writes full
// rebuilds in process, and writes GETs without a write. (The first GET after
// the start is not timed: the panel's background work may have built the
// configuration already; the full rebuild is that cost.)
func measureRebuild(t *testing.T, s seeded, writes int) rebuildFigures {
	t.Helper()
	p, ids := s.p, s.ids
	r := rebuildFigures{svc: rebuildKind{name: "service write (incremental)"},
		domain: rebuildKind{name: "domain write (incremental)"}, cached: rebuildKind{name: "no write (cached)"}}
	r.size = len(getConfig(t, p))
	for i := range writes {
		k := (i * 7919) % len(ids)
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+ids[k], map[string]any{
			"name": fmt.Sprint("svc ", k), "domainId": s.domainID,
			"hostnames":   []map[string]string{{"type": "subdomain", "value": fmt.Sprint("app", k)}},
			"targets":     []map[string]any{{"host": "10.0.0.2", "port": 9000 + i}},
			"entrypoints": []string{"web", "websecure"},
			"rules":       []map[string]string{{"type": "pathPrefix", "value": "/api"}},
			"headers":     map[string]string{"X-Service": fmt.Sprint(k)},
		}, nil)
		r.svc.add(timeGet(t, p))
	}
	for i := range writes {
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/domains/"+s.domainID,
			map[string]any{"domain": "bench.test", "certResolver": []string{"le2", "le"}[i%2], "wildcard": true}, nil)
		r.domain.add(timeGet(t, p))
	}
	r.full = fullRebuilds(t, p, s.database, writes)
	for range writes {
		r.cached.add(timeGet(t, p))
	}
	return r
}

func (k *rebuildKind) add(wall, cpu time.Duration) {
	k.d, k.cpu = append(k.d, wall), append(k.cpu, cpu)
}

// seedServices writes the domain bench.test and n services on it straight
// into a migrated database (as the domains and services features do,
// without publishing events), every third protected by a shared link.
func seedServices(t *testing.T, database string, n int) (domainID string, ids []string) {
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
	domainID = store.NewID()
	ids = make([]string, 0, n)
	err = db.Transaction(func(tx *gorm.DB) error {
		dom := store.Domain{ID: domainID, Name: "bench.test", Domain: "bench.test", CertResolver: "le", Wildcard: true,
			CertConfigs: store.NewJSON([]store.CertConfig{}), CreatedAt: now, UpdatedAt: now}
		if err := tx.Create(&dom).Error; err != nil {
			return err
		}
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
			row.Domain = &dom
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
	return domainID, ids
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
