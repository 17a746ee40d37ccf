package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// BenchmarkScrape is one scrape of /metrics with 1,000 services' decisions
// (latency histograms of 14 buckets), the cost Prometheus adds per interval.
func BenchmarkScrape(b *testing.B) {
	snap := make([]Decisions, 1000)
	bounds := []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}
	names := map[string]string{}
	for i := range snap {
		id := fmt.Sprintf("svc-%04d", i)
		snap[i] = Decisions{ServiceID: id, Counts: [5]uint64{100, 5, 3, 2, 1}, LatencyBuckets: make([]uint64, len(bounds)), LatencyCount: 111}
		names[id] = fmt.Sprintf("service %d", i)
	}
	m := New(Deps{Decisions: func() []Decisions { return snap }, LatencyBounds: bounds,
		ServiceNames: func(context.Context) (map[string]string, error) { return names, nil },
		Addresses:    []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		PublicHosts:  func(context.Context) ([]string, error) { return []string{"panel.example.com"}, nil }})
	h := m.Front(http.NotFoundHandler())
	b.ReportAllocs()
	var size int
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, Path, nil)
		req.RemoteAddr = "127.0.0.1:1234"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
		body, _ := io.ReadAll(rec.Body)
		size = len(body)
	}
	b.ReportMetric(float64(size), "bytes/scrape")
}

// BenchmarkFrontPassThrough is what /metrics's front costs every other
// request (verify included): one path comparison.
func BenchmarkFrontPassThrough(b *testing.B) {
	h := New(Deps{}).Front(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify", nil)
	rec := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(rec, req)
	}
}
