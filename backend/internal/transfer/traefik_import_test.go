package transfer

import (
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/traefikfile"
)

// TestTraefikImportWarnings: what a plan says about a Traefik file is true
// of this panel. A router's certificate resolver is reported lost only when
// no base domain asks that resolver for its hosts (regression: the warning
// appeared while example.com, resolver le, covered the hosts), and a
// router without TLS stays plain HTTP, said in its details (regression: it
// landed on the default entrypoints and was served over HTTPS).
func TestTraefikImportWarnings(t *testing.T) {
	f := newFixture(t, traefikfile.New())
	f.seed() // example.com, certificate resolver le
	file := []byte(`http:
  routers:
    covered:
      rule: Host(` + "`new.example.com`" + `)
      entryPoints: [websecure]
      service: s
      tls:
        certResolver: le
    elsewhere:
      rule: Host(` + "`x.example.org`" + `)
      entryPoints: [websecure]
      service: s
      tls:
        certResolver: le
    other-resolver:
      rule: Host(` + "`m.example.com`" + `)
      entryPoints: [websecure]
      service: s
      tls:
        certResolver: dns
    plain:
      rule: Host(` + "`plain.example.net`" + `)
      service: s
    no-tls-secure:
      rule: Host(` + "`legacy.example.net`" + `)
      entryPoints: [websecure]
      service: s
  services:
    s:
      loadBalancer:
        servers:
          - url: http://10.0.0.9:80
`)
	pl := f.plan(file, ImportOptions{Format: "traefik"})
	reasons := map[string][]string{}
	for _, sk := range pl.Skipped {
		reasons[sk.Source] = append(reasons[sk.Source], sk.Reason)
	}
	has := func(router, part string) bool {
		return slices.ContainsFunc(reasons["router "+router], func(r string) bool { return strings.Contains(r, part) })
	}
	if rs := reasons["router covered"]; len(rs) != 0 {
		t.Errorf("covered: the hosts sit under example.com, which asks resolver le: nothing is lost, got %q", rs)
	}
	if !has("elsewhere", `add the domain with resolver "le"`) {
		t.Errorf("elsewhere: no base domain holds x.example.org: want the resolver note, got %q", reasons["router elsewhere"])
	}
	if !has("other-resolver", `whose certificates come from resolver "le" instead`) {
		t.Errorf("other-resolver: want the other resolver named, got %q", reasons["router other-resolver"])
	}
	if !has("plain", `imported on the plain entrypoint "web"`) {
		t.Errorf("plain: want the plain-HTTP note, got %q", reasons["router plain"])
	}
	if !has("no-tls-secure", `has no tls section but listens on entrypoint "websecure"`) {
		t.Errorf("no-tls-secure: want the TLS warning, got %q", reasons["router no-tls-secure"])
	}
	for name, want := range map[string]string{
		"plain":         "served over: plain HTTP only (web)",
		"no-tls-secure": "served over: HTTPS (websecure)",
		"covered":       "served over: HTTPS (websecure)",
	} {
		if it := find(pl, KindService, name); !slices.Contains(it.Details, want) {
			t.Errorf("%s: details %q, want %q", name, it.Details, want)
		}
	}
}

func TestCoveringDomain(t *testing.T) {
	ds := []baseDomain{{"example.com", "le"}, {"lab.example.com", "dns"}, {"example.org", ""}}
	tests := []struct {
		hosts []string
		want  string
	}{
		{[]string{"a.example.com"}, "example.com"},
		{[]string{"EXAMPLE.com", "b.example.com"}, "example.com"},
		{[]string{"x.lab.example.com"}, "lab.example.com"},
		{[]string{"a.example.com", "x.lab.example.com"}, ""},
		{[]string{"a.example.com", "a.example.org"}, ""},
		{[]string{"notexample.com"}, ""},
		{nil, ""},
	}
	for _, tc := range tests {
		d, ok := coveringDomain(ds, tc.hosts)
		if d.host != tc.want || ok != (tc.want != "") {
			t.Errorf("coveringDomain(%q) = %q %v, want %q", tc.hosts, d.host, ok, tc.want)
		}
	}
}
