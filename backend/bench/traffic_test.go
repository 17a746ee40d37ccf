//go:build bench

package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// traefikText renders Traefik's per-service series for n services as one
// scrape shows them, each service having served requests (three codes,
// Traefik's default duration buckets, bytes): round scales the counters.
func traefikText(n, round int) string {
	var b strings.Builder
	b.WriteString("# TYPE traefik_service_requests_total counter\n")
	for i := range n {
		for k, code := range [...]string{"200", "404", "500"} {
			fmt.Fprintf(&b, "traefik_service_requests_total{code=%q,method=\"GET\",protocol=\"http\",service=\"svc-%d@http\"} %d\n",
				code, i, round*(30-10*k))
		}
	}
	for _, name := range [...]string{"traefik_service_requests_bytes_total", "traefik_service_responses_bytes_total"} {
		fmt.Fprintf(&b, "# TYPE %s counter\n", name)
		for i := range n {
			fmt.Fprintf(&b, "%s{code=\"200\",method=\"GET\",protocol=\"http\",service=\"svc-%d@http\"} %d\n", name, i, round*1234)
		}
	}
	b.WriteString("# TYPE traefik_service_request_duration_seconds histogram\n")
	for i := range n {
		l := fmt.Sprintf(`code="200",method="GET",protocol="http",service="svc-%d@http"`, i)
		for k, le := range [...]string{"0.1", "0.3", "1.2", "5", "+Inf"} {
			fmt.Fprintf(&b, "traefik_service_request_duration_seconds_bucket{%s,le=%q} %d\n", l, le, round*(20+3*k))
		}
		fmt.Fprintf(&b, "traefik_service_request_duration_seconds_sum{%s} %g\n", l, float64(round)*2.5)
		fmt.Fprintf(&b, "traefik_service_request_duration_seconds_count{%s} %d\n", l, round*32)
	}
	return b.String()
}

// scraped is a traffic.Traefik over a real runtime.Scraper whose Traefik
// services are the panel services themselves (svc-<i>@http is service
// svc-<i>): the attribution through Traefik's routers is left out.
type scraped struct{ s *runtime.Scraper }

func (x scraped) TakeTraffic(context.Context) runtime.TrafficTake {
	byName, since := x.s.Take()
	t := runtime.TrafficTake{Configured: true, Since: since, Services: map[string]runtime.Delta{}, Health: map[string][2]int{}}
	for name, d := range byName {
		t.Global.Add(d)
		id := strings.TrimSuffix(name, "@http")
		t.Services[id] = d
		t.Health[id] = [2]int{1, 1}
	}
	return t
}

func (scraped) TraefikNames(context.Context) (map[string][]string, error) { return nil, nil }

// benchServices lists svc-0 .. svc-<n-1>.
type benchServices int

func (n benchServices) EachEnabledOf(_ context.Context, _ []string, fn func(store.Service) error) error {
	for i := range int(n) {
		if err := fn(store.Service{ID: "svc-" + strconv.Itoa(i), Name: "service " + strconv.Itoa(i)}); err != nil {
			return err
		}
	}
	return nil
}

func (n benchServices) Exists(_ context.Context, id string) (bool, error) {
	i, err := strconv.Atoi(strings.TrimPrefix(id, "svc-"))
	return err == nil && strings.HasPrefix(id, "svc-") && i >= 0 && i < int(n), nil
}

// trafficBench is one panel database with the traffic history of n services.
type trafficBench struct {
	db      *gorm.DB
	file    string
	svc     *traffic.Service
	scraper *runtime.Scraper
	text    *string
	mu      *sync.Mutex
	now     *time.Time
	n       int
	round   int
}

func newTrafficBench(t *testing.T, n int) *trafficBench {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "gatehouse.db")
	db, err := store.Open(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s, err := db.DB(); err == nil {
			_ = s.Close()
		}
	})
	b := &trafficBench{db: db, file: file, n: n, text: new(string), mu: &sync.Mutex{}, now: new(time.Time)}
	*b.now = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b.mu.Lock()
		body := *b.text
		b.mu.Unlock()
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	clock := func() time.Time { return *b.now }
	if b.scraper, err = runtime.NewScraper(srv.URL, 30*time.Second, 0, clock); err != nil {
		t.Fatal(err)
	}
	b.svc = traffic.NewService(traffic.Deps{DB: db, Now: clock, Traefik: scraped{b.scraper}, Services: benchServices(n)})
	b.serve()
	b.scraper.Scrape(context.Background()) // the baseline
	return b
}

func (b *trafficBench) serve() {
	b.round++
	text := traefikText(b.n, b.round)
	b.mu.Lock()
	*b.text = text
	b.mu.Unlock()
}

// minute scrapes once and stores the minute, with a decision per service
// recorded; it returns the CPU time of the scrape and of the store, and
// the bytes the store wrote.
func (b *trafficBench) minute(t *testing.T) (scrape, storeCPU time.Duration, written int64) {
	t.Helper()
	ctx := context.Background()
	*b.now = b.now.Add(time.Minute)
	b.serve()
	for i := range b.n {
		b.svc.Recorder().For("svc-"+strconv.Itoa(i)).Observe(traffic.DecisionSignedIn, time.Millisecond)
	}
	c0 := cpuTime()
	b.scraper.Scrape(ctx)
	c1 := cpuTime()
	w0 := wchar()
	minute := b.now.Add(-time.Minute)
	if err := b.svc.StoreTraefik(ctx, minute); err != nil {
		t.Fatal(err)
	}
	if err := b.svc.StoreDecisions(ctx, minute); err != nil {
		t.Fatal(err)
	}
	return c1 - c0, cpuTime() - c1, wchar() - w0
}

// size is the database's size once its WAL is checkpointed.
func (b *trafficBench) size(t *testing.T) int64 {
	t.Helper()
	if err := b.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)").Error; err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(b.file)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// wchar is the bytes this process has handed to write calls (/proc/self/io).
func wchar() int64 {
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// TestBenchTrafficStore measures the traffic history on SQLite: one
// minute's scrape of Traefik's metrics and its store (the leader's rows and
// one replica's decisions) at 1,000 and 10,000 services that all carried
// traffic; the database's growth per day at 1,000 active services; and the
// 30-day chart of one service and of all, and the 30-day services list.
func TestBenchTrafficStore(t *testing.T) {
	fmt.Printf("\nTraffic history, one minute's scrape and store (SQLite; every service carried traffic;\n")
	fmt.Printf("median of 5 minutes; bytes written: what the store handed to write calls, WAL frames included)\n")
	fmt.Printf("%-10s  %12s  %12s  %14s  %16s\n", "services", "scrape CPU", "store CPU", "bytes written", "bytes/service")
	for _, n := range []int{1000, 10000} {
		b := newTrafficBench(t, n)
		var sc, st []time.Duration
		var wr []time.Duration
		for range 5 {
			s, c, w := b.minute(t)
			sc, st, wr = append(sc, s), append(st, c), append(wr, time.Duration(w))
		}
		w := int64(quantile(wr, 0.5))
		// The hour's roll-up, once it is over: every series' minutes read back.
		*b.now = b.now.Truncate(time.Hour).Add(time.Hour + 3*time.Minute)
		c0, w0 := cpuTime(), wchar()
		if err := b.svc.Rollup(context.Background()); err != nil {
			t.Fatal(err)
		}
		roll, rollW := cpuTime()-c0, wchar()-w0
		fmt.Printf("%-10d  %12s  %12s  %14d  %16d   (the hour's roll-up: %s CPU, %d bytes written)\n", n,
			ms3(quantile(sc, 0.5)), ms3(quantile(st, 0.5)), w, w/int64(n), ms3(roll), rollW)
	}

	const n = 1000
	b := newTrafficBench(t, n)
	b.minute(t)
	before := b.size(t)
	for range 60 {
		b.minute(t)
		if err := b.svc.Rollup(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	hour := b.size(t) - before
	perDay := hour * 24
	// At rest: 48 h of minute rows and 90 days of hour rows; an hour row
	// is the size of a minute row, so an hour's growth (60 minute rows and
	// one rolled-up hour row per service and table) prices a row.
	row := float64(hour) / float64(61*n)
	steady := row * float64(2*1440+90*24) * n
	fmt.Printf("\nDatabase growth at %d active services: %.1f MB per hour, %.0f MB per day (%.0f kB per service per day);\n",
		n, float64(hour)/1e6, float64(perDay)/1e6, float64(perDay)/n/1e3)
	fmt.Printf("%.0f bytes per service-minute (its samples row and its decisions row, index entries included); at rest with the default\n", row)
	fmt.Printf("retention (48 h of minutes, 90 days of hours): %.0f MB, %.0f kB per service\n", steady/1e6, steady/n/1e3)

	// 30 days of hour rows for the 1,000 services: one stored minute per hour.
	ctx := context.Background()
	for range 30*24 - 1 {
		*b.now = b.now.Add(59 * time.Minute)
		b.minute(t)
		if err := b.svc.Rollup(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.svc.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	now := *b.now
	for _, q := range []struct {
		name string
		run  func() error
	}{
		{"30-day chart, one service", func() error { _, err := b.svc.Query(ctx, "svc-7", now.Add(-30*24*time.Hour), now); return err }},
		{"30-day chart, every service", func() error { _, err := b.svc.Query(ctx, traffic.Global, now.Add(-30*24*time.Hour), now); return err }},
		{"30-day services list, 30 points", func() error {
			_, err := b.svc.Services(ctx, now.Add(-30*24*time.Hour), now, 30)
			return err
		}},
	} {
		var d []time.Duration
		for range 15 {
			start := time.Now()
			if err := q.run(); err != nil {
				t.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		fmt.Printf("%-34s median %s, p90 %s\n", q.name, ms3(quantile(d, 0.5)), ms3(quantile(d, 0.9)))
	}
	fmt.Printf("(%d services with 720 hour rows each)\n", n)
}
