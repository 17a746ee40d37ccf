package managed

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"filippo.io/age"
	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const testProviderToken = "provider-token-0123456789abcdef0123456789abcdef"

// TestStaticCarriesProviderToken: the HTTP provider sends the token as a
// bearer Authorization header (golden), and only when one is set.
func TestStaticCarriesProviderToken(t *testing.T) {
	got := BuildStatic(Defaults("ops@gatehouse.dev"), StaticOptions{ProviderURL: "http://gatehouse:8080", ProviderToken: testProviderToken})
	testutil.Golden(t, filepath.Join("testdata", "provider_token.golden.yaml"), got)
	var doc struct {
		Providers struct {
			HTTP struct {
				Headers map[string]string `yaml:"headers"`
			} `yaml:"http"`
		} `yaml:"providers"`
	}
	if err := yaml.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	if h := doc.Providers.HTTP.Headers; len(h) != 1 || h["Authorization"] != "Bearer "+testProviderToken {
		t.Fatalf("headers = %v", h)
	}
	if without := BuildStatic(Defaults("ops@gatehouse.dev"), StaticOptions{ProviderURL: "http://gatehouse:8080"}); strings.Contains(string(without), "headers") {
		t.Fatalf("headers without a token:\n%s", without)
	}
}

// TestProviderTokenIsSharedAndOpaque: every replica (same identity) derives
// the same token, another identity another one, and the token is not the
// identity and fits PANEL_PROVIDER_TOKEN's syntax.
func TestProviderTokenIsSharedAndOpaque(t *testing.T) {
	id, other := newIdentity(t), newIdentity(t)
	token := func(id *age.X25519Identity) string {
		t.Helper()
		s, err := ProviderToken(id)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := token(id), token(id)
	if a != b || a == token(other) {
		t.Fatalf("tokens: %q %q %q", a, b, token(other))
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(a) || strings.Contains(id.String(), a) {
		t.Fatalf("token %q", a)
	}
}

// TestStaticConfigWithProviderTokenIsWrapperOnly: once the static
// configuration carries the provider token, only the wrapper token reads
// it; the token never reaches the log or the state answer.
func TestStaticConfigWithProviderTokenIsWrapperOnly(t *testing.T) {
	e := newHandlerEnv(t, true, testToken, func(o *Deps) { o.Static.ProviderToken = testProviderToken })
	for _, hdr := range [][]string{nil, {"Authorization", "Bearer wrong"}, {"Authorization", "Bearer " + testProviderToken}} {
		rec := e.do("GET", "/api/proxy/static-config", "", hdr...)
		if rec.Code != 401 || strings.Contains(rec.Body.String(), testProviderToken) {
			t.Fatalf("static-config with %v = %d %s", hdr, rec.Code, rec.Body)
		}
	}
	rec := e.do("GET", "/api/proxy/static-config", "", "Authorization", "Bearer "+testToken)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Authorization: Bearer "+testProviderToken) {
		t.Fatalf("static-config for the wrapper = %d %s", rec.Code, rec.Body)
	}
	if rec := e.do("GET", "/api/proxy/managed", ""); rec.Code != 200 || strings.Contains(rec.Body.String(), testProviderToken) {
		t.Fatalf("managed state = %d %s", rec.Code, rec.Body)
	}
	if strings.Contains(e.logs.String(), testProviderToken) {
		t.Fatalf("the provider token is in the log:\n%s", e.logs)
	}
	// Without a configured wrapper token nothing reads it (fail closed).
	closed := newHandlerEnv(t, true, "", func(o *Deps) { o.Static.ProviderToken = testProviderToken })
	if rec := closed.do("GET", "/api/proxy/static-config", ""); rec.Code == 200 || strings.Contains(rec.Body.String(), testProviderToken) {
		t.Fatalf("static-config without a wrapper token = %d %s", rec.Code, rec.Body)
	}
}
