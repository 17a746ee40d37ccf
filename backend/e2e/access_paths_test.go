//go:build e2e

package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// attackPaths creates a service with basic auth whose one rule allows
// /public, and proves that no other reading of a path opens it without
// credentials, through every entrypoint of every Traefik version: web
// (Traefik's default path sanitising), raw (sanitizePath: false) and strict
// (every ambiguous encoded character refused; both 3.6 and 3.7 allow them
// by default). It logs who refused each path: the panel (401 with the
// basic-auth challenge, and the path it saw) or Traefik itself. It returns
// the service's id.
func attackPaths(t *testing.T, p *harness.Panel, be *harness.Backend, bin string, extra map[string]string) string {
	t.Helper()
	const host = "pub.rules.access.test"
	var set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "attack", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	id := ruleService(t, p, be, host, []string{"web", "raw", "strict"}, nil,
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
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
	return id
}
