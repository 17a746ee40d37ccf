package traefikfile

import (
	"os"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// FuzzRule: any rule either parses or is refused with an error, never a
// panic; a parsed rule renders back to a rule that parses to the same tree,
// and a representable one has valid parts.
func FuzzRule(f *testing.F) {
	for _, s := range []string{
		"Host(`a.test`)", "Host(\"a.test\") && PathPrefix(`/x`)", "(Host(`a`) || Host(`b`)) && !Method(`GET`)",
		"Header(`X`, `y`) && Query(`k`) && ClientIP(`10.0.0.0/8`)", "HostRegexp(`^.+$`) || PathRegexp(`[`)",
		"Host(`a`", "Host('a')", "Host(`a`) & Path(`/`)", "Host(\"a\\\"b\")", "QueryRegexp(`k`, `v.*`)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rule string) {
		e, err := parseRule(rule)
		if err != nil {
			if e != nil {
				t.Fatal("a tree with an error")
			}
			return
		}
		again, err := parseRule(e.String())
		if err != nil || again.String() != e.String() {
			t.Fatalf("%q -> %s -> %v, %v", rule, e, again, err)
		}
		hosts, rules, err := represent(e)
		if err != nil {
			return
		}
		for _, h := range hosts {
			if h == "" || strings.ContainsAny(h, "`\"() ") {
				t.Fatalf("host %q from %q", h, rule)
			}
		}
		for _, r := range rules {
			if strings.ContainsAny(r.Value+r.Name, "`\"\\") {
				t.Fatalf("rule %+v from %q", r, rule)
			}
		}
	})
}

// FuzzRead: any file is read or refused with an error, never a panic.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/homelab.yml", "testdata/shapes.yml", "testdata/homelab.toml", "testdata/streams.yml"} {
		b, err := os.ReadFile(p) //nolint:gosec // the test's own files
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("http:\n  routers:\n    a:\n      rule: Host(`a.test`)\n      service: s\n"))
	f.Add([]byte("[http.routers.a]\nrule = \"Host(`a.test`)\"\nservice = \"s\"\n"))
	f.Add([]byte(`{"http":{"routers":{"a":{"rule":"Host(` + "`a`" + `)","service":"s"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, skipped, err := New().Read(data)
		if err != nil {
			return
		}
		for _, s := range skipped {
			if s.Source == "" || s.Reason == "" {
				t.Fatalf("empty skipped entry %+v", s)
			}
		}
		for _, sv := range doc.Services {
			if sv.Kind == store.KindTCP || sv.Kind == store.KindUDP {
				// What the reader makes of a tcp or udp router, the panel accepts.
				req := services.Request{Name: sv.Name, Hostnames: sv.Hostnames, Targets: sv.Targets,
					Entrypoints: sv.Entrypoints, Kind: sv.Kind, TCP: sv.TCP}
				if err := services.Check(&req); err != nil && strings.TrimSpace(sv.Name) != "" {
					t.Fatalf("the panel refuses %+v: %v", sv, err)
				}
				continue
			}
			if len(sv.Hostnames) == 0 || sv.Name == "" {
				t.Fatalf("service without a name or host: %+v", sv)
			}
		}
	})
}
