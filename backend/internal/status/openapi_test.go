package status

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestOpenAPIFragment checks the fragment parses and describes the route
// Register mounts, with every state the service answers.
func TestOpenAPIFragment(t *testing.T) {
	b, err := apiFragment.ReadFile("openapi_status.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths      map[string]map[string]any `yaml:"paths"`
		Components struct {
			Schemas map[string]any `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Paths["/api/proxy/status"]["get"]; !ok {
		t.Fatal("GET /api/proxy/status is not described")
	}
	if _, ok := doc.Components.Schemas["ProxyStatusView"]; !ok {
		t.Fatal("the ProxyStatusView schema is missing")
	}
	const enum = "enum: [live, waiting, error, unknown]"
	if !strings.Contains(string(b), enum) || strings.Join([]string{Live, Waiting, Error, Unknown}, ", ") != "live, waiting, error, unknown" {
		t.Fatalf("the fragment's states differ from the service's (want %s)", enum)
	}
}
