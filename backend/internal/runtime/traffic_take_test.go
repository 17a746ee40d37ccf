package runtime

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"
)

func TestScraperKeepsTrafficForTheHistory(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	ctx := context.Background()
	m.serve(fixture(t, "traefik-3.6-metrics-1.txt"))
	s.Scrape(ctx) // the baseline
	if got, _ := s.Take(); len(got) != 0 {
		t.Fatalf("the baseline scrape gave %v", got)
	}
	clock = clock.Add(10 * time.Second)
	m.serve(fixture(t, "traefik-3.6-metrics-2.txt"))
	s.Scrape(ctx)
	got, since := s.Take()
	g, ok := got["gh-grafana@http"]
	if !ok || !since.Equal(time.Unix(1000, 0)) {
		t.Fatalf("take = %v since %v", got, since)
	}
	// 10 more 200s, and a 404 series first seen now, which counts fully.
	if g.Classes[0] != 10 || g.Classes[2] != 1 {
		t.Errorf("classes = %v, want 10 2xx and 1 4xx", g.Classes)
	}
	for name, d := range got {
		if inf := d.Buckets[math.Inf(1)]; inf != d.Requests() {
			t.Errorf("%s: +Inf bucket %v, requests %v", name, inf, d.Requests())
		}
		if d.Buckets[0.1] > d.Buckets[math.Inf(1)] {
			t.Errorf("%s: buckets are not cumulative: %v", name, d.Buckets)
		}
	}
	if again, _ := s.Take(); len(again) != 0 {
		t.Fatalf("a second take gave %v", again)
	}
}

func TestScraperKeepsBytes(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	ctx := context.Background()
	body := func(in, out int) string {
		return counters(map[string]int{"200": in / 10}, 0.1, in/10) +
			"# TYPE traefik_service_requests_bytes_total counter\n" +
			"traefik_service_requests_bytes_total{code=\"200\",method=\"GET\",protocol=\"http\",service=\"gh-app@http\"} " + itoa(in) + "\n" +
			"# TYPE traefik_service_responses_bytes_total counter\n" +
			"traefik_service_responses_bytes_total{code=\"200\",method=\"GET\",protocol=\"http\",service=\"gh-app@http\"} " + itoa(out) + "\n"
	}
	m.serve(body(100, 1000))
	s.Scrape(ctx)
	clock = clock.Add(10 * time.Second)
	m.serve(body(300, 5000))
	s.Scrape(ctx)
	clock = clock.Add(10 * time.Second)
	m.serve(body(50, 500)) // Traefik restarted: counts from zero
	s.Scrape(ctx)
	if st := s.state(); st.lastErr != nil {
		t.Fatal(st.lastErr)
	}
	got, _ := s.Take()
	a := got["gh-app@http"]
	if a.BytesIn != 250 || a.BytesOut != 4500 || a.Classes[0] != 25 {
		t.Fatalf("bytes in %v out %v, 2xx %v; want 250, 4500, 25", a.BytesIn, a.BytesOut, a.Classes[0])
	}
}

func TestTakeTrafficWithoutMetrics(t *testing.T) {
	take := NewService(Deps{}).TakeTraffic(context.Background())
	if take.Configured || take.Error == "" {
		t.Fatalf("take = %+v", take)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A bucket that gained nothing below the busy ones is kept: the history
// interpolates a percentile from it. Regression: 20 ms requests counted
// only from 0.025 up read as a 12.5 ms median (0 to 25 ms).
func TestScraperKeepsTheEmptyBucketsOfABusySeries(t *testing.T) {
	m := newMetricsServer(t)
	clock := time.Unix(1000, 0)
	s := newTestScraper(t, m.URL, 0, &clock)
	ctx := context.Background()
	page := func(n int) string {
		c := strconv.Itoa(n)
		return "# TYPE traefik_service_request_duration_seconds histogram\n" +
			`traefik_service_request_duration_seconds_bucket{code="200",method="GET",protocol="http",service="gh-app@http",le="0.01"} 0` + "\n" +
			`traefik_service_request_duration_seconds_bucket{code="200",method="GET",protocol="http",service="gh-app@http",le="0.02"} 0` + "\n" +
			`traefik_service_request_duration_seconds_bucket{code="200",method="GET",protocol="http",service="gh-app@http",le="0.025"} ` + c + "\n" +
			`traefik_service_request_duration_seconds_bucket{code="200",method="GET",protocol="http",service="gh-app@http",le="+Inf"} ` + c + "\n" +
			`traefik_service_request_duration_seconds_sum{code="200",method="GET",protocol="http",service="gh-app@http"} 1` + "\n" +
			`traefik_service_request_duration_seconds_count{code="200",method="GET",protocol="http",service="gh-app@http"} ` + c + "\n"
	}
	m.serve(page(5))
	s.Scrape(ctx)
	clock = clock.Add(10 * time.Second)
	m.serve(page(105))
	s.Scrape(ctx)
	got, _ := s.Take()
	b := got["gh-app@http"].Buckets
	if v, ok := b[0.02]; !ok || v != 0 || b[0.025] != 100 || b[math.Inf(1)] != 100 {
		t.Fatalf("buckets = %v, want 0.02 kept at 0 below 100 in 0.025", b)
	}
	// A series without requests since the last scrape adds nothing.
	clock = clock.Add(10 * time.Second)
	s.Scrape(ctx)
	if again, _ := s.Take(); len(again) != 0 {
		t.Fatalf("an idle scrape gave %v", again)
	}
}
