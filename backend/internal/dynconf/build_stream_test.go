package dynconf

import (
	"bytes"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func stream(host string, port, weight int) store.Target {
	return store.Target{Scheme: "tcp", Host: host, Port: port, Weight: weight}
}

// TestBuildStreamGolden: the tcp and udp sections a set of services gives
// (testdata/build_stream_*.golden.json, regenerated with -update).
func TestBuildStreamGolden(t *testing.T) {
	pg := []store.Target{stream("10.0.0.5", 5432, 0)}
	tests := []struct {
		name string
		snap Snapshot
	}{
		{"tcp", Snapshot{Domains: []DomainSpec{example, wild}, Services: []ServiceSpec{
			{ID: "s1", Name: "Git SSH over TLS", Kind: store.KindTCP, Hosts: []string{"git.example.com", "code.example.com"},
				Entrypoints: []string{"websecure"}, Targets: []store.Target{stream("10.0.0.7", 443, 0), stream("fd00::7", 443, 0)},
				TCP: store.TCP{TLS: store.TLSPassthrough}},
			{ID: "s2", Name: "Database", Kind: store.KindTCP, Hosts: []string{"db.wild.test"}, Domain: &wild,
				Entrypoints: []string{"postgres"}, Targets: pg,
				TCP: store.TCP{TLS: store.TLSTerminate, AllowList: []string{"192.0.2.0/24", "2001:db8::/32"}, MaxConnections: 20}},
			{ID: "s3", Name: "Game", Kind: store.KindTCP, Entrypoints: []string{"game", "game-alt"},
				Targets: []store.Target{stream("10.0.0.8", 25565, 3), stream("10.0.0.9", 25565, 1)},
				TCP:     store.TCP{TLS: store.TLSNone, ProxyProtocol: 2}},
			{ID: "s4", Name: "Terminated catch-all", Kind: store.KindTCP, Entrypoints: []string{"imaps"}, Targets: pg,
				TCP: store.TCP{TLS: store.TLSTerminate, ProxyProtocol: 1}},
		}}},
		{"udp", Snapshot{Services: []ServiceSpec{
			{ID: "s1", Name: "DNS", Kind: store.KindUDP, Entrypoints: []string{"dns"},
				Targets: []store.Target{stream("10.0.0.53", 53, 0), stream("10.0.0.54", 53, 1)}},
			{ID: "s2", Name: "WireGuard", Kind: store.KindUDP, Entrypoints: []string{"wg"},
				Targets: []store.Target{stream("10.0.0.60", 51820, 2), stream("10.0.0.61", 51820, 1)}},
		}}},
		{"stream_left_out", Snapshot{Services: []ServiceSpec{
			{ID: "s1", Name: "backtick", Kind: store.KindTCP, Hosts: []string{"a`) || HostSNI(`*"}, Entrypoints: []string{"pg"},
				Targets: pg, TCP: store.TCP{TLS: store.TLSPassthrough}},
			{ID: "s2", Name: "range", Kind: store.KindTCP, Entrypoints: []string{"pg"}, Targets: pg,
				TCP: store.TCP{AllowList: []string{"10.0.0.0/8\n- 0.0.0.0/0"}}},
			{ID: "s3", Name: "protected", Kind: store.KindTCP, Entrypoints: []string{"pg"}, Targets: pg, Protected: true},
			{ID: "s4", Name: "sni without tls", Kind: store.KindTCP, Hosts: []string{"a.test"}, Entrypoints: []string{"pg"}, Targets: pg},
			{ID: "s5", Name: "no entrypoint", Kind: store.KindUDP, Targets: pg},
			{ID: "s6", Name: "bad target", Kind: store.KindUDP, Entrypoints: []string{"dns"}, Targets: []store.Target{stream("a b", 53, 0)}},
			{ID: "s7", Name: "ok", Kind: store.KindTCP, Entrypoints: []string{"pg"}, Targets: pg},
		}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := base(tc.snap)
			cfg, problems := BuildWithProblems(snap)
			golden(t, "build_"+tc.name, struct {
				Config   Config    `json:"config"`
				Problems []Problem `json:"problems"`
			}{cfg, problems})
			a, _ := Encode(Build(snap))
			b, _ := Encode(Build(snap))
			if !bytes.Equal(a, b) {
				t.Error("two builds of one snapshot differ")
			}
			if err := CheckConfig(cfg); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCheckSNIRule(t *testing.T) {
	for rule, ok := range map[string]bool{
		"HostSNI(`*`)":      true,
		"HostSNI(`a.test`)": true,
		"(HostSNI(`a.test`) || HostSNI(`b.test`))":    true,
		"HostSNI(`a.test`) || HostSNI(`*`)":           false,
		"(HostSNI(`a.test`) || HostSNI(`*`))":         false,
		"HostSNIRegexp(`.*`)":                         false,
		"HostSNI(`a.test`) && ClientIP(`10.0.0.0/8`)": false,
	} {
		if err := CheckSNIRule(rule); (err == nil) != ok {
			t.Errorf("CheckSNIRule(%q) = %v, want ok %v", rule, err, ok)
		}
	}
}
