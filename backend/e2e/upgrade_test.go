//go:build e2e

package e2e

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
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
	// the administrator the previous release created.
	// It listens where the previous release did, as an upgrade in place does.
	p := harness.StartPanel(t, map[string]string{"PANEL_DATA_DIR": dir, "PANEL_LISTEN": strings.TrimPrefix(old.URL, "http://")})
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})
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
}
