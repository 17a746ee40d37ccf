package metrics

import (
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestDocsListEveryMetric: docs/metrics.md lists every metric the panel
// serves (Go's and the process's by their prefix), and the Grafana
// dashboard queries only metrics the panel serves.
func TestDocsListEveryMetric(t *testing.T) {
	m := New(Deps{Version: "test", Addresses: []netip.Prefix{}, LatencyBounds: []float64{0.001, 0.01},
		Decisions: func() []Decisions {
			return []Decisions{{ServiceID: "s", Counts: [5]uint64{1}, LatencyBuckets: []uint64{1, 1}, LatencySum: 0.001, LatencyCount: 1}}
		}})
	if err := m.InstrumentDB(testutil.NewDB(t)); err != nil {
		t.Fatal(err)
	}
	m.Delivered("test", true)
	m.BackedUp("manual", true, time.Second, 1)
	m.SignIn("panel", "success")
	m.ConfigBuilt(time.Now())
	m.Polled(304)
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range families {
		served[f.GetName()] = true
	}
	doc, err := os.ReadFile("../../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range served {
		if strings.HasPrefix(name, "go_") && !strings.HasPrefix(name, "go_sql_") || strings.HasPrefix(name, "process_") {
			continue
		}
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/metrics.md does not list %s", name)
		}
	}
	dash, err := os.ReadFile("../../../docs/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	suffix := regexp.MustCompile(`_(bucket|sum|count)$`)
	for _, name := range regexp.MustCompile(`\b(gatehouse|go|process)_[a-z_]+`).FindAllString(string(dash), -1) {
		if !served[name] && !served[suffix.ReplaceAllString(name, "")] {
			t.Errorf("the dashboard queries %s, which the panel does not serve", name)
		}
	}
}
