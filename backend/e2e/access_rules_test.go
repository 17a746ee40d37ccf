//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestAccessRules drives access rules, machine tokens and shared links
// through the panel's API and proves them through the real Traefik at
// $TRAEFIK_BIN (the attack paths through $TRAEFIK_BIN_37 too): one panel
// and one Traefik serve every scenario, and the access log is read last.
func TestAccessRules(t *testing.T) {
	bin := harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "upstream")
	static, extra := extraEntrypoints(t)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config", Static: static})
	extra["web"] = strings.TrimPrefix(tr.WebURL, "http://")
	c := browser(t, tr)
	ids := map[string]string{}

	t.Run("nextcloud", func(t *testing.T) {
		startProvider(t, p, "openid", "email", "profile")
		const host = "cloud.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web"}, nil,
			map[string]any{"type": "sso"}, map[string]any{"type": "tokens"})
		ids["nextcloud"] = id
		preset := presetRules(t, p, "nextcloud")
		putRules(t, p, id, "", preset)
		_, value := machineToken(t, p, "desktop", "", nil, id)
		dav := "http://" + host + "/remote.php/dav/files/x"
		asToken := map[string]string{"Authorization": basicAuth("anyone", value), "Depth": "1"}

		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, c, http.MethodGet, "http://"+host+"/apps/files", nil).code == http.StatusUnauthorized
		}, host+" never asked for credentials")

		// As shipped, the preset leaves WebDAV to Nextcloud's own app
		// passwords: the request reaches it without an identity, and a
		// client cannot forge one.
		r := send(t, c, "PROPFIND", dav+"?secret=1", map[string]string{"Depth": "1", "Remote-User": "mallory"})
		if !r.passed() || r.backend.Headers["Remote-User"] != "" {
			t.Fatalf("PROPFIND without credentials under the preset: %d %+v %s", r.code, r.backend, r.body)
		}
		// The web interface stays behind sign-in: a browser goes to single sign-on...
		a := fetch(t, c, "http://"+host+"/apps/files", nil)
		if a.code != http.StatusFound || !strings.HasPrefix(a.location, p.URL+"/api/auth/sso/start?") {
			t.Fatalf("browser GET /apps/files: %d %q", a.code, a.location)
		}
		// ...and a program is asked for the token as a basic-auth password.
		r = send(t, c, http.MethodGet, "http://"+host+"/apps/files", nil)
		if r.code != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
			t.Fatalf("GET /apps/files without credentials: %d %q", r.code, r.header.Get("WWW-Authenticate"))
		}
		r = send(t, c, http.MethodGet, "http://"+host+"/apps/files", asToken)
		if !r.passed() || r.backend.Headers["Remote-User"] != "token:desktop" {
			t.Fatalf("GET /apps/files with the token: %d %+v %s", r.code, r.backend, r.body)
		}

		// An administrator who wants the panel's tokens to guard WebDAV too
		// turns the preset's first rule (status, WebDAV, CalDAV, CardDAV) to
		// authenticate.
		if !strings.Contains(fmt.Sprint(preset[0]["paths"]), "/remote.php/dav") {
			t.Fatalf("the preset's first rule is not the WebDAV one: %v", preset[0])
		}
		preset[0]["action"] = "authenticate"
		putRules(t, p, id, "", preset)
		harness.Eventually(t, 10*time.Second, func() bool {
			return send(t, c, "PROPFIND", dav, map[string]string{"Depth": "1"}).code == http.StatusUnauthorized
		}, "WebDAV never asked for credentials after the rule changed")
		r = send(t, c, "PROPFIND", dav+"?secret=2", asToken)
		if !r.passed() || r.backend.Headers["Remote-User"] != "token:desktop" || r.backend.Path != "/remote.php/dav/files/x" {
			t.Fatalf("PROPFIND with the token: %d %+v %s", r.code, r.backend, r.body)
		}
		r = send(t, c, "PROPFIND", dav, map[string]string{"Depth": "1"})
		if r.code != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
			t.Fatalf("PROPFIND without credentials: %d %q %s", r.code, r.header.Get("WWW-Authenticate"), r.body)
		}
		if a := fetch(t, c, "http://"+host+"/apps/files", nil); a.code != http.StatusFound ||
			!strings.HasPrefix(a.location, p.URL+"/api/auth/sso/start?") {
			t.Fatalf("browser GET /apps/files after the change: %d %q", a.code, a.location)
		}
	})

	t.Run("revoked token", func(t *testing.T) {
		const host = "api.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web"}, nil, map[string]any{"type": "tokens"})
		ids["revoke"] = id
		tokID, value := machineToken(t, p, "ci", "", nil, id)
		bearer := map[string]string{"Authorization": "Bearer " + value}
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, c, http.MethodGet, "http://"+host+"/", nil).code == http.StatusUnauthorized
		}, host+" never asked for a token")
		if r := send(t, c, http.MethodGet, "http://"+host+"/build", bearer); !r.passed() ||
			r.backend.Headers["Remote-User"] != "token:ci" {
			t.Fatalf("with the token: %d %+v", r.code, r.backend)
		}
		p.MustJSON(t, http.StatusOK, http.MethodPost, "/api/machine-tokens/"+tokID+"/revoke", nil, nil)
		revoked := time.Now()
		var last reply
		for time.Since(revoked) < 5*time.Second {
			if last = send(t, c, http.MethodGet, "http://"+host+"/build", bearer); last.code == http.StatusUnauthorized {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		delay := time.Since(revoked)
		t.Logf("revoked token refused %s after the revoke answer", delay.Round(time.Millisecond))
		if last.code != http.StatusUnauthorized {
			t.Fatalf("revoked token still answered %d after %s", last.code, delay)
		}
		if delay > time.Second {
			t.Fatalf("revoked token refused only after %s, want within 1s", delay)
		}
	})

	t.Run("scoped token", func(t *testing.T) {
		const host = "dav.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web", "raw"}, nil, map[string]any{"type": "tokens", "header": "X-Api-Key"})
		ids["scoped"] = id
		_, value := machineToken(t, p, "phone", "/remote.php/dav", []string{"GET", "PROPFIND"}, id)
		harness.Eventually(t, 30*time.Second, func() bool {
			return sendRaw(t, extra["raw"], host, "/", nil).code == http.StatusUnauthorized
		}, host+" never asked for a token")
		for _, hdr := range []map[string]string{
			{"Authorization": "Bearer " + value},
			{"Authorization": basicAuth("phone", value)},
			{"X-Api-Key": value},
		} {
			for _, ep := range []string{"web", "raw"} {
				r := rawRequest(t, extra[ep], "PROPFIND", host, "/remote.php/dav/files/x", hdr)
				if !r.passed() || r.backend.Headers["Remote-User"] != "token:phone" {
					t.Fatalf("%s PROPFIND in scope with %v: %d %+v", ep, hdr, r.code, r.backend)
				}
			}
		}
		key := map[string]string{"X-Api-Key": value}
		for _, c := range []struct{ ep, method, target string }{
			{"web", "DELETE", "/remote.php/dav/files/x"},
			{"web", "GET", "/apps/files"},
			{"web", "GET", "/remote.php/davx"},
			{"web", "GET", "/remote.php/dav/../../apps/files"},
			{"raw", "GET", "/remote.php/dav/../../apps/files"},
			{"raw", "GET", "/remote.php/dav/%2e%2e/%2e%2e/apps/files"},
			{"raw", "GET", "/remote.php/dav%2f..%2f..%2fapps/files"},
			{"raw", "GET", "/REMOTE.PHP/dav/files/x"},
		} {
			if r := rawRequest(t, extra[c.ep], c.method, host, c.target, key); r.code != http.StatusForbidden {
				t.Errorf("%s %s %s out of scope: %d, upstream saw %q", c.ep, c.method, c.target, r.code, r.backend.Path)
			}
		}
	})

	t.Run("shared link to a path-routed service", func(t *testing.T) {
		const host = "app.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web"},
			map[string]any{"rules": []map[string]string{{"type": "pathPrefix", "value": "/app"}}},
			map[string]any{"type": "shared_links"})
		ids["link"] = id
		var link struct {
			URL      string
			Warnings []string
		}
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+id+"/shared-links",
			map[string]any{"lifetimeSeconds": 600, "sessionSeconds": 600, "note": "e2e"}, &link)
		if !strings.HasPrefix(link.URL, "http://"+host+"/app?gh_link=") || len(link.Warnings) != 0 {
			t.Fatalf("link %q warnings %v", link.URL, link.Warnings)
		}
		probe := browser(t, tr)
		harness.Eventually(t, 30*time.Second, func() bool {
			return fetch(t, probe, "http://"+host+"/app", nil).code == http.StatusUnauthorized
		}, host+" never became protected")
		lc := browser(t, tr)
		a := press(t, lc, link.URL)
		if a.code != http.StatusSeeOther || a.location != "http://"+host+"/app" {
			t.Fatalf("first use: %d %q %s", a.code, a.location, a.body)
		}
		u, _ := url.Parse("http://" + host + "/app")
		if len(lc.Jar.Cookies(u)) == 0 {
			t.Fatal("no session cookie reached the browser")
		}
		if a := fetch(t, lc, a.location, nil); a.code != http.StatusOK || a.reply.Path != "/app" {
			t.Fatalf("clean URL with the session: %d %s", a.code, a.body)
		}
	})

	t.Run("forged X-Forwarded-For", func(t *testing.T) {
		const host = "ten.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web"}, nil)
		ids["xff"] = id
		putRules(t, p, id, "deny", []map[string]any{{"action": "allow", "note": "office", "sources": []string{"10.0.0.0/8"}}})
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, c, http.MethodGet, "http://"+host+"/", nil).code == http.StatusForbidden
		}, host+" never refused 127.0.0.1")
		for _, hdr := range []map[string]string{
			{"X-Forwarded-For": "10.1.2.3"},
			{"X-Forwarded-For": "10.1.2.3, 10.0.0.1"},
			{"X-Real-Ip": "10.1.2.3"},
			{"Forwarded": "for=10.1.2.3"},
		} {
			if r := send(t, c, http.MethodGet, "http://"+host+"/", hdr); r.code != http.StatusForbidden {
				t.Errorf("%v: %d %s", hdr, r.code, r.body)
			}
		}
	})

	t.Run("country rule without a country database", func(t *testing.T) {
		var env struct {
			Error struct {
				Code   string
				Fields []struct{ Field, Message string }
			}
		}
		id := ruleService(t, p, be, "nogeo.rules.access.test", []string{"web"}, nil)
		code := p.JSON(t, http.MethodPut, "/api/services/"+id+"/access", map[string]any{
			"defaultAction": "", "rules": []map[string]any{{"action": "deny", "countries": []string{"FR"}}}}, &env)
		if code != http.StatusUnprocessableEntity || len(env.Error.Fields) == 0 || env.Error.Fields[0].Field != "rules[0].countries" {
			t.Fatalf("PUT a country rule: %d %+v", code, env)
		}
		t.Logf("422: %s", env.Error.Fields[0].Message)
	})

	t.Run("attack paths", func(t *testing.T) { ids["attack"], ids["deny"] = pathScenarios(t, p, be, bin, extra) })

	t.Run("access log", func(t *testing.T) {
		for _, want := range []struct{ service, decision, path, by, identity string }{
			{"nextcloud", "allowed", "/remote.php/dav/files/x", "service rule 1", ""},
			{"nextcloud", "authenticated", "/remote.php/dav/files/x", "machine token", "token:desktop"},
			{"nextcloud", "unauthenticated", "/remote.php/dav/files/x", "", ""},
			{"nextcloud", "unauthenticated", "/apps/files", "", ""},
			{"revoke", "authenticated", "/build", "machine token", "token:ci"},
			{"revoke", "unauthenticated", "/build", "machine token", ""},
			{"scoped", "forbidden", "/apps/files", "machine token", "token:phone"},
			{"link", "authenticated", "/app", "shared-link session", ""},
			{"xff", "denied", "/", "default action", ""},
			{"attack", "allowed", "/public/x", "service rule 1", ""},
			{"attack", "unauthenticated", "/admin", "", ""},
			{"deny", "denied", "/admin", "service rule 1", ""},
		} {
			if ids[want.service] == "" {
				continue // its subtest did not run
			}
			it, ok := findLog(accessLog(t, p, ids[want.service]), ids[want.service], want.decision, want.path, "")
			switch {
			case !ok:
				t.Errorf("no %s entry for %s %s", want.decision, want.service, want.path)
			case want.by != "" && it.By != want.by, want.identity != "" && it.Identity != want.identity:
				t.Errorf("%s %s %s: by %q identity %q, want %q %q", want.service, want.decision, want.path,
					it.By, it.Identity, want.by, want.identity)
			}
		}
		if it, ok := findLog(accessLog(t, p, ids["xff"]), ids["xff"], "denied", "/", ""); ok && it.ClientAddress != "127.0.0.1" {
			t.Errorf("forged X-Forwarded-For reached the log: %+v", it)
		}
	})
}
