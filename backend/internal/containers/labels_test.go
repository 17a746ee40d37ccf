package containers

import (
	"strings"
	"testing"
)

func TestParseLabels(t *testing.T) {
	presets := []string{"lan-bypass"}
	tests := []struct {
		name   string
		labels map[string]string
		want   Spec
		errs   []string // labels refused, in order
	}{
		{name: "minimal", labels: map[string]string{LabelEnable: "true", LabelHostname: "App.Example.com"},
			want: Spec{Name: "web", Hostnames: []string{"app.example.com"}, Scheme: "http", Protection: ProtectionNone}},
		{name: "everything", labels: map[string]string{LabelEnable: "1", LabelName: "Wiki", LabelHostname: "a.example.com, b.example.com,a.example.com",
			LabelPort: "3000", LabelNetwork: "proxy_net", LabelScheme: "HTTPS", LabelEntrypoints: "web,websecure",
			LabelProtection: "people", LabelAccessPreset: "lan-bypass"},
			want: Spec{Name: "Wiki", Hostnames: []string{"a.example.com", "b.example.com"}, Port: 3000, Network: "proxy_net",
				Scheme: "https", Entrypoints: []string{"web", "websecure"}, Protection: ProtectionPeople, AccessPreset: "lan-bypass"}},
		{name: "no hostname", labels: map[string]string{LabelEnable: "true"}, errs: []string{LabelHostname}},
		{name: "bad values", labels: map[string]string{LabelEnable: "yes please", LabelHostname: "not a host", LabelPort: "70000",
			LabelNetwork: "a/b", LabelScheme: "ftp", LabelEntrypoints: "we b", LabelProtection: "basic", LabelAccessPreset: "nope"},
			errs: []string{LabelEnable, LabelHostname, LabelPort, LabelEntrypoints, LabelNetwork, LabelScheme, LabelProtection, LabelAccessPreset}},
		{name: "unknown label", labels: map[string]string{LabelEnable: "true", LabelHostname: "a.example.com", "gatehouse.hostnmae": "x"},
			errs: []string{"gatehouse.hostnmae"}},
		{name: "too long", labels: map[string]string{LabelEnable: "true", LabelHostname: strings.Repeat("a", 2000)},
			errs: []string{LabelHostname}},
		{name: "wildcard refused", labels: map[string]string{LabelEnable: "true", LabelHostname: "*.example.com"},
			errs: []string{LabelHostname}},
		{name: "other tools' labels ignored", labels: map[string]string{LabelEnable: "true", LabelHostname: "a.example.com",
			"traefik.enable": "true", "com.docker.compose.service": "web"},
			want: Spec{Name: "web", Hostnames: []string{"a.example.com"}, Scheme: "http", Protection: ProtectionNone}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := ParseLabels("web", tc.labels, presets)
			var labels []string
			for _, e := range errs {
				labels = append(labels, e.Label)
				if e.Message == "" {
					t.Errorf("%s refused without a reason", e.Label)
				}
			}
			if strings.Join(labels, " ") != strings.Join(tc.errs, " ") {
				t.Fatalf("refused %v (%+v), want %v", labels, errs, tc.errs)
			}
			if len(tc.errs) > 0 {
				return
			}
			if got.Digest == "" {
				t.Error("no digest")
			}
			got.Digest = ""
			if g, w := strings.Join(got.Hostnames, ","), strings.Join(tc.want.Hostnames, ","); g != w {
				t.Errorf("hostnames %s, want %s", g, w)
			}
			if g, w := strings.Join(got.Entrypoints, ","), strings.Join(tc.want.Entrypoints, ","); g != w {
				t.Errorf("entrypoints %s, want %s", g, w)
			}
			got.Hostnames, tc.want.Hostnames, got.Entrypoints, tc.want.Entrypoints = nil, nil, nil, nil
			if got.Name != tc.want.Name || got.Port != tc.want.Port || got.Network != tc.want.Network || got.Scheme != tc.want.Scheme ||
				got.Protection != tc.want.Protection || got.AccessPreset != tc.want.AccessPreset {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDigestFollowsValues(t *testing.T) {
	a, _ := ParseLabels("web", map[string]string{LabelEnable: "true", LabelHostname: "a.example.com"}, nil)
	b, _ := ParseLabels("web", map[string]string{LabelEnable: "true", LabelHostname: "b.example.com"}, nil)
	c, _ := ParseLabels("web", map[string]string{LabelEnable: "true", LabelHostname: "a.example.com", "other": "x"}, nil)
	if a.Digest == b.Digest || a.Digest != c.Digest {
		t.Fatalf("digests %s %s %s", a.Digest, b.Digest, c.Digest)
	}
}

func TestDeclared(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "1": true, " TRUE ": true, "false": false, "": false, "yes": false} {
		if got := Declared(map[string]string{LabelEnable: v}); got != want {
			t.Errorf("Declared(%q) = %v", v, got)
		}
	}
	if Declared(map[string]string{}) {
		t.Error("no label declared a service")
	}
}

// FuzzParseLabels: any label values give a spec whose every value passed
// its check, or errors naming labels; never a panic.
func FuzzParseLabels(f *testing.F) {
	f.Add("true", "a.example.com", "8080", "net", "http", "none", "")
	f.Add("1", "a.example.com,b.example.com", "0", "", "h2c", "people", "lan-bypass")
	f.Add("true", "\xff", "-1", "a b", "x", "y", "z")
	f.Fuzz(func(t *testing.T, enable, host, port, network, scheme, protection, preset string) {
		labels := map[string]string{LabelEnable: enable, LabelHostname: host, LabelPort: port, LabelNetwork: network,
			LabelScheme: scheme, LabelProtection: protection, LabelAccessPreset: preset}
		s, errs := ParseLabels("c", labels, []string{"lan-bypass"})
		if len(errs) > 0 {
			for _, e := range errs {
				if !strings.HasPrefix(e.Label, LabelPrefix) || e.Message == "" {
					t.Fatalf("bad error %+v", e)
				}
			}
			return
		}
		if len(s.Hostnames) == 0 || len(s.Hostnames) > maxHostnames || s.Port < 0 || s.Port > 65535 || s.Digest == "" {
			t.Fatalf("accepted %+v", s)
		}
		for _, h := range s.Hostnames {
			if strings.ContainsAny(h, " ,`\"") || len(h) > 253 {
				t.Fatalf("accepted hostname %q", h)
			}
		}
	})
}

// TestItemLabelErrorsOnce: a container whose labels are refused as written
// shows each refusal once, though the leader's last pass found them too
// (regression: they were listed twice after the first reconciliation).
func TestItemLabelErrorsOnce(t *testing.T) {
	s := NewService(Deps{})
	c := Container{Name: "broken", Labels: map[string]string{LabelEnable: "true", LabelHostname: "not a host", LabelPort: "99999"}}
	_, parsed := ParseLabels(c.Name, c.Labels, nil)
	it := s.item(c, nil, parsed)
	if len(it.LabelErrors) != 2 || !it.Declared {
		t.Fatalf("label errors %+v", it.LabelErrors)
	}
	ok := Container{Name: "ok", Labels: map[string]string{LabelEnable: "true", LabelHostname: "a.example.com"}}
	applied := []LabelError{{Label: "gatehouse.*", Message: "hostnames[0]: a.example.com is already used by service \"x\""}}
	if it := s.item(ok, nil, applied); len(it.LabelErrors) != 1 || it.LabelErrors[0] != applied[0] {
		t.Fatalf("apply errors %+v", it.LabelErrors)
	}
}
