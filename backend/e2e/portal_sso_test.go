//go:build e2e

package e2e

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
)

// TestPortalSignInWithProviderThroughTraefik: a service protected by
// people, through a real Traefik, sends a browser to the portal; there
// "Sign in with …" goes to a real OpenID provider (in this process), back
// to the portal's callback, which links the person by their verified
// address, gives them the provider's group, and the sign-in page's next
// step (the continue hop) opens the service with their identity.
func TestPortalSignInWithProviderThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	idp, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = idp.Shutdown() })
	p := harness.StartPanel(t, map[string]string{"PANEL_PORTAL_URL": "http://" + portalHost})
	files := t.TempDir()
	dyn := "http:\n  routers:\n    gatehouse-portal:\n      rule: Host(`" + portalHost + "`)\n" +
		"      entryPoints: [web]\n      service: gatehouse\n" +
		"  services:\n    gatehouse:\n      loadBalancer:\n        servers:\n          - url: \"" + p.URL + "\"\n"
	if err := os.WriteFile(filepath.Join(files, "portal.yml"), []byte(dyn), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config", FileDir: files})

	cfg := idp.Config()
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/sso", map[string]any{"enabled": true, "issuer": cfg.Issuer,
		"clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret, "scopes": []string{"openid", "email", "profile", "groups"}}, nil)
	var portal map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"], portal["providerSignIn"], portal["providerName"] = portalHost, true, "Example ID"
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)
	var family, ann struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "family"}, &family)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
		"username": "ann", "email": "ann@example.test", "displayName": "Ann", "panelRole": "none"}, &ann)
	accessService(t, p, harness.StartBackend(t, "a"), "a.example.test", map[string]any{"type": "people", "groups": []string{family.ID}})

	c := portalBrowser(t, tr)
	harness.Eventually(t, 30*time.Second, func() bool {
		a := fetch(t, c, "http://"+portalHost+"/api/portal", nil)
		return a.code == http.StatusOK && strings.Contains(a.body, `"provider":"Example ID"`)
	}, "the portal never offered the provider through Traefik")
	service := "http://a.example.test/photos?album=1"
	harness.Eventually(t, 30*time.Second, func() bool {
		return fetch(t, c, service, nil).code == http.StatusFound
	}, "the service never sent browsers to the portal")

	// The service sends the browser to the continue hop, which sends it to
	// the portal's sign-in page.
	a := fetch(t, c, service, nil)
	continueURL := "http://" + portalHost + forwardauth.PortalContinuePath + "?rd=" + url.QueryEscape(service)
	if a.code != http.StatusFound || a.location != continueURL {
		t.Fatalf("service = %d %q", a.code, a.location)
	}
	if a = fetch(t, c, continueURL, nil); a.code != http.StatusFound || !strings.HasPrefix(a.location, "http://"+portalHost+"/login?rd=") {
		t.Fatalf("continue signed out = %d %q", a.code, a.location)
	}
	// "Sign in with Example ID": the page's link carries rd.
	idp.QueueUser(&mockoidc.MockUser{Subject: "sub-ann", PreferredUsername: "annie", Email: "ann@example.test",
		EmailVerified: true, Groups: []string{"family", "unknown"}})
	began := time.Now()
	a = fetch(t, c, "http://"+portalHost+"/api/portal/sso/start?rd="+url.QueryEscape(continueURL), nil)
	auth, _ := url.Parse(a.location)
	if a.code != http.StatusFound || auth == nil || !strings.HasPrefix(a.location, cfg.Issuer) ||
		auth.Query().Get("redirect_uri") != "http://"+portalHost+"/api/portal/sso/callback" {
		t.Fatalf("start = %d %q", a.code, a.location)
	}
	// The provider signs ann in and sends the browser back to the portal.
	if a = fetch(t, c, a.location, nil); a.code != http.StatusFound || !strings.HasPrefix(a.location, "http://"+portalHost+"/api/portal/sso/callback?") {
		t.Fatalf("provider = %d %q", a.code, a.location)
	}
	a = fetch(t, c, a.location, nil)
	if a.code != http.StatusFound || a.location != "/login?rd="+url.QueryEscape(continueURL) {
		t.Fatalf("callback = %d %q %.300s", a.code, a.location, a.body)
	}
	// The sign-in page, signed in on arrival, goes on to rd.
	if a = fetch(t, c, "http://"+portalHost+"/api/admin/me", nil); a.code != http.StatusOK || !strings.Contains(a.body, `"username":"ann"`) {
		t.Fatalf("portal session = %d %.200s", a.code, a.body)
	}
	a, hops := follow(t, c, continueURL)
	t.Logf("from Sign in with the provider to the service's first answer: %v (the provider's round trip included; %d hops after the sign-in page)", time.Since(began), len(hops))
	if a.code != http.StatusOK || a.reply.Backend != "a" || a.reply.Headers["Remote-User"] != "ann" ||
		a.reply.Headers["Remote-Groups"] != "family" || a.reply.Headers["Remote-Email"] != "ann@example.test" {
		t.Fatalf("service after the provider sign-in = %d %+v (hops %v)", a.code, a.reply, hops)
	}
	var person struct {
		LinkedIdentities []struct{ Subject string } `json:"linkedIdentities"`
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/people/"+ann.ID, nil, &person)
	if len(person.LinkedIdentities) != 1 || person.LinkedIdentities[0].Subject != "sub-ann" {
		t.Fatalf("ann's linked identities: %+v", person)
	}
}
