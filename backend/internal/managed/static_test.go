package managed

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
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
		{"stream_entrypoints", func() Config {
			c := Defaults("ops@gatehouse.dev")
			c.Entrypoints = append(c.Entrypoints,
				Entrypoint{Name: "postgres", Port: 5432, Protocol: ProtocolTCP},
				Entrypoint{Name: "dns-tcp", Port: 53, Protocol: ProtocolTCP},
				Entrypoint{Name: "dns", Port: 53, Protocol: ProtocolUDP},
				Entrypoint{Name: "wg", Host: "::", Port: 51820, Protocol: ProtocolUDP},
			)
			if err := c.Validate(8080); err != nil {
				t.Fatal(err)
			}
			return c
		}, opts},
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

// TestStreamEntrypointValidation: a tcp or udp entrypoint has no TLS or
// redirect of its own, UDP may share a TCP entrypoint's port number but not
// another UDP one's, and an HTTP entrypoint cannot redirect to one.
func TestStreamEntrypointValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		eps   []Entrypoint
		field string
	}{
		{"tls", []Entrypoint{{Name: "pg", Port: 5432, Protocol: "tcp", TLS: true}}, "entrypoints[2].tls"},
		{"redirect", []Entrypoint{{Name: "pg", Port: 5432, Protocol: "udp", RedirectTo: "web"}}, "entrypoints[2].redirectTo"},
		{"unknown", []Entrypoint{{Name: "pg", Port: 5432, Protocol: "sctp"}}, "entrypoints[2].protocol"},
		{"udp port twice", []Entrypoint{{Name: "a", Port: 53, Protocol: "udp"}, {Name: "b", Port: 53, Protocol: "udp"}}, "entrypoints[3].port"},
		{"tcp on 443", []Entrypoint{{Name: "a", Port: 443, Protocol: "tcp"}}, "entrypoints[2].port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Defaults("")
			c.Entrypoints = append(c.Entrypoints, tc.eps...)
			err := c.Validate(8080)
			if err == nil || !strings.Contains(fmt.Sprint(err), tc.field) && !hasField(err, tc.field) {
				t.Fatalf("got %v, want an error on %s", err, tc.field)
			}
		})
	}
	c := Defaults("")
	c.Entrypoints = append(c.Entrypoints, Entrypoint{Name: "dns", Port: 443, Protocol: "UDP"}, Entrypoint{Name: "h", Port: 8081, Protocol: "http"})
	if err := c.Validate(8080); err != nil {
		t.Fatal(err)
	}
	if c.Entrypoints[2].Protocol != ProtocolUDP || c.Entrypoints[3].Protocol != ProtocolHTTP {
		t.Fatalf("protocols normalized to %q, %q", c.Entrypoints[2].Protocol, c.Entrypoints[3].Protocol)
	}
}

func hasField(err error, field string) bool {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return false
	}
	for _, f := range e.Fields {
		if f.Field == field {
			return true
		}
	}
	return false
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
