package metrics

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestDecisionsCollector: the recorder's snapshot becomes counters and a
// histogram per service at scrape time, named when the name is known.
func TestDecisionsCollector(t *testing.T) {
	snap := []Decisions{
		{ServiceID: "s1", Counts: [5]uint64{5, 1, 2, 3, 0}, LatencyBuckets: []uint64{4, 9, 11}, LatencySum: 0.2, LatencyCount: 11},
		{ServiceID: "gone", Counts: [5]uint64{0, 0, 0, 1, 0}, LatencyBuckets: []uint64{1, 1, 1}, LatencySum: 0.001, LatencyCount: 1},
	}
	calls := 0
	c := newDecisionsCollector(func() []Decisions { return snap }, []float64{0.001, 0.01, 0.1},
		func(context.Context) (map[string]string, error) {
			calls++
			return map[string]string{"s1": "grafana"}, nil
		},
		time.Now, nil)
	want := `
# HELP gatehouse_verify_decisions_total Forward-auth decisions by service and decision.
# TYPE gatehouse_verify_decisions_total counter
gatehouse_verify_decisions_total{decision="allowed",service="gone"} 0
gatehouse_verify_decisions_total{decision="allowed",service="grafana"} 5
gatehouse_verify_decisions_total{decision="challenged",service="gone"} 0
gatehouse_verify_decisions_total{decision="challenged",service="grafana"} 2
gatehouse_verify_decisions_total{decision="denied",service="gone"} 1
gatehouse_verify_decisions_total{decision="denied",service="grafana"} 3
gatehouse_verify_decisions_total{decision="rate_limited",service="gone"} 0
gatehouse_verify_decisions_total{decision="rate_limited",service="grafana"} 0
gatehouse_verify_decisions_total{decision="signed_in",service="gone"} 0
gatehouse_verify_decisions_total{decision="signed_in",service="grafana"} 1
# HELP gatehouse_verify_duration_seconds Time forward-auth took to decide, by service.
# TYPE gatehouse_verify_duration_seconds histogram
gatehouse_verify_duration_seconds_bucket{service="gone",le="0.001"} 1
gatehouse_verify_duration_seconds_bucket{service="gone",le="0.01"} 1
gatehouse_verify_duration_seconds_bucket{service="gone",le="0.1"} 1
gatehouse_verify_duration_seconds_bucket{service="gone",le="+Inf"} 1
gatehouse_verify_duration_seconds_sum{service="gone"} 0.001
gatehouse_verify_duration_seconds_count{service="gone"} 1
gatehouse_verify_duration_seconds_bucket{service="grafana",le="0.001"} 4
gatehouse_verify_duration_seconds_bucket{service="grafana",le="0.01"} 9
gatehouse_verify_duration_seconds_bucket{service="grafana",le="0.1"} 11
gatehouse_verify_duration_seconds_bucket{service="grafana",le="+Inf"} 11
gatehouse_verify_duration_seconds_sum{service="grafana"} 0.2
gatehouse_verify_duration_seconds_count{service="grafana"} 11
`
	c.log = New(Deps{}).log
	if err := testutil.CollectAndCompare(c, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	if err := testutil.CollectAndCompare(c, strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Fatalf("service names read %d times in two scrapes, want once (cached)", calls)
	}
}

// TestTokenOK: only the exact bearer token passes.
func TestTokenOK(t *testing.T) {
	m := New(Deps{Token: "abc"})
	for auth, want := range map[string]bool{"Bearer abc": true, "bearer abc": true, "Bearer abcd": false, "Basic abc": false, "Bearer ": false, "abc": false} {
		if got := m.tokenOK(auth); got != want {
			t.Errorf("tokenOK(%q) = %v", auth, got)
		}
	}
	if New(Deps{}).tokenOK("Bearer x") {
		t.Error("no token configured accepted one")
	}
}
