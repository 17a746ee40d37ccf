package status_test

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/status"
)

// traefikStatic is the part of Traefik's static configuration the guide
// must hold.
type traefikStatic struct {
	EntryPoints map[string]struct {
		Address string `yaml:"address"`
		HTTP    struct {
			TLS *struct{} `yaml:"tls"`
		} `yaml:"http"`
	} `yaml:"entryPoints"`
	Providers struct {
		HTTP struct {
			Endpoint string            `yaml:"endpoint"`
			Headers  map[string]string `yaml:"headers"`
		} `yaml:"http"`
	} `yaml:"providers"`
	API struct {
		Insecure bool `yaml:"insecure"`
	} `yaml:"api"`
	Metrics struct {
		Prometheus *struct {
			AddServicesLabels bool `yaml:"addServicesLabels"`
		} `yaml:"prometheus"`
	} `yaml:"metrics"`
}

// TestSetups: both variants are complete traefik.yml files (entrypoints,
// the HTTP provider at the address Traefik sees, the API, Prometheus
// metrics); the Docker variant never points Traefik at a loopback address
// and warns about each one; the host variant moves Traefik's API off the
// panel's port.
func TestSetups(t *testing.T) {
	tests := []struct {
		name                   string
		in                     status.SetupInput
		dockerURL, hostURL     string
		dockerEnv, hostEnv     []string // lines Env must hold
		dockerWarns, hostWarns []string // substrings, one warning each
		hostAPI                string
	}{
		{"defaults", status.SetupInput{Bound: "127.0.0.1:8080"},
			"http://gatehouse:8080", "http://127.0.0.1:8080",
			[]string{"PANEL_INTERNAL_URL=http://gatehouse:8080", "PANEL_LISTEN=0.0.0.0:8080", "PANEL_PROXY_API_URL=http://traefik:8080"},
			[]string{"PANEL_INTERNAL_URL=http://127.0.0.1:8080", "PANEL_PROXY_API_URL=http://127.0.0.1:8081"},
			[]string{"PANEL_INTERNAL_URL is not set", "listens on 127.0.0.1:8080"}, nil, "127.0.0.1:8081"},
		{"loopback internal URL", status.SetupInput{Internal: "http://localhost:9000", Bound: "0.0.0.0:9000"},
			"http://gatehouse:9000", "http://localhost:9000",
			[]string{"PANEL_INTERNAL_URL=http://gatehouse:9000"}, []string{"PANEL_PROXY_API_URL=http://127.0.0.1:8080"},
			[]string{"a loopback address"}, nil, "127.0.0.1:8080"},
		{"container address", status.SetupInput{Internal: "http://gatehouse:8080", Bound: "0.0.0.0:8080", TokenSet: true},
			"http://gatehouse:8080", "http://gatehouse:8080",
			[]string{"PANEL_PROXY_API_URL=http://traefik:8080"}, []string{"PANEL_PROXY_API_URL=http://127.0.0.1:8081"},
			nil, nil, "127.0.0.1:8081"},
		{"not bound yet", status.SetupInput{},
			"http://gatehouse:8080", "http://127.0.0.1:8080", nil, nil,
			[]string{"PANEL_INTERNAL_URL is not set", "listens on 127.0.0.1:8080"}, nil, "127.0.0.1:8081"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := status.Setups(tc.in)
			if len(got) != 2 || got[0].Variant != status.SetupDocker || got[1].Variant != status.SetupHost {
				t.Fatalf("variants = %+v", got)
			}
			for i, want := range []struct {
				url   string
				env   []string
				warns []string
			}{{tc.dockerURL, tc.dockerEnv, tc.dockerWarns}, {tc.hostURL, tc.hostEnv, tc.hostWarns}} {
				s := got[i]
				var doc traefikStatic
				if err := yaml.Unmarshal([]byte(s.TraefikYML), &doc); err != nil {
					t.Fatalf("%s: %v\n%s", s.Variant, err, s.TraefikYML)
				}
				if s.ProviderURL != want.url || doc.Providers.HTTP.Endpoint != want.url+"/api/proxy/config" {
					t.Errorf("%s: provider %q, endpoint %q, want %q", s.Variant, s.ProviderURL, doc.Providers.HTTP.Endpoint, want.url)
				}
				if doc.EntryPoints["web"].Address != ":80" || doc.EntryPoints["websecure"].Address != ":443" {
					t.Errorf("%s: entrypoints %+v", s.Variant, doc.EntryPoints)
				}
				// Regression: websecure said it served TLS only through its port, so
				// moved off 443 the panel (reading Traefik's entrypoints) gave its
				// routers no TLS and HTTPS answered 404.
				if doc.EntryPoints["websecure"].HTTP.TLS == nil || doc.EntryPoints["web"].HTTP.TLS != nil {
					t.Errorf("%s: websecure must declare http.tls, web must not:\n%s", s.Variant, s.TraefikYML)
				}
				if !doc.API.Insecure || doc.Metrics.Prometheus == nil || !doc.Metrics.Prometheus.AddServicesLabels {
					t.Errorf("%s: api %+v, metrics %+v", s.Variant, doc.API, doc.Metrics)
				}
				if (len(doc.Providers.HTTP.Headers) == 1) != tc.in.TokenSet {
					t.Errorf("%s: headers %v with token %v", s.Variant, doc.Providers.HTTP.Headers, tc.in.TokenSet)
				}
				if strings.Contains(s.TraefikYML, "127.0.0.1:8080/api/proxy/config") && i == 0 {
					t.Errorf("docker variant points Traefik at loopback:\n%s", s.TraefikYML)
				}
				for _, line := range want.env {
					if !strings.Contains("\n"+s.Env, "\n"+line+"\n") {
						t.Errorf("%s: env %q lacks %q", s.Variant, s.Env, line)
					}
				}
				if len(s.Warnings) != len(want.warns) {
					t.Fatalf("%s: warnings %q, want %d", s.Variant, s.Warnings, len(want.warns))
				}
				for j, w := range want.warns {
					if !strings.Contains(s.Warnings[j], w) {
						t.Errorf("%s: warning %q lacks %q", s.Variant, s.Warnings[j], w)
					}
				}
			}
			var host traefikStatic
			_ = yaml.Unmarshal([]byte(got[1].TraefikYML), &host)
			if host.EntryPoints["traefik"].Address != tc.hostAPI {
				t.Errorf("host variant: traefik entrypoint %q, want %q", host.EntryPoints["traefik"].Address, tc.hostAPI)
			}
		})
	}
}

func TestAgo(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{{-3, "just now"}, {0, "just now"}, {4.4, "just now"}, {12, "12 seconds ago"}, {150, "3 minutes ago"}, {7300, "2 hours ago"}} {
		if got := status.Ago(tc.s); got != tc.want {
			t.Errorf("Ago(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
