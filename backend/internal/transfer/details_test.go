package transfer

import (
	"slices"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// TestPlanDetails: a plan says what each service and domain it creates
// becomes (host names, targets, entrypoints, certificates), what an update
// changes as was → now, and, once applied, which row it wrote.
func TestPlanDetails(t *testing.T) {
	f := newFixture(t)
	f.seed()
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) {
		for i := range d.Services {
			if d.Services[i].Name == "app" {
				d.Services[i].Targets = []store.Target{{Scheme: "https", Host: "10.0.0.2", Port: 8443}}
				d.Services[i].Entrypoints = []string{"web", "websecure"}
			}
		}
		d.Services = append(d.Services, document.Service{Name: "wiki", Domain: "example.com", Kind: store.KindProxy,
			Hostnames: []store.Hostname{{Type: store.HostSubdomain, Value: "wiki"}, {Type: store.HostCustom, Value: "wiki.example.org"}},
			Targets:   []store.Target{{Host: "fd00::5", Port: 3000}}, Enabled: true, Expiry: document.Expiry{Type: "never"}})
		d.Domains = append(d.Domains, document.Domain{Name: "lab", Domain: "lab.test", CertResolver: "le", Wildcard: true, HTTPSRedirect: true})
	})
	dry := f.plan(data, ImportOptions{})
	tests := []struct {
		kind, name string
		want       []string
	}{
		{KindService, "wiki", []string{"hostnames: wiki.example.com, wiki.example.org", "targets: http://[fd00::5]:3000",
			"entrypoints: the default entrypoints", "served over: HTTPS (the default entrypoints)", "redirect to HTTPS: as the domain says"}},
		{KindService, "app", []string{"targets: http://10.0.0.1:8080 → https://10.0.0.2:8443", "entrypoints: the default entrypoints → web, websecure",
			"served over: HTTPS (the default entrypoints) → HTTPS (websecure) and plain HTTP (web)"}},
		{KindDomain, "lab.test", []string{"certificates: resolver le, wildcard", "HTTPS: redirect to HTTPS"}},
		{KindService, "blog", nil},
	}
	for _, tc := range tests {
		it := find(dry, tc.kind, tc.name)
		if !slices.Equal(it.Details, tc.want) {
			t.Errorf("%s %s: details %q, want %q", tc.kind, tc.name, it.Details, tc.want)
		}
		if it.ID != "" {
			t.Errorf("%s %s: a dry run names row %s", tc.kind, tc.name, it.ID)
		}
	}
	applied, err := f.svc.Import(testCtx, data, ImportOptions{Apply: true, Digest: dry.Digest})
	f.must(err)
	var row store.Service
	f.must(f.db.Where("name = ?", "wiki").First(&row).Error)
	if it := find(applied, KindService, "wiki"); it.ID != row.ID {
		t.Fatalf("applied wiki: id %q, the row is %q", it.ID, row.ID)
	}
}
