package managed

import (
	"regexp"
	"slices"
	"sort"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestCredentialNameSchemaMatchesCheckName: the document's CredentialName, which
// the panel's form reads, states the rules CheckName applies.
func TestCredentialNameSchemaMatchesCheckName(t *testing.T) {
	raw, err := apiFragment.ReadFile("openapi_managed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				CredentialName struct {
					MaxLength int    `yaml:"maxLength"`
					Pattern   string `yaml:"pattern"`
					Not       struct {
						AnyOf []struct {
							Enum    []string `yaml:"enum"`
							Pattern string   `yaml:"pattern"`
						} `yaml:"anyOf"`
					} `yaml:"not"`
				} `yaml:"CredentialName"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Components.Schemas.CredentialName
	if s.MaxLength != maxNameLen || s.Pattern != envNameRE.String() || len(s.Not.AnyOf) != 2 {
		t.Fatalf("CredentialName = %+v", s)
	}
	names := make([]string, 0, len(reservedNames))
	for n := range reservedNames {
		names = append(names, n)
	}
	sort.Strings(names)
	enum := slices.Clone(s.Not.AnyOf[0].Enum)
	sort.Strings(enum)
	if !slices.Equal(enum, names) {
		t.Errorf("reserved names in the document %v, CheckName refuses %v", enum, names)
	}
	if want := reservedRE.String(); s.Not.AnyOf[1].Pattern != want {
		t.Errorf("reserved prefixes in the document %q, want %q", s.Not.AnyOf[1].Pattern, want)
	}
	// Each name the document refuses, CheckName refuses, and the other way round.
	prefix := regexp.MustCompile(s.Not.AnyOf[1].Pattern)
	for _, n := range []string{"PATH", "LD_PRELOAD", "TRAEFIK_LOG", "GATEHOUSE_X", "CF_DNS_API_TOKEN", "AWS_REGION", "lower", "1ABC",
		"HTTPS_PROXY", "SSL_CERT_DIR", "GODEBUG", "GOMAXPROCS", "GODADDY_API_KEY", "LEGO_CA_CERTIFICATES", "NAMECHEAP_HTTP_PROXY"} {
		docOK := regexp.MustCompile(s.Pattern).MatchString(n) && !slices.Contains(enum, n) && !prefix.MatchString(n)
		if goOK := CheckName(n) == nil; goOK != docOK {
			t.Errorf("%s: CheckName ok=%v, document ok=%v", n, goOK, docOK)
		}
	}
}
