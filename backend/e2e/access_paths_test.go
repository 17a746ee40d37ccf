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
	// Readings that Windows, IIS, Java or C upstreams normalise (issue 21):
	// trailing dots and spaces, NUL, NTFS streams, %u escapes, overlong
	// UTF-8 and Unicode look-alikes, raw and percent-encoded.
	allowReadings = []string{
		"/public/%c0%ae%c0%ae/admin", "/public/%e0%80%ae%e0%80%ae/admin", "/public%c0%af..%c0%afadmin",
		"/public%c1%1c..%c1%1cadmin", "/public/%EF%BC%8E%EF%BC%8E/admin", "/public/\uff0e\uff0e/admin",
		"/public%EF%BC%8F..%EF%BC%8Fadmin", "/public%E2%88%95..%E2%88%95admin", "/public\u2044..\u2044admin",
		"/public%EF%BC%BC..%EF%BC%BCadmin", "/public/%u002e%u002e/admin", "/public/..%20/admin",
		"/public/..::$DATA/admin", "/public/x%00/../../admin",
	}
	denyReadings = []string{
		"/admin.", "/admin..", "/admin%2e", "/admin%20", "/admin%20.", "/admin%09", "/admin%00", "/admin%00.jpg",
		"/admin::$DATA", "/admin:$DATA", "/admin%3a%3a$DATA", "/admin::$INDEX_ALLOCATION/x", "/admin%252e",
		"/%u0061dmin", "/admin%u002e", "/%EF%BD%81dmin", "/\uff41dmin", "/x%EF%BC%8F..%EF%BC%8Fadmin",
		"/x/%EF%BC%8E%EF%BC%8E/admin", "/x%E2%88%95..%E2%88%95admin", "/x%E2%81%84..%E2%81%84admin",
		"/x\u2215..\u2215admin", "/x%C2%A5..%C2%A5admin", "/x/%c0%ae%c0%ae/admin", "/x%c0%af..%c0%afadmin",
		"/x%c1%1c..%c1%1cadmin", "/x/%f0%80%80%ae%f0%80%80%ae/admin",
	}
	// reaches is what Traefik does to some of those readings before
	// forward-auth, by entrypoint (the same in 3.6 and 3.7): the path the
	// panel's access log shows, or "traefik" when Traefik answers 400
	// itself. Traefik decodes escaped unreserved bytes (%2e), upper-cases
	// other escapes, re-encodes raw UTF-8, refuses malformed escapes such
	// as IIS's %u, and its strict entrypoint refuses %00 and %25; it trims
	// no dot, space or stream suffix, so the panel must.
	reaches = map[string]string{
		"web /admin%2e":                  "panel saw /admin.",
		"raw /admin%2e":                  "panel saw /admin.",
		"web /admin.":                    "panel saw /admin.",
		"web /admin%20":                  "panel saw /admin%20",
		"web /admin::$DATA":              "panel saw /admin::$DATA",
		"web /admin%3a%3a$DATA":          "panel saw /admin%3A%3A$DATA",
		"web /\uff41dmin":                "panel saw /%EF%BD%81dmin",
		"web /x/%c0%ae%c0%ae/admin":      "panel saw /x/%C0%AE%C0%AE/admin",
		"web /%u0061dmin":                "traefik",
		"raw /%u0061dmin":                "traefik",
		"strict /%u0061dmin":             "traefik",
		"web /admin%00":                  "panel saw /admin%00",
		"strict /admin%00":               "traefik",
		"strict /admin%252e":             "traefik",
		"web /public/x%00/../../admin":   "panel saw /admin",
		"raw /public/x%00/../../admin":   "panel saw /public/x%00/../../admin",
		"web /public/%c0%ae%c0%ae/admin": "panel saw /public/%C0%AE%C0%AE/admin",
		"web /public/\uff0e\uff0e/admin": "panel saw /public/%EF%BC%8E%EF%BC%8E/admin",
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
			for _, target := range append(allowAttacks, allowReadings...) {
				r := sendRaw(t, addr, allowHost, target, nil)
				by := "traefik"
				if r.header.Get("WWW-Authenticate") != "" {
					by = "panel saw " + lastPath(t, p, allowID)
				}
				t.Logf("%s %-6s allow /public %-26s -> %d (%s)", b.Name(), name, target, r.code, by)
				if want, ok := reaches[name+" "+target]; ok && by != want {
					t.Errorf("%s %s %s: %s, want %s", b.Name(), name, target, by, want)
				}
				if r.passed() || (r.code != http.StatusUnauthorized && r.code != http.StatusBadRequest && r.code != http.StatusNotFound) {
					t.Errorf("%s %s without credentials: %d, upstream saw %q", name, target, r.code, r.backend.Path)
				}
			}
			for _, target := range append(denyAttacks, denyReadings...) {
				r := sendRaw(t, addr, denyHost, target, nil)
				by := "traefik"
				if r.code == http.StatusForbidden || r.passed() {
					by = "panel saw " + lastPath(t, p, denyID)
				}
				t.Logf("%s %-6s deny /admin   %-26s -> %d (%s)", b.Name(), name, target, r.code, by)
				if want, ok := reaches[name+" "+target]; ok && by != want {
					t.Errorf("%s %s %s: %s, want %s", b.Name(), name, target, by, want)
				}
				if r.passed() || (r.code != http.StatusForbidden && r.code != http.StatusBadRequest && r.code != http.StatusNotFound) {
					t.Errorf("%s %s: %d, upstream saw %q", name, target, r.code, r.backend.Path)
				}
			}
		}
	})
	return allowID, denyID
}
