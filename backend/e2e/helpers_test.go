//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// containsBackend reports whether body is a harness backend reply from name.
func containsBackend(body, name string) bool {
	var r harness.BackendReply
	return json.Unmarshal([]byte(body), &r) == nil && r.Backend == name
}

// startProvider starts an OpenID provider for the test and makes it the
// panel's (PUT /api/sso) with scopes; it stops when the test ends.
func startProvider(t *testing.T, p *harness.Panel, scopes ...string) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	cfg := m.Config()
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/sso", map[string]any{
		"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret,
		"scopes": scopes}, nil)
	return m
}
