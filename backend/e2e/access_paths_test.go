//go:build e2e

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// Hosts of the two path scenarios.
const (
	allowHost = "pub.rules.access.test"  // basic auth, one rule: allow /public
	denyHost  = "deny.rules.access.test" // no protection, one rule: deny /admin
)

// Paths that read as /admin to somebody: Traefik, the panel or an upstream.
var (
	allowAttacks = []string{
		"/public/../admin", "/public/%2e%2e/admin", "//admin", "/PUBLIC/x", "/public%2f..%2fadmin",
		"/public/%2E%2E/admin", "/public/..%2fadmin", "/public;x/../admin", `/public\..\admin`,
		"/public/%252e%252e/admin",
	}
	denyAttacks = []string{
		"/ADMIN", "/Admin/x", "/admin/", "/./admin", "//admin", "/public/../admin", "/public/%2e%2e/admin",
		"/%61dmin", "/%41DMIN", "/admin;x", "/admin%2fx", "/public%2f..%2fadmin", `/public\..\admin`,
		"/admin%3bx", "/%2561dmin",
	}
)

// pathScenarios creates the two services and requests every attack path
// without credentials through each entrypoint of each Traefik version: web
// (Traefik's default path sanitising), raw (sanitizePath: false) and strict
// (every ambiguous encoded character refused; 3.6 and 3.7 both allow them
// by default). An allow rule must never open anything but /public, a deny
// rule must catch every reading of /admin. Each answer is logged with who
// gave it: the panel (and the path it saw) or Traefik itself. It returns
// the services' ids.
func pathScenarios(t *testing.T, p *harness.Panel, be *harness.Backend, bin string, extra map[string]string) (allowID, denyID string) {
	t.Helper()
	var set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "paths", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	all := []string{"web", "raw", "strict"}
	allowID = ruleService(t, p, be, allowHost, all, nil, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	putRules(t, p, allowID, "", []map[string]any{{"action": "allow", "note": "public files",
		"paths": []map[string]string{{"type": "prefix", "value": "/public"}}}})
	denyID = ruleService(t, p, be, denyHost, all, nil)
	putRules(t, p, denyID, "", []map[string]any{{"action": "deny", "note": "no admin from the internet",
		"paths": []map[string]string{{"type": "prefix", "value": "/admin"}}}})
	creds := map[string]string{"Authorization": basicAuth("alice", "correct horse")}

	harness.ForEachTraefik(t, func(t *testing.T, b harness.TraefikBinary) {
		entrypoints := extra
		if b.Path != bin {
			static, other := extraEntrypoints(t)
			tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: b.Path,
				ProviderURL: p.URL + "/api/proxy/config", Static: static})
			other["web"] = strings.TrimPrefix(tr.WebURL, "http://")
			entrypoints = other
		}
		for _, name := range all {
			addr := entrypoints[name]
			harness.Eventually(t, 30*time.Second, func() bool {
				return sendRaw(t, addr, allowHost, "/admin", nil).code == http.StatusUnauthorized &&
					sendRaw(t, addr, denyHost, "/admin", nil).code == http.StatusForbidden
			}, "the rules never took effect on "+name)
			for _, c := range []struct {
				host, target string
				hdr          map[string]string
			}{{allowHost, "/public/x", nil}, {allowHost, "/admin", creds}, {denyHost, "/public/x", nil}} {
				if r := sendRaw(t, addr, c.host, c.target, c.hdr); !r.passed() || r.backend.Path != c.target {
					t.Fatalf("%s %s%s: %d %s", name, c.host, c.target, r.code, r.body)
				}
			}
			// The panel's 401 carries the basic-auth challenge; a 400 or
			// 404 without one came from Traefik itself.
			for _, target := range allowAttacks {
				r := sendRaw(t, addr, allowHost, target, nil)
				by := "traefik"
				if r.header.Get("WWW-Authenticate") != "" {
					by = "panel saw " + lastPath(t, p, allowID)
				}
				t.Logf("%s %-6s allow /public %-26s -> %d (%s)", b.Name(), name, target, r.code, by)
				if r.passed() || (r.code != http.StatusUnauthorized && r.code != http.StatusBadRequest && r.code != http.StatusNotFound) {
					t.Errorf("%s %s without credentials: %d, upstream saw %q", name, target, r.code, r.backend.Path)
				}
			}
			for _, target := range denyAttacks {
				r := sendRaw(t, addr, denyHost, target, nil)
				by := "traefik"
				if r.code == http.StatusForbidden || r.passed() {
					by = "panel saw " + lastPath(t, p, denyID)
				}
				t.Logf("%s %-6s deny /admin   %-26s -> %d (%s)", b.Name(), name, target, r.code, by)
				if r.passed() || (r.code != http.StatusForbidden && r.code != http.StatusBadRequest && r.code != http.StatusNotFound) {
					t.Errorf("%s %s: %d, upstream saw %q", name, target, r.code, r.backend.Path)
				}
			}
		}
	})
	return allowID, denyID
}
