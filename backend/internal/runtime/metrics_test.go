package runtime

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// metricsServer serves whatever text it currently holds.
type metricsServer struct {
	*httptest.Server
	mu   sync.Mutex
	body string
}

func newMetricsServer(t *testing.T) *metricsServer {
	t.Helper()
	m := &metricsServer{}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		m.mu.Lock()
		defer m.mu.Unlock()
		_, _ = w.Write([]byte(m.body))
	}))
	t.Cleanup(m.Close)
	return m
}

func (m *metricsServer) serve(body string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.body = body
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name)) //nolint:gosec // the package's own fixtures
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// counters renders Traefik-shaped series for gh-app@http: requests per code
// and the latency histogram's sum and count.
func counters(codes map[string]int, sum float64, count int) string {
	var b strings.Builder
	b.WriteString("# TYPE traefik_service_requests_total counter\n")
	for code, n := range codes {
		fmt.Fprintf(&b, "traefik_service_requests_total{code=%q,method=\"GET\",protocol=\"http\",service=\"gh-app@http\"} %d\n", code, n)
	}
	b.WriteString("# TYPE traefik_service_request_duration_seconds histogram\n")
	fmt.Fprintf(&b, "traefik_service_request_duration_seconds_bucket{code=\"200\",method=\"GET\",protocol=\"http\",service=\"gh-app@http\",le=\"+Inf\"} %d\n", count)
	fmt.Fprintf(&b, "traefik_service_request_duration_seconds_sum{code=\"200\",method=\"GET\",protocol=\"http\",service=\"gh-app@http\"} %g\n", sum)
	fmt.Fprintf(&b, "traefik_service_request_duration_seconds_count{code=\"200\",method=\"GET\",protocol=\"http\",service=\"gh-app@http\"} %d\n", count)
	return b.String()
}

func newTestScraper(t *testing.T, url string, window int, clock *time.Time) *Scraper {
	t.Helper()
	s, err := NewScraper(url, 5*time.Second, window, func() time.Time { return *clock })
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScraperDeltasFromRecordedTraefik(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	m.serve(fixture(t, "traefik-3.6-metrics-1.txt"))
	s.Scrape(context.Background())
	clock = clock.Add(10 * time.Second)
	m.serve(fixture(t, "traefik-3.6-metrics-2.txt"))
	s.Scrape(context.Background())

	st := s.state()
	if st.lastErr != nil || len(st.samples) != 1 {
		t.Fatalf("state = %+v", st)
	}
	// Between the two recordings gh-grafana@http served 10 more 200s and
	// its first 404 and 500 (new series count in full).
	got := summarize(st.samples, []string{"gh-grafana@http"})
	if got.Requests != 12 || got.Status != (StatusCounts{10, 0, 1, 1}) || got.RequestRate != 1.2 {
		t.Fatalf("traffic = %+v", got)
	}
	if got.ErrorRate != round(1.0/12, 4) || got.AvgLatencyMs <= 0 || len(got.History) != 1 || got.WindowSeconds != 10 {
		t.Fatalf("traffic = %+v", got)
	}
	if legacy := summarize(st.samples, []string{"legacy-svc@file"}); legacy.Requests != 0 {
		t.Fatalf("legacy-svc moved: %+v", legacy)
	}
}

func TestScraperSurvivesCounterResets(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	steps := []struct {
		codes      map[string]int
		sum        float64
		count      int
		wantReqs   float64
		wantErrors float64
	}{
		{map[string]int{"200": 100, "502": 10}, 11, 110, 0, 0},        // baseline
		{map[string]int{"200": 130, "502": 10}, 14, 140, 30, 0},       // +30 ok
		{map[string]int{"200": 5, "502": 1}, 0.6, 6, 6, 1},            // Traefik restarted: counts from zero
		{map[string]int{"200": 25, "502": 1, "404": 4}, 3, 30, 24, 0}, // a new series counts in full
	}
	for i, st := range steps {
		m.serve(counters(st.codes, st.sum, st.count))
		s.Scrape(context.Background())
		state := s.state()
		if i == 0 {
			if len(state.samples) != 0 {
				t.Fatalf("baseline recorded a sample")
			}
		} else {
			last := state.samples[len(state.samples)-1].services["gh-app@http"]
			if last.requests != st.wantReqs || last.classes[3] != st.wantErrors {
				t.Fatalf("step %d: delta = %+v, want %v requests and %v errors", i, last, st.wantReqs, st.wantErrors)
			}
			if last.requests < 0 || last.durSum < 0 || last.durCount < 0 {
				t.Fatalf("step %d: negative delta %+v", i, last)
			}
		}
		clock = clock.Add(10 * time.Second)
	}
	got := summarize(s.state().samples, []string{"gh-app@http"})
	if got.Requests != 60 || got.Status.S5xx != 1 || got.Status.S4xx != 4 {
		t.Fatalf("window = %+v", got)
	}
	// 30+6+24 requests over 30 s.
	if got.RequestRate != 2 {
		t.Fatalf("rate = %v", got.RequestRate)
	}
	// latency: (3 + 0.6 + 2.4) s over (30 + 6 + 24) requests = 100 ms.
	if got.AvgLatencyMs != 100 {
		t.Fatalf("latency = %v", got.AvgLatencyMs)
	}
}

func TestScraperWindowIsBounded(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 3, &clock)
	for i := range 10 {
		m.serve(counters(map[string]int{"200": i * 10}, 0, 0))
		s.Scrape(context.Background())
		clock = clock.Add(10 * time.Second)
	}
	got := summarize(s.state().samples, []string{"gh-app@http"})
	if len(got.History) != 3 || got.Requests != 30 || got.WindowSeconds != 30 {
		t.Fatalf("window = %+v", got)
	}
}

func TestScraperKeepsHistoryThroughFailures(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	m.serve(counters(map[string]int{"200": 0}, 0, 0))
	s.Scrape(context.Background())
	clock = clock.Add(10 * time.Second)
	m.serve(counters(map[string]int{"200": 10}, 0, 0))
	s.Scrape(context.Background())
	clock = clock.Add(10 * time.Second)
	m.serve("this is { not prometheus")
	s.Scrape(context.Background())
	st := s.state()
	if st.lastErr == nil || !strings.Contains(st.lastErr.Error(), "not in Prometheus text format") || len(st.samples) != 1 {
		t.Fatalf("state = %+v", st)
	}
	// The next good scrape spans the gap: 20 requests over 20 s.
	clock = clock.Add(10 * time.Second)
	m.serve(counters(map[string]int{"200": 30}, 0, 0))
	s.Scrape(context.Background())
	st = s.state()
	if st.lastErr != nil || len(st.samples) != 2 || st.samples[1].seconds != 20 {
		t.Fatalf("state = %+v", st)
	}
}

func TestMetricsViewPerPanelService(t *testing.T) {
	e, _, grafana, wiki := recorded(t, traefik36())
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	m.serve(fixture(t, "traefik-3.6-metrics-1.txt"))
	s.Scrape(context.Background())
	clock = clock.Add(10 * time.Second)
	m.serve(fixture(t, "traefik-3.6-metrics-2.txt"))
	s.Scrape(context.Background())
	e.deps.Scraper = s

	var v MetricsView
	get(t, serve(t, e.deps), "/api/proxy/metrics", &v)
	if !v.Configured || !v.Reachable || len(v.Items) != 2 {
		t.Fatalf("view = %+v", v)
	}
	byID := map[string]ServiceMetrics{}
	for _, it := range v.Items {
		byID[it.ServiceID] = it
	}
	if g := byID[grafana]; g.Requests != 12 || g.Status.S2xx != 10 || g.Traefik[0] != "gh-grafana@http" || len(g.History) != 1 {
		t.Fatalf("grafana = %+v", g)
	}
	if w := byID[wiki]; w.Requests != 0 || w.RequestRate != 0 {
		t.Fatalf("wiki = %+v", w)
	}
}
