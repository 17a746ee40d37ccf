//go:build e2e

package e2e

import (
	"encoding/base64"
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
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// TestUpgradeFromPreviousRelease: the previous release's binary
// (harness.PreviousRelease, built from this repository's history) makes a
// panel the way its admin would, through its API: a credential set and a
// basic-auth service, a shared link and a session redeemed from another,
// and services behind single sign-on with allow-lists. It stops as a
// service manager stops it, and the current code starts on the same data
// directory: the administrator signs in, and through a real Traefik every
// service answers as before.
func TestUpgradeFromPreviousRelease(t *testing.T) {
	harness.TraefikBin(t)
	previous := harness.BuildPreviousRelease(t)
	dir := t.TempDir()
	be := harness.StartBackend(t, "upgraded")

	old := harness.StartReplica(t, previous, "previous", map[string]string{"PANEL_DATA_DIR": dir})
	idp, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = idp.Shutdown() })
	cfg := idp.Config()
	old.MustJSON(t, http.StatusOK, http.MethodPut, "/api/sso", map[string]any{"enabled": true, "issuer": cfg.Issuer,
		"clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret, "scopes": []string{"openid", "email", "profile", "groups"}}, nil)
	ssoAnn := accessService(t, old.Panel, be, "sso-ann.example.test", map[string]any{"type": "sso", "users": []string{"ann@example.test"}})
	accessService(t, old.Panel, be, "sso-bob.example.test", map[string]any{"type": "sso", "users": []string{"bob@example.test"}})
	var set struct{ ID string }
	old.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "family", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	accessService(t, old.Panel, be, "basic.upgrade.access.test", map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	linkSvc := accessService(t, old.Panel, be, "link.upgrade.access.test", map[string]any{"type": "shared_links"})
	var link, redeemed struct{ URL string }
	for _, l := range []*struct{ URL string }{&link, &redeemed} {
		old.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+linkSvc+"/shared-links",
			map[string]any{"lifetimeSeconds": 3600, "sessionSeconds": 3600}, l)
	}
	ru, err := url.Parse(redeemed.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, session := verifyAtWith(t, old.URL, linkSvc, "link.upgrade.access.test", ru.RequestURI(), pressed("link.upgrade.access.test"))
	if session == "" {
		t.Fatal("the previous release gave no session for its link")
	}
	old.Stop()

	// The current code on the same data directory; StartPanel signs in as
	// the administrator the previous release created. It listens where the
	// previous release did, as an upgrade in place does. Traefik also routes
	// the sign-in portal's host to it, as docs/portal.md has it.
	p := harness.StartPanel(t, map[string]string{"PANEL_DATA_DIR": dir, "PANEL_LISTEN": strings.TrimPrefix(old.URL, "http://"),
		"PANEL_PORTAL_URL": "http://" + portalHost})
	files := t.TempDir()
	dyn := "http:\n  routers:\n    gatehouse-portal:\n      rule: Host(`" + portalHost + "`)\n" +
		"      entryPoints: [web]\n      service: gatehouse\n" +
		"  services:\n    gatehouse:\n      loadBalancer:\n        servers:\n          - url: \"" + p.URL + "\"\n"
	if err := os.WriteFile(filepath.Join(files, "portal.yml"), []byte(dyn), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config", FileDir: files})
	c := browser(t, tr)
	var last answer
	if waitFor(30*time.Second, 100*time.Millisecond, func() bool {
		last = fetch(t, c, "http://basic.upgrade.access.test/", nil)
		return last.code == http.StatusUnauthorized
	}) < 0 {
		t.Fatalf("basic.upgrade.access.test never asked for credentials after the upgrade: %d %q %.300s", last.code, last.location, last.body)
	}

	right := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
	if a := fetch(t, c, "http://basic.upgrade.access.test/", map[string]string{"Authorization": right}); a.code != http.StatusOK || a.reply.Backend != "upgraded" {
		t.Fatalf("basic auth with the credential set's password after the upgrade: %d %+v", a.code, a.reply)
	}
	wrong := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:wrong"))
	if a := fetch(t, c, "http://basic.upgrade.access.test/", map[string]string{"Authorization": wrong}); a.code != http.StatusUnauthorized {
		t.Fatalf("a wrong password after the upgrade: %d", a.code)
	}

	// The link made before the upgrade opens once; the session redeemed
	// before it still admits its browser.
	lc := browser(t, tr)
	if a := press(t, lc, link.URL); a.code != http.StatusSeeOther || a.location != "http://link.upgrade.access.test/" {
		t.Fatalf("the previous release's link after the upgrade: %d %q %.200s", a.code, a.location, a.body)
	}
	if a := fetch(t, lc, "http://link.upgrade.access.test/", nil); a.code != http.StatusOK || a.reply.Backend != "upgraded" {
		t.Fatalf("the link's session: %d %+v", a.code, a.reply)
	}
	if a := press(t, browser(t, tr), link.URL); a.code == http.StatusSeeOther {
		t.Fatal("the previous release's one-use link opened twice")
	}
	if a := fetch(t, c, "http://link.upgrade.access.test/", map[string]string{"Cookie": contract.SessionCookie + "=" + session}); a.code != http.StatusOK || a.reply.Backend != "upgraded" {
		t.Fatalf("a session redeemed before the upgrade: %d %+v", a.code, a.reply)
	}

	// Single sign-on: without a portal (the previous release had none) the
	// services keep it, and ann signs in at the provider as before.
	ann := &mockoidc.MockUser{Subject: "sub-ann", PreferredUsername: "ann", Email: "ann@example.test", EmailVerified: true}
	sc := portalBrowser(t, tr)
	idp.QueueUser(ann)
	if a, hops := follow(t, sc, "http://sso-ann.example.test/inbox"); a.code != http.StatusOK || a.reply.Backend != "upgraded" {
		t.Fatalf("single sign-on after the upgrade, before a portal: %d via %v %.300s", a.code, hops, a.body)
	}

	// The administrator names the portal: the services move to the people
	// protection, admitting the same people through "Sign in with …".
	var portal map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"] = portalHost
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)
	var prot struct{ People struct{ Enabled bool } }
	harness.Eventually(t, 10*time.Second, func() bool {
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+ssoAnn+"/protection", nil, &prot)
		return prot.People.Enabled
	}, "saving the portal's host never replaced single sign-on")
	pc := portalBrowser(t, tr)
	service := "http://sso-ann.example.test/inbox"
	continueURL := "http://" + portalHost + forwardauth.PortalContinuePath + "?rd=" + url.QueryEscape(service)
	harness.Eventually(t, 30*time.Second, func() bool {
		a := fetch(t, pc, service, nil)
		return a.code == http.StatusFound && a.location == continueURL
	}, "the converted service never sent browsers to the portal")
	idp.QueueUser(ann)
	// Start, the provider, the portal's callback, which hands the page its
	// next step (the sign-in page goes on to rd by itself).
	a := fetch(t, pc, "http://"+portalHost+"/api/portal/sso/start?rd="+url.QueryEscape(continueURL), nil)
	for range 2 {
		if a.code != http.StatusFound {
			break
		}
		a = fetch(t, pc, a.location, nil)
	}
	if a.code != http.StatusFound || a.location != "/login?rd="+url.QueryEscape(continueURL) {
		t.Fatalf("Sign in with the provider on the portal: %d %q %.200s", a.code, a.location, a.body)
	}
	a, hops := follow(t, pc, continueURL)
	if a.code != http.StatusOK || a.reply.Backend != "upgraded" || a.reply.Headers["Remote-Email"] != "ann@example.test" {
		t.Fatalf("ann's service after the conversion: %d %+v via %v", a.code, a.reply, hops)
	}
	if a, _ = follow(t, pc, "http://sso-bob.example.test/"); a.code != http.StatusForbidden {
		t.Fatalf("bob's service for ann after the conversion: %d %+v", a.code, a.reply)
	}
}
