package status_test

import (
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/status"
)

// TestSnippetIsTraefikYAML: both snippets parse as Traefik's static
// configuration; with a provider token the HTTP provider sends the
// Authorization header (a placeholder, never a value); without one the
// snippet says the endpoint is open.
func TestSnippetIsTraefikYAML(t *testing.T) {
	for _, tokenSet := range []bool{false, true} {
		s := status.Snippet("http://10.0.0.2:8080", 5*time.Second, tokenSet)
		var doc struct {
			Providers struct {
				HTTP struct {
					Endpoint     string            `yaml:"endpoint"`
					PollInterval string            `yaml:"pollInterval"`
					Headers      map[string]string `yaml:"headers"`
				} `yaml:"http"`
			} `yaml:"providers"`
		}
		if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatalf("tokenSet=%v: %v\n%s", tokenSet, err, s)
		}
		h := doc.Providers.HTTP
		if h.Endpoint != "http://10.0.0.2:8080/api/proxy/config" || h.PollInterval != "5s" {
			t.Fatalf("tokenSet=%v: %+v", tokenSet, h)
		}
		if tokenSet {
			if len(h.Headers) != 1 || !strings.HasPrefix(h.Headers["Authorization"], "Bearer <") {
				t.Fatalf("with a token: headers %v", h.Headers)
			}
		} else if len(h.Headers) != 0 || !strings.Contains(s, "Open to anyone") {
			t.Fatalf("without a token:\n%s", s)
		}
	}
}
