package traefikfile

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestStreamRoundTrip: every tcp and udp service read from streams.yml
// passes the panel's own checks, and Gatehouse emits for it a router on the
// file's entrypoints with the file's SNI names, TLS mode and servers.
func TestStreamRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/streams.yml")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, err := New().Read(data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sv := range doc.Services {
		if sv.Kind != store.KindTCP && sv.Kind != store.KindUDP {
			continue
		}
		n++
		t.Run(sv.Name, func(t *testing.T) {
			req := services.Request{Name: sv.Name, Hostnames: sv.Hostnames, Targets: sv.Targets, Entrypoints: sv.Entrypoints,
				Kind: sv.Kind, TCP: sv.TCP}
			if err := services.Check(&req); err != nil {
				t.Fatalf("the panel refuses it: %v", err)
			}
			spec := dynconf.ServiceSpec{ID: "s1", Name: req.Name, Kind: req.Kind, Targets: req.Targets,
				Entrypoints: req.Entrypoints, TCP: *req.TCP}
			for _, h := range req.Hostnames {
				spec.Hosts = append(spec.Hosts, h.Value)
			}
			cfg, problems := dynconf.BuildWithProblems(dynconf.Snapshot{Services: []dynconf.ServiceSpec{spec}})
			if len(problems) > 0 {
				t.Fatalf("left out: %v", problems)
			}
			if err := dynconf.CheckConfig(cfg); err != nil {
				t.Fatal(err)
			}
			if sv.Kind == store.KindUDP {
				if cfg.UDP == nil || len(cfg.UDP.Routers) != len(sv.Entrypoints) {
					t.Fatalf("udp section %+v", cfg.UDP)
				}
				return
			}
			for _, r := range cfg.TCP.Routers {
				for _, h := range spec.Hosts {
					if !strings.Contains(r.Rule, "HostSNI(`"+h+"`)") {
						t.Errorf("rule %s lacks %s", r.Rule, h)
					}
				}
				if len(spec.Hosts) == 0 && r.Rule != "HostSNI(`*`)" {
					t.Errorf("rule %s, want the catch-all", r.Rule)
				}
				if pass := r.TLS != nil && r.TLS.Passthrough; pass != (req.TCP.TLS == store.TLSPassthrough) {
					t.Errorf("passthrough %v for TLS mode %s", pass, req.TCP.TLS)
				}
				if !slices.Contains(sv.Entrypoints, r.EntryPoints[0]) {
					t.Errorf("router on %v, want one of %v", r.EntryPoints, sv.Entrypoints)
				}
			}
		})
	}
	if n != 5 {
		t.Fatalf("%d tcp and udp services read, want 5", n)
	}
}
