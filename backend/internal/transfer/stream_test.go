package transfer

import (
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// TestStreamServicesRoundTrip: tcp and udp services come back from an
// export into an empty panel as they were (options included), and an
// import that would put two udp services on one entrypoint is refused as a
// whole.
func TestStreamServicesRoundTrip(t *testing.T) {
	src := newFixture(t)
	svcs := services.NewService(services.Deps{DB: src.db, Now: func() time.Time { return testNow }})
	_, err := svcs.Create(testCtx, services.Request{Name: "db", Kind: store.KindTCP, Entrypoints: []string{"postgres"},
		Targets: []store.Target{{Host: "10.0.0.5", Port: 5432, Weight: 2}, {Host: "10.0.0.6", Port: 5432}},
		TCP:     &store.TCP{ProxyProtocol: 2, AllowList: []string{"192.168.1.0/24"}, MaxConnections: 20}})
	src.must(err)
	_, err = svcs.Create(testCtx, services.Request{Name: "git", Kind: store.KindTCP, Entrypoints: []string{"websecure"},
		Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "git.example.net"}},
		Targets:   []store.Target{{Host: "10.0.0.7", Port: 443}}, TCP: &store.TCP{TLS: store.TLSPassthrough}})
	src.must(err)
	_, err = svcs.Create(testCtx, services.Request{Name: "dns", Kind: store.KindUDP, Entrypoints: []string{"dns"},
		Targets: []store.Target{{Host: "10.0.0.53", Port: 53}}})
	src.must(err)
	data := src.export(ExportOptions{})

	dst := newFixture(t)
	pl := dst.plan(data, ImportOptions{Apply: true})
	if !pl.Applied || pl.Summary.Create != 3 {
		t.Fatalf("summary %+v %+v", pl.Summary, pl.Items)
	}
	if a, b := src.snapshot(), dst.snapshot(); a != b {
		t.Fatalf("the import differs from the export:\n%s\n%s", a, b)
	}
	if !strings.Contains(dst.snapshot(), `"allowList":["192.168.1.0/24"]`) {
		t.Fatalf("the tcp options did not come over: %s", dst.snapshot())
	}

	twice := edit(t, data, func(d *document.Document) {
		for _, s := range d.Services {
			if s.Name == "dns" {
				s.Name, s.ID = "dns2", ""
				d.Services = append(d.Services, s)
				break
			}
		}
	})
	other := newFixture(t)
	if _, err := other.svc.Import(testCtx, twice, ImportOptions{Apply: true}); err == nil || !strings.Contains(err.Error(), "udp service") {
		t.Fatalf("two udp services on one entrypoint imported: %v", err)
	}
	if n := other.snapshot(); strings.Contains(n, `"dns"`) {
		t.Fatalf("a refused import wrote services: %s", n)
	}
}
