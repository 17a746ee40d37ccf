package transfer

import (
	"fmt"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// benchFixture is a panel with n services, each with a rule and a header.
func benchFixture(b *testing.B, n int) *fixture {
	f := newFixture(b)
	svcs := services.NewService(services.Deps{DB: f.db, Now: func() time.Time { return testNow }})
	for i := range n {
		if _, err := svcs.Create(testCtx, services.Request{Name: fmt.Sprintf("service-%04d", i),
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: fmt.Sprintf("s%d.example.net", i)}},
			Targets:   []store.Target{{Scheme: "http", Host: fmt.Sprintf("10.0.%d.%d", i/250, i%250+1), Port: 8080}},
			Rules:     []store.Rule{{Type: services.RulePathPrefix, Value: "/app"}}, Headers: map[string]string{"X-Env": "prod"}}); err != nil {
			b.Fatal(err)
		}
	}
	return f
}

// BenchmarkExport1000 exports a panel with 1,000 services (bytes/op is the
// document's size).
func BenchmarkExport1000(b *testing.B) {
	f := benchFixture(b, 1000)
	var size int
	for b.Loop() {
		size = len(f.export(ExportOptions{}))
	}
	b.ReportMetric(float64(size), "doc_bytes")
}

// BenchmarkImport1000 plans and applies 1,000 services into an empty panel.
func BenchmarkImport1000(b *testing.B) {
	data := benchFixture(b, 1000).export(ExportOptions{})
	for b.Loop() {
		b.StopTimer()
		f := newFixture(b)
		b.StartTimer()
		if _, err := f.svc.Import(testCtx, data, ImportOptions{Apply: true}); err != nil {
			b.Fatal(err)
		}
	}
}
