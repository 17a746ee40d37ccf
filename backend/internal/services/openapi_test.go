package services

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// TestHstsSchemaMatchesCheck: the document's Hsts, which the panel's forms read
// (npm run gen:api writes its limits into api-rules.ts), states the limits
// validate.HSTS applies.
func TestHstsSchemaMatchesCheck(t *testing.T) {
	raw, err := apiFragment.ReadFile("openapi_httpopts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type bound struct {
		Minimum *int  `yaml:"minimum"`
		Maximum *int  `yaml:"maximum"`
		Const   *bool `yaml:"const"`
	}
	var doc struct {
		Components struct {
			Schemas struct {
				Hsts struct {
					Properties map[string]bound `yaml:"properties"`
					If         struct {
						Required   []string         `yaml:"required"`
						Properties map[string]bound `yaml:"properties"`
					} `yaml:"if"`
					Then struct {
						Properties map[string]bound `yaml:"properties"`
					} `yaml:"then"`
				} `yaml:"Hsts"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Components.Schemas.Hsts
	if m := s.Properties["maxAge"]; m.Minimum == nil || *m.Minimum != 0 || m.Maximum == nil || *m.Maximum != validate.HSTSMaxAge {
		t.Errorf("maxAge bounds in the document %+v, validate.HSTS takes 0..%d", m, validate.HSTSMaxAge)
	}
	if p := s.If.Properties["preload"]; p.Const == nil || !*p.Const || len(s.If.Required) != 1 || s.If.Required[0] != "preload" {
		t.Errorf("the preload condition is %+v, want preload: true", s.If)
	}
	if m := s.Then.Properties["maxAge"]; m.Minimum == nil || *m.Minimum != validate.HSTSPreloadMinAge {
		t.Errorf("preload's maxAge minimum in the document %+v, validate.HSTS wants %d", m, validate.HSTSPreloadMinAge)
	}
	if i := s.Then.Properties["includeSubdomains"]; i.Const == nil || !*i.Const {
		t.Errorf("preload's includeSubdomains in the document %+v, validate.HSTS wants true", i)
	}
}
