package runtime

import (
	"reflect"
	"testing"
)

func TestParseHosts(t *testing.T) {
	tests := []struct {
		rule      string
		hosts     []string
		matches   []string
		unmatched []string
	}{
		{"Host(`grafana.example.test`)", []string{"grafana.example.test"}, []string{"GRAFANA.example.test"}, []string{"example.test"}},
		{"Host(`a.test`) || Host(`b.test`)", []string{"a.test", "b.test"}, []string{"b.test"}, nil},
		{`Host("quoted.test") && PathPrefix("/api")`, []string{"quoted.test"}, nil, nil},
		{"Host(`a.test`, `b.test`)", []string{"a.test", "b.test"}, nil, nil}, // v2 syntax
		{"(Host(`a.test`) && !Host(`b.test`))", []string{"a.test"}, nil, []string{"b.test"}},
		{"HostRegexp(`^.+\\.example\\.test$`)", nil, []string{"x.example.test"}, []string{"example.test"}},
		{"PathPrefix(`/Host(x.test)`)", nil, nil, []string{"x.test"}},
		{"HostSNI(`*`)", nil, []string{"anything.test"}, nil},
		{"HostSNI(`db.test`)", []string{"db.test"}, nil, nil},
		{"Host(`trailing.test.`)", []string{"trailing.test"}, nil, nil},
		{"PathPrefix(`/`)", nil, nil, []string{"a.test"}},
		{"Host(`unterminated", []string{"unterminated"}, nil, nil},
		{"", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			c := parseHosts(tt.rule)
			if !reflect.DeepEqual(c.hosts, tt.hosts) {
				t.Errorf("hosts = %q, want %q", c.hosts, tt.hosts)
			}
			for _, h := range append(tt.hosts, tt.matches...) {
				if !c.matches(h) {
					t.Errorf("does not match %q", h)
				}
			}
			for _, h := range tt.unmatched {
				if c.matches(h) {
					t.Errorf("matches %q", h)
				}
			}
		})
	}
}

func FuzzParseHosts(f *testing.F) {
	for _, s := range []string{"Host(`a.test`)", "HostRegexp(`[`)", "Host(\"a\\\"b\")", "!Host(`x`) || HostSNI(`*`)", "Host(`"} {
		f.Add(s)
	}
	f.Fuzz(func(_ *testing.T, rule string) {
		c := parseHosts(rule)
		_ = c.matches("example.test")
	})
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in     string
		ok     bool
		at37   bool
		parsed version
	}{
		{"3.6.12", true, false, version{3, 6}},
		{"v3.7.0-rc.1", true, true, version{3, 7}},
		{"3.10.1", true, true, version{3, 10}},
		{"4.0.0", true, true, version{4, 0}},
		{"dev", false, false, version{}},
		{"master", false, false, version{}},
	}
	for _, tt := range tests {
		v, ok := parseVersion(tt.in)
		if ok != tt.ok || v != tt.parsed || (ok && v.atLeast(3, 7) != tt.at37) {
			t.Errorf("parseVersion(%q) = %v %v", tt.in, v, ok)
		}
	}
}
