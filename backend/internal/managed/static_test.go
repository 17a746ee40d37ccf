package managed

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.yaml")

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
			golden := filepath.Join("testdata", tt.name+".golden.yaml")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("static config differs from %s (run with -update and review the diff):\n%s", golden, got)
			}
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
