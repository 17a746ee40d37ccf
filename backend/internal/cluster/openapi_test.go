package cluster

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestOpenAPIFragment checks the fragment parses and describes the route
// Register mounts, with the engines the handler answers.
func TestOpenAPIFragment(t *testing.T) {
	b, err := apiFragment.ReadFile("openapi_cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Paths["/api/cluster"]["get"]; !ok {
		t.Fatal("GET /api/cluster is not described")
	}
	if enum := "enum: [" + EngineSQLite + ", " + EnginePostgres + "]"; !strings.Contains(string(b), enum) {
		t.Fatalf("the fragment's engines differ from the handler's (want %s)", enum)
	}
}
