package transfer

import (
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
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

// TestStreamServiceGuardedRefused: a tcp or udp service that comes with an
// enabled protection or a restricting access rule is refused in the plan,
// naming the field, as the API refuses it; one with a protection switched
// off or allow-only rules is imported.
func TestStreamServiceGuardedRefused(t *testing.T) {
	src := newFixture(t)
	svcs := services.NewService(services.Deps{DB: src.db, Now: func() time.Time { return testNow }})
	_, err := svcs.Create(testCtx, services.Request{Name: "db", Kind: store.KindTCP, Entrypoints: []string{"postgres"},
		Targets: []store.Target{{Host: "10.0.0.5", Port: 5432}}})
	src.must(err)
	data := src.export(ExportOptions{})
	for _, tc := range []struct {
		name, why string
		edit      func(s *document.Service)
	}{
		{"enabled protection", "protections[0].enabled", func(s *document.Service) {
			s.Protections = []document.Protection{{Type: store.SecurityTokens, Enabled: true, Settings: map[string]any{"header": "X-Api-Key"}}}
		}},
		{"deny rule", "access.rules[1].action", func(s *document.Service) {
			s.Access = &document.ServiceAccess{Rules: []rules.Rule{{Action: rules.Allow, Sources: []string{"private"}}, {Action: rules.Deny, Sources: []string{"203.0.113.0/24"}}}}
		}},
		{"deny default", "access.defaultAction", func(s *document.Service) {
			s.Access = &document.ServiceAccess{DefaultAction: string(rules.Deny)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := edit(t, data, func(d *document.Document) {
				for i := range d.Services {
					if d.Services[i].Name == "db" {
						tc.edit(&d.Services[i])
					}
				}
			})
			it := find(newFixture(t).plan(doc, ImportOptions{}), KindService, "db")
			if it.Action != ActionRefused || !strings.Contains(it.Reason, tc.why) || !strings.Contains(it.Reason, "tcp.allowList") {
				t.Fatalf("item %+v, want refused on %s", it, tc.why)
			}
		})
	}
	off := edit(t, data, func(d *document.Document) {
		d.Services[0].Protections = []document.Protection{{Type: store.SecurityTokens, Settings: map[string]any{"header": "X-Api-Key"}}}
		d.Services[0].Access = &document.ServiceAccess{Rules: []rules.Rule{{Action: rules.Allow, Sources: []string{"private"}}}, DefaultAction: string(rules.Allow)}
	})
	if it := find(newFixture(t).plan(off, ImportOptions{}), KindService, "db"); it.Action != ActionCreate {
		t.Fatalf("unguarded tcp service: %+v", it)
	}
}
