//go:build e2e

package e2e

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/geoip/geoiptest"
)

// reply is one answer as a client saw it.
type reply struct {
	code    int
	header  http.Header
	body    string
	backend harness.BackendReply
}

// passed reports whether the request reached the upstream.
func (r reply) passed() bool { return r.code == http.StatusOK && r.backend.Backend != "" }

func readReply(resp *http.Response) reply {
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{code: resp.StatusCode, header: resp.Header, body: string(b)}
	_ = json.Unmarshal(b, &r.backend)
	return r
}

// send makes a request the way a program (not a browser) would: no Accept
// header unless hdr has one. A transport error is status 0.
func send(t *testing.T, c *http.Client, method, rawURL string, hdr map[string]string) reply {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return reply{body: err.Error()}
	}
	return readReply(resp)
}

// sendRaw writes a GET with target exactly as given (no client-side
// cleaning or re-encoding) to the listener at addr.
func sendRaw(t *testing.T, addr, host, target string, hdr map[string]string) reply {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", target, host)
	for k, v := range hdr {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return reply{body: err.Error()}
	}
	return readReply(resp)
}

func basicAuth(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// ruleService creates a service on host with the given entrypoints, extra
// service fields (routing rules...) and protections.
func ruleService(t *testing.T, p *harness.Panel, be *harness.Backend, host string, entrypoints []string,
	extra map[string]any, protections ...map[string]any) string {
	t.Helper()
	body := map[string]any{
		"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": entrypoints,
	}
	for k, v := range extra {
		body[k] = v
	}
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body, &svc)
	for _, pr := range protections {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs", pr, nil)
	}
	return svc.ID
}

// putRules replaces a service's access rules.
func putRules(t *testing.T, p *harness.Panel, id, defaultAction string, rules []map[string]any) {
	t.Helper()
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+id+"/access",
		map[string]any{"defaultAction": defaultAction, "rules": rules}, nil)
}

// presetRules fetches a built-in preset's rules as the UI inserts them.
func presetRules(t *testing.T, p *harness.Panel, id string) []map[string]any {
	t.Helper()
	var presets struct {
		Items []struct {
			ID    string
			Rules []map[string]any
		}
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/access/presets", nil, &presets)
	for _, pr := range presets.Items {
		if pr.ID == id {
			return pr.Rules
		}
	}
	t.Fatalf("no preset %q among %+v", id, presets.Items)
	return nil
}

// machineToken creates a token for the services and returns its id and value.
func machineToken(t *testing.T, p *harness.Panel, name string, serviceIDs ...string) (id, value string) {
	t.Helper()
	var out struct {
		Token struct{ ID string }
		Value string
	}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/machine-tokens", map[string]any{
		"name": name, "serviceIds": serviceIDs, "scope": map[string]any{"pathPrefix": "", "methods": []string{}},
		"expiresAt": nil}, &out)
	if !strings.HasPrefix(out.Value, "ght_") {
		t.Fatalf("token value %q", out.Value)
	}
	return out.Token.ID, out.Value
}

type logItem struct {
	ServiceID     string
	ClientAddress string
	Method        string
	Host          string
	Path          string
	Decision      string
	By            string
	Identity      string
}

// accessLog reads the panel's access log, newest first, and fails the test
// if any entry kept a query string.
func accessLog(t *testing.T, p *harness.Panel) []logItem {
	t.Helper()
	var raw json.RawMessage
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/access-log?limit=1000", nil, &raw)
	for _, secret := range []string{"?", "gh_link", "secret="} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the access log holds %q: %s", secret, raw)
		}
	}
	var page struct{ Items []logItem }
	if err := json.Unmarshal(raw, &page); err != nil {
		t.Fatal(err)
	}
	return page.Items
}

// findLog returns the newest entry of the service with the decision (and
// path and address, when not empty).
func findLog(items []logItem, serviceID, decision, path, addr string) (logItem, bool) {
	for _, it := range items {
		if it.ServiceID == serviceID && it.Decision == decision &&
			(path == "" || it.Path == path) && (addr == "" || it.ClientAddress == addr) {
			return it, true
		}
	}
	return logItem{}, false
}

// lastPath is the path of the service's newest access-log entry.
func lastPath(t *testing.T, p *harness.Panel, serviceID string) string {
	t.Helper()
	var page struct{ Items []logItem }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+serviceID+"/access-log?limit=1", nil, &page)
	if len(page.Items) == 0 {
		return ""
	}
	return page.Items[0].Path
}

// extraEntrypoints is the static configuration of two more entrypoints on
// free loopback ports: raw leaves request paths as the client sent them,
// strict refuses every ambiguous encoded character. It returns the YAML and
// the addresses by name.
func extraEntrypoints(t *testing.T) (string, map[string]string) {
	t.Helper()
	addrs := map[string]string{
		"raw":    net.JoinHostPort("127.0.0.1", fmt.Sprint(harness.FreePort(t))),
		"strict": net.JoinHostPort("127.0.0.1", fmt.Sprint(harness.FreePort(t))),
	}
	static := "entryPoints:\n" +
		"  raw:\n    address: \"" + addrs["raw"] + "\"\n    http:\n      sanitizePath: false\n" +
		"  strict:\n    address: \"" + addrs["strict"] + "\"\n    http:\n      encodedCharacters:\n"
	for _, c := range []string{"Slash", "BackSlash", "NullCharacter", "Semicolon", "Percent", "QuestionMark", "Hash"} {
		static += "        allowEncoded" + c + ": false\n"
	}
	return static, addrs
}

// TestAccessRules runs the rule scenarios of one panel against the real
// Traefik at $TRAEFIK_BIN (and the attack paths against $TRAEFIK_BIN_37 too).
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
		m, err := mockoidc.Run()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = m.Shutdown() })
		cfg := m.Config()
		p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/sso", map[string]any{
			"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret,
			"scopes": []string{"openid", "email", "profile"}}, nil)
		const host = "cloud.rules.access.test"
		id := ruleService(t, p, be, host, []string{"web"}, nil,
			map[string]any{"type": "sso"}, map[string]any{"type": "tokens"})
		ids["nextcloud"] = id
		preset := presetRules(t, p, "nextcloud")
		putRules(t, p, id, "", preset)
		_, value := machineToken(t, p, "desktop", id)
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
		tokID, value := machineToken(t, p, "ci", id)
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
		a := fetch(t, lc, link.URL, nil)
		if a.code != http.StatusFound || a.location != "http://"+host+"/app" {
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
		code := p.JSON(t, http.MethodPut, "/api/services/"+ids["xff"]+"/access", map[string]any{
			"defaultAction": "", "rules": []map[string]any{{"action": "deny", "countries": []string{"FR"}}}}, &env)
		if code != http.StatusUnprocessableEntity || len(env.Error.Fields) == 0 || env.Error.Fields[0].Field != "rules[0].countries" {
			t.Fatalf("PUT a country rule: %d %+v", code, env)
		}
		t.Logf("422: %s", env.Error.Fields[0].Message)
	})

	t.Run("attack paths", func(t *testing.T) {
		const host = "pub.rules.access.test"
		var set struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
			"name": "attack", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
		id := ruleService(t, p, be, host, []string{"web", "raw", "strict"}, nil,
			map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
		ids["attack"] = id
		putRules(t, p, id, "", []map[string]any{{"action": "allow", "note": "public files",
			"paths": []map[string]string{{"type": "prefix", "value": "/public"}}}})

		harness.ForEachTraefik(t, func(t *testing.T, b harness.TraefikBinary) {
			entrypoints := extra
			if b.Path != bin {
				static, other := extraEntrypoints(t)
				tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: b.Path,
					ProviderURL: p.URL + "/api/proxy/config", Static: static})
				other["web"] = strings.TrimPrefix(tr.WebURL, "http://")
				entrypoints = other
			}
			for _, name := range []string{"web", "raw", "strict"} {
				addr := entrypoints[name]
				harness.Eventually(t, 30*time.Second, func() bool {
					return sendRaw(t, addr, host, "/admin", nil).code == http.StatusUnauthorized
				}, host+" never asked for credentials on "+name)
				if r := sendRaw(t, addr, host, "/public/x", nil); !r.passed() || r.backend.Path != "/public/x" {
					t.Fatalf("%s /public/x: %d %s", name, r.code, r.body)
				}
				if r := sendRaw(t, addr, host, "/admin", map[string]string{"Authorization": basicAuth("alice", "correct horse")}); !r.passed() {
					t.Fatalf("%s /admin with credentials: %d %s", name, r.code, r.body)
				}
				for _, target := range []string{
					"/public/../admin", "/public/%2e%2e/admin", "//admin", "/PUBLIC/x", "/public%2f..%2fadmin",
					"/public/%2E%2E/admin", "/public/..%2fadmin", "/public;x/../admin", "/public\\..\\admin",
					"/public/%252e%252e/admin",
				} {
					r := sendRaw(t, addr, host, target, nil)
					// The panel's 401 carries the basic-auth challenge; an
					// answer without one came from Traefik itself.
					who := "traefik"
					if r.header.Get("WWW-Authenticate") != "" {
						who = "panel saw " + lastPath(t, p, id)
					}
					t.Logf("%s %-6s %-28s -> %d (%s)", b.Name(), name, target, r.code, who)
					if r.code == http.StatusOK || r.backend.Backend != "" ||
						(r.code != http.StatusUnauthorized && r.code != http.StatusBadRequest && r.code != http.StatusNotFound) {
						t.Errorf("%s %s without credentials: %d %+v %s", name, target, r.code, r.backend, r.body)
					}
				}
			}
		})
	})

	t.Run("access log", func(t *testing.T) {
		items := accessLog(t, p)
		for _, want := range []struct{ service, decision, path, identity string }{
			{"nextcloud", "allowed", "/remote.php/dav/files/x", ""},
			{"nextcloud", "authenticated", "/remote.php/dav/files/x", "token:desktop"},
			{"nextcloud", "unauthenticated", "/remote.php/dav/files/x", ""},
			{"nextcloud", "unauthenticated", "/apps/files", ""},
			{"revoke", "authenticated", "/build", "token:ci"},
			{"revoke", "unauthenticated", "/build", ""},
			{"link", "authenticated", "/app", ""},
			{"xff", "denied", "/", ""},
			{"attack", "allowed", "/public/x", ""},
			{"attack", "unauthenticated", "/admin", ""},
		} {
			it, ok := findLog(items, ids[want.service], want.decision, want.path, "")
			if !ok {
				t.Errorf("no %s entry for %s %s", want.decision, want.service, want.path)
				continue
			}
			if it.Identity != want.identity && want.identity != "" {
				t.Errorf("%s %s %s: identity %q, want %q", want.service, want.decision, want.path, it.Identity, want.identity)
			}
		}
		if it, ok := findLog(items, ids["xff"], "denied", "/", ""); ok && it.ClientAddress != "127.0.0.1" {
			t.Errorf("forged X-Forwarded-For reached the log: %+v", it)
		}
	})
}

// TestAccessRulesFromOutside sends requests from a host on the internet
// (a network namespace) through an extra Traefik entrypoint bound to the
// link: the LAN bypass lets loopback through but not the stranger, and a
// country rule refuses the stranger's country.
func TestAccessRulesFromOutside(t *testing.T) {
	harness.TraefikBin(t)
	o := harness.StartOutside(t)
	db := t.TempDir() + "/country.mmdb"
	geoiptest.Write(t, db, map[string]string{o.Addr + "/30": "FR"})
	p := harness.StartPanel(t, map[string]string{"PANEL_GEOIP_DB": db})
	be := harness.StartBackend(t, "upstream")
	outside := net.JoinHostPort(o.HostAddr, fmt.Sprint(harness.FreePort(t)))
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config",
		Static: "entryPoints:\n  outside:\n    address: \"" + outside + "\"\n"})
	local := browser(t, tr)
	stranger := o.Client(func(string) string { return outside })
	entrypoints := []string{"web", "outside"}

	t.Run("LAN bypass", func(t *testing.T) {
		const host = "lan.rules.access.test"
		var set struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
			"name": "lan", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
		id := ruleService(t, p, be, host, entrypoints, nil, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
		putRules(t, p, id, "", presetRules(t, p, "lan-bypass"))
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, stranger, http.MethodGet, "http://"+host+"/", nil).code == http.StatusUnauthorized
		}, host+" never asked the outside host for credentials")
		if r := send(t, local, http.MethodGet, "http://"+host+"/", nil); !r.passed() {
			t.Fatalf("from 127.0.0.1: %d %s", r.code, r.body)
		}
		r := send(t, stranger, http.MethodGet, "http://"+host+"/", map[string]string{"X-Forwarded-For": "192.168.1.5"})
		if r.code != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
			t.Fatalf("from outside claiming a LAN address: %d %s", r.code, r.body)
		}
		if r := send(t, stranger, http.MethodGet, "http://"+host+"/",
			map[string]string{"Authorization": basicAuth("alice", "correct horse")}); !r.passed() {
			t.Fatalf("from outside with credentials: %d %s", r.code, r.body)
		}
		items := accessLog(t, p)
		if _, ok := findLog(items, id, "unauthenticated", "/", o.Addr); !ok {
			t.Errorf("no unauthenticated entry from %s: %+v", o.Addr, items)
		}
		if _, ok := findLog(items, id, "allowed", "/", "127.0.0.1"); !ok {
			t.Errorf("no allowed entry from 127.0.0.1: %+v", items)
		}
	})

	t.Run("deny by country", func(t *testing.T) {
		const host = "geo.rules.access.test"
		id := ruleService(t, p, be, host, entrypoints, nil)
		putRules(t, p, id, "", []map[string]any{{"action": "deny", "note": "no visitors from France", "countries": []string{"FR"}}})
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, stranger, http.MethodGet, "http://"+host+"/", nil).code == http.StatusForbidden
		}, host+" never refused the outside host")
		if r := send(t, local, http.MethodGet, "http://"+host+"/", nil); !r.passed() {
			t.Fatalf("from 127.0.0.1: %d %s", r.code, r.body)
		}
		if _, ok := findLog(accessLog(t, p), id, "denied", "/", o.Addr); !ok {
			t.Errorf("no denied entry from %s", o.Addr)
		}
	})
}
