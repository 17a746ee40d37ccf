package managed

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestBuildStaticGolden(t *testing.T) {
	opts := StaticOptions{ProviderURL: "http://gatehouse:8080"}
	tests := []struct {
		name string
		cfg  func() Config
		opts StaticOptions
	}{
		{"defaults_without_email", func() Config { return Defaults("") }, opts},
		{"defaults", func() Config { return Defaults("ops@gatehouse.dev") }, opts},
		{"all_challenges", func() Config {
			c := Defaults("ops@gatehouse.dev")
			c.LogLevel = "DEBUG"
			c.Entrypoints = append(c.Entrypoints,
				Entrypoint{Name: "internal", Host: "10.0.0.1", Port: 8443, TLS: true, Resolver: "dns"},
				Entrypoint{Name: "local6", Host: "::1", Port: 8081},
			)
			c.Resolvers = append(c.Resolvers,
				Resolver{Name: "http", Email: "ops@gatehouse.dev", Challenge: ChallengeHTTP, HTTPEntrypoint: "web"},
				Resolver{Name: "dns", Email: "ops@gatehouse.dev", Challenge: ChallengeDNS, DNSProvider: "cloudflare",
					DNSResolvers: []string{"1.1.1.1", "8.8.8.8:53"}, PropagationDelaySeconds: 30},
				Resolver{Name: "inactive", Challenge: ChallengeTLSALPN},
			)
			return c
		}, StaticOptions{ProviderURL: "http://gatehouse:8080", APIAddress: "127.0.0.1:9000", ACMEDir: "/data/acme"}},
		{"replicas", func() Config { return Defaults("ops@gatehouse.dev") }, StaticOptions{
			ProviderURL: "http://127.0.0.1:8081", Replicas: []string{"http://gatehouse-a:8080", "http://gatehouse-b:8080"},
		}},
		{"replicas_elsewhere", func() Config { return Defaults("") }, StaticOptions{
			ProviderURL: "http://127.0.0.1:9081", Replicas: []string{"https://10.0.0.2:8443"},
			PanelAddress: "127.0.0.1:9081", ConfigDir: "/var/run/gh/",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cfg()
			got := BuildStatic(c, tt.opts)
			if again := BuildStatic(tt.cfg(), tt.opts); !bytes.Equal(got, again) {
				t.Fatal("BuildStatic is not deterministic")
			}
			var parsed map[string]any
			if err := yaml.Unmarshal(got, &parsed); err != nil {
				t.Fatalf("output is not YAML: %v", err)
			}
			testutil.Golden(t, filepath.Join("testdata", tt.name+".golden.yaml"), got)
		})
	}
}

func TestStaticDocumentCarriesItsHash(t *testing.T) {
	body := BuildStatic(Defaults(""), StaticOptions{ProviderURL: "http://gatehouse:8080"})
	doc, hash := StaticDocument(body)
	if hash != ContentHash(body) || len(hash) != 64 {
		t.Fatalf("hash %q is not the SHA-256 of the YAML", hash)
	}
	lines := strings.SplitN(string(doc), "\n", 3)
	if lines[1] != hashLinePrefix+hash || lines[2] != string(body) {
		t.Fatalf("document header = %q", lines[:2])
	}
	other, _ := StaticDocument(BuildStatic(Defaults(""), StaticOptions{ProviderURL: "http://other:8080"}))
	if bytes.Equal(doc, other) {
		t.Fatal("provider URL does not change the document")
	}
}
