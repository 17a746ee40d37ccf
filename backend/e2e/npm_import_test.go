//go:build e2e

package e2e

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// npmFixture is the Nginx Proxy Manager database built from NPM's own
// migrations (internal/transfer/npm/testdata/README.md).
const npmFixture = "../internal/transfer/npm/testdata/npm-v2.12.sqlite"

// TestNPMImportThroughTraefik imports an NPM database as a new user would:
// a dry run shows the plan and changes nothing, the apply writes it, and
// then, through a real Traefik, the proxy host reaches its upstream, the
// access-list host asks for basic auth and takes the NPM user's password,
// and the redirection hosts redirect.
func TestNPMImportThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	app := harness.StartBackend(t, "npm-app")
	family := harness.StartBackend(t, "npm-family")
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	// The fixture's upstreams are names of a home network; point the two
	// hosts under test at this test's backends.
	data := npmDatabase(t,
		fmt.Sprintf(`UPDATE proxy_host SET forward_host = '127.0.0.1', forward_port = %d WHERE id = 1`, app.Port),
		fmt.Sprintf(`UPDATE proxy_host SET forward_host = '127.0.0.1', forward_port = %d WHERE id = 2`, family.Port))

	// Dry run: the plan, nothing written.
	plan := postImport(t, p, "/api/import?format=npm", data)
	if plan.Format != "npm" || plan.Applied || !strings.HasPrefix(plan.Digest, "sha256:") {
		t.Fatalf("dry run: %+v", plan)
	}
	for _, want := range []struct{ kind, name string }{
		{"service", "app.example.com"}, {"service", "family.example.com"}, {"service", "www.example.com"},
		{"service", "short.example.com"}, {"credentialSet", "Family"},
	} {
		if !hasItem(plan, want.kind, want.name, "create") {
			t.Errorf("dry run: no %s %q to create in %+v", want.kind, want.name, plan.Items)
		}
	}
	for _, src := range []string{"stream #1", "404 host #1 (parked.example.com)", "proxy host #5 (nas.example.com)"} {
		if !hasSkipped(plan, src) {
			t.Errorf("dry run: %q is not listed as skipped: %+v", src, plan.Skipped)
		}
	}
	var list struct{ Items []struct{ Name string } }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services", nil, &list)
	if len(list.Items) != 0 {
		t.Fatalf("the dry run created services: %+v", list.Items)
	}

	// Apply what was reviewed.
	done := postImport(t, p, "/api/import?format=npm&apply=true&digest="+plan.Digest, data)
	if !done.Applied || done.Digest != plan.Digest {
		t.Fatalf("apply: %+v", done)
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services", nil, &list)
	// Nine proxy hosts and redirections, and the stream as a TCP service.
	if len(list.Items) != 10 || !slices.ContainsFunc(list.Items, func(s struct{ Name string }) bool { return s.Name == "Stream 2222/tcp" }) {
		t.Fatalf("after the apply: %d services, want 10 with the stream: %+v", len(list.Items), list.Items)
	}

	// The proxy host reaches its upstream over TLS (Traefik's default
	// certificate: the ACME resolver is not part of this test), with NPM's
	// HSTS policy.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _, body := npmGet(tr.WebsecureURL, "app.example.com", "/hello", "", "")
		return code == http.StatusOK && containsBackend(body, "npm-app")
	}, "app.example.com did not reach its upstream")
	if _, hdr, _ := npmGet(tr.WebsecureURL, "www.app.example.com", "/", "", ""); hdr.Get("Strict-Transport-Security") != "max-age=31536000; includeSubDomains; preload" {
		t.Errorf("Strict-Transport-Security = %q", hdr.Get("Strict-Transport-Security"))
	}

	// The access-list host asks for basic auth and takes NPM's user.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _, _ := npmGet(tr.WebsecureURL, "family.example.com", "/", "", "")
		return code == http.StatusUnauthorized
	}, "family.example.com did not ask for credentials")
	if code, _, body := npmGet(tr.WebsecureURL, "family.example.com", "/photos", "alice", "correct horse battery"); code != http.StatusOK || !containsBackend(body, "npm-family") {
		t.Errorf("alice: %d %s", code, body)
	}
	if code, _, _ := npmGet(tr.WebsecureURL, "family.example.com", "/", "alice", "wrong password"); code != http.StatusUnauthorized {
		t.Errorf("a wrong password: %d", code)
	}

	// The redirection hosts redirect: permanently keeping the path, and
	// temporarily to the bare target.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, hdr, _ := npmGet(tr.WebsecureURL, "www.example.com", "/a/b?c=d", "", "")
		return code == http.StatusMovedPermanently && hdr.Get("Location") == "https://example.com/a/b?c=d"
	}, "www.example.com did not redirect")
	if code, hdr, _ := npmGet(tr.WebsecureURL, "short.example.com", "/x", "", ""); code != http.StatusFound || hdr.Get("Location") != "https://blog.example.com" {
		t.Errorf("short.example.com: %d %q", code, hdr.Get("Location"))
	}

	// The IP-only host is on with its list's rules: only 10.0.0.0/8 gets in,
	// so this request, from 127.0.0.1, is refused by forward-auth.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _, _ := npmGet(tr.WebsecureURL, "office.example.com", "/", "", "")
		return code == http.StatusForbidden
	}, "office.example.com did not refuse an address outside its rules")

	// The disabled host is off.
	if code, _, _ := npmGet(tr.WebsecureURL, "old.example.com", "/", "", ""); code != http.StatusNotFound {
		t.Errorf("old.example.com: %d, want 404 (switched off)", code)
	}

	// Traefik loaded everything the panel emitted.
	for _, kind := range []string{"routers", "middlewares"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}

	// The same file again leaves every service as it is (the passwords are
	// hashed anew on each read, so the credential set may count as updated).
	again := postImport(t, p, "/api/import?format=npm", data)
	for _, it := range again.Items {
		if it.Kind == "service" && it.Action != "unchanged" {
			t.Errorf("a second import would %s service %q", it.Action, it.Name)
		}
	}
}

// npmDatabase is the fixture changed by stmts.
func npmDatabase(t *testing.T, stmts ...string) []byte {
	t.Helper()
	src, err := os.ReadFile(npmFixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "database.sqlite")
	if err := os.WriteFile(path, src, 0o600); err != nil { //nolint:gosec // the repository's fixture copied into the test's temporary directory
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(path) //nolint:gosec // the copy this test wrote in its temporary directory
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// npmGet sends a GET with the given Host (and SNI), basic credentials when
// user is set, without following redirects.
func npmGet(base, host, path, user, password string) (int, http.Header, string) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return 0, nil, err.Error()
	}
	req.Host = host
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	c := harness.NoRedirectClient()
	c.Transport.(*http.Transport).TLSClientConfig.ServerName = host
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err.Error()
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}
