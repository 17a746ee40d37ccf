package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// richPanel fills a panel through its API with every kind of thing an
// export carries.
func richPanel(t testing.TB, a *testApp) {
	t.Helper()
	id := func(rec *httptest.ResponseRecorder) string {
		t.Helper()
		if rec.Code != http.StatusCreated && rec.Code != http.StatusOK {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
		return decode[struct {
			ID string `json:"id"`
		}](t, rec).ID
	}
	must := func(rec *httptest.ResponseRecorder) {
		t.Helper()
		if rec.Code >= 300 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	must(a.do("PUT", "/api/config", `{"adminDomain":"panel.example.com","defaultEntrypoints":["websecure"],"globalMiddlewares":["compress@file"],"defaultLifetimeSeconds":0}`))
	d1 := id(a.do("POST", "/api/domains", `{"domain":"example.com","certResolver":"le","wildcard":true,"isDefault":true,
		"certConfigs":[{"main":"example.com","sans":["*.example.com"]}],"https":{"redirect":true,"hsts":{"maxAge":31536000,"includeSubdomains":true}}}`))
	id(a.do("POST", "/api/domains", `{"domain":"example.org","certResolver":"le"}`))
	set := id(a.do("POST", "/api/credential-sets", `{"name":"family","users":[{"username":"ann","password":"correct-horse"},{"username":"bob","password":"battery-staple"}]}`))
	app := id(a.do("POST", "/api/services", `{"name":"App","domainId":"`+d1+`","hostnames":[{"type":"subdomain","value":"app"},{"type":"apex"}],
		"targets":[{"scheme":"http","host":"10.0.0.5","port":8080,"weight":2},{"scheme":"http","host":"10.0.0.6","port":8080}],
		"rules":[{"type":"pathPrefix","value":"/api"}],"headers":{"X-Env":"prod"},
		"loadBalancer":{"healthCheck":{"path":"/health","intervalSeconds":10,"timeoutSeconds":3},"sticky":{"cookieName":"lb","secure":true,"httpOnly":true,"sameSite":"lax"},"timeouts":{"dialSeconds":5}}}`))
	// Same display name slug as App: the collision suffix follows creation order.
	id(a.do("POST", "/api/services", `{"name":"app","domainId":"`+d1+`","hostnames":[{"type":"subdomain","value":"app2"}],"targets":[{"scheme":"https","host":"backend","port":443}],"insecureSkipVerify":true}`))
	id(a.do("POST", "/api/services", `{"name":"Old site","hostnames":[{"type":"custom","value":"old.example.net"}],"kind":"redirect","redirect":{"url":"https://example.com","permanent":true,"keepPath":true}}`))
	id(a.do("POST", "/api/services", `{"name":"Paused","hostnames":[{"type":"custom","value":"paused.example.net"}],"targets":[{"scheme":"http","host":"p","port":80}],"maintenance":{"enabled":true,"message":"Back soon"}}`))
	id(a.do("POST", "/api/services", `{"name":"Off","hostnames":[{"type":"custom","value":"off.example.net"}],"targets":[{"scheme":"http","host":"o","port":80}],"enabled":false}`))
	sso := id(a.do("POST", "/api/services", `{"name":"Wiki","domainId":"`+d1+`","hostnames":[{"type":"subdomain","value":"wiki"}],"targets":[{"scheme":"http","host":"wiki","port":80}],"expiry":{"type":"duration","seconds":86400}}`))
	must(a.do("POST", "/api/services/"+app+"/security-configs", `{"type":"basic_auth","credentialSetId":"`+set+`"}`))
	must(a.do("POST", "/api/services/"+app+"/security-configs", `{"type":"tokens","header":"X-Api-Key"}`))
	must(a.do("POST", "/api/services/"+sso+"/security-configs", `{"type":"shared_links"}`))
	must(a.do("PUT", "/api/services/"+sso+"/access", `{"defaultAction":"authenticate","rules":[{"action":"allow","paths":[{"type":"prefix","value":"/public"}]}]}`))
	must(a.do("PUT", "/api/access/rules", `{"rules":[{"action":"deny","sources":["203.0.113.0/24"]}]}`))
	must(a.do("POST", "/api/machine-tokens", `{"name":"ci","serviceIds":["`+app+`"],"scope":{"pathPrefix":"/api","methods":["GET"]}}`))
}

func proxyConfig(t *testing.T, a *testApp) []byte {
	t.Helper()
	rec := a.do("GET", "/api/proxy/config", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("config: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

type importAnswer struct {
	Applied bool   `json:"applied"`
	Digest  string `json:"digest"`
	Summary map[string]int
	Items   []struct {
		Kind, Name, Action, Reason string
		Fields                     []string
	}
}

// An export imported into an empty panel gives Traefik the very same
// dynamic configuration, byte for byte.
func TestImportReproducesDynamicConfiguration(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	richPanel(t, a)
	rec := a.do("POST", "/api/export", `{"secrets":true,"passphrase":"a long passphrase"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("export: %d %s", rec.Code, rec.Body)
	}
	if cd := rec.Header().Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="gatehouse-export-`) {
		t.Fatalf("Content-Disposition = %q", cd)
	}
	file := rec.Body.String()

	b := newTestApp(t, nil)
	b.signIn()
	pass := []string{"X-Gatehouse-Passphrase", "a long passphrase"}
	dry := b.do("POST", "/api/import", file, pass...)
	if dry.Code != http.StatusOK {
		t.Fatalf("dry run: %d %s", dry.Code, dry.Body)
	}
	plan := decode[importAnswer](t, dry)
	for _, it := range plan.Items {
		if it.Action == "refused" {
			t.Errorf("refused %s %s: %s", it.Kind, it.Name, it.Reason)
		}
	}
	if plan.Applied || plan.Summary["create"] < 10 {
		t.Fatalf("dry run plan = %+v", plan.Summary)
	}
	applied := b.do("POST", "/api/import?apply=true&digest="+plan.Digest, file, pass...)
	if applied.Code != http.StatusOK {
		t.Fatalf("apply: %d %s", applied.Code, applied.Body)
	}
	if got := decode[importAnswer](t, applied); !got.Applied || got.Digest != plan.Digest {
		t.Fatalf("apply answer = %+v", got)
	}
	want, got := proxyConfig(t, a), proxyConfig(t, b)
	if n := bytes.Count(want, []byte(`"gh-`)); n < 10 {
		t.Fatalf("panel A's configuration names only %d objects: %s", n, want)
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("dynamic configuration differs:\nA: %s\nB: %s", want, got)
	}
	// Imported again: everything is unchanged.
	again := decode[importAnswer](t, b.do("POST", "/api/import", file, pass...))
	for _, it := range again.Items {
		if it.Action != "unchanged" {
			t.Errorf("second import: %s %s is %s %v %s", it.Kind, it.Name, it.Action, it.Fields, it.Reason)
		}
	}
	// Panel B's own export equals A's but for the time it was written.
	exp := b.do("POST", "/api/export", `{"secrets":false}`)
	strip := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "exportedAt")
		delete(m, "sealed")
		return m
	}
	wa, _ := json.Marshal(strip(a.do("GET", "/api/export", "").Body.String()))
	wb, _ := json.Marshal(strip(exp.Body.String()))
	if !bytes.Equal(wa, wb) {
		t.Errorf("exports differ:\nA: %s\nB: %s", wa, wb)
	}
}

func TestImportRefusesBadFilesAndChangesNothing(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	richPanel(t, a)
	before := proxyConfig(t, a)
	file := a.do("GET", "/api/export", "").Body.String()
	big := strings.Repeat(" ", 33<<20)
	for _, tc := range []struct {
		name, body string
		code       int
		field      string
	}{
		{"truncated", file[:len(file)/2], 400, "file"},
		{"newer version", strings.Replace(file, `"version": 1`, `"version": 2`, 1), 400, "version"},
		{"huge version", strings.Replace(file, `"version": 1`, `"version": 1e400`, 1), 400, "version"},
		{"huge port", strings.Replace(file, `"port": 8080`, `"port": 99999999999999999999`, 1), 400, "services.targets.port"},
		{"unknown field", strings.Replace(file, `"domains": [`, `"extra": 1, "domains": [`, 1), 400, "extra"},
		{"foreign JSON", `{"hello":"world"}`, 400, "file"},
		{"deep nesting", `{"format":"gatehouse-export","version":1,"config":{"global":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, 400, "file"},
		{"33 MiB", big, 413, "file"},
		{"sealed without passphrase", strings.Replace(file, `"credentialSets": [`, `"sealed": "x", "credentialSets": [`, 1), 400, "passphrase"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.do("POST", "/api/import?apply=true&mode=replace", tc.body)
			if rec.Code != tc.code {
				t.Fatalf("code = %d %s", rec.Code, rec.Body)
			}
			env := decodeEnvelope(t, rec)
			if len(env.Error.Fields) == 0 || env.Error.Fields[0].Field != tc.field {
				t.Fatalf("fields = %+v (%s)", env.Error.Fields, env.Error.Message)
			}
		})
	}
	if after := proxyConfig(t, a); !bytes.Equal(before, after) {
		t.Fatal("a refused import changed the configuration")
	}
	// A file of no known kind: the answer says which kinds the panel reads.
	rec := a.do("POST", "/api/import", "hello: world\n")
	if env := decodeEnvelope(t, rec); rec.Code != 400 || !strings.Contains(env.Error.Message, "a Nginx Proxy Manager database (npm), a Traefik dynamic configuration file (traefik)") {
		t.Fatalf("foreign YAML: %d %s", rec.Code, rec.Body)
	}
}

func TestExportIsASecretRead(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do("POST", "/api/people", `{"username":"viewer","password":"correct-horse-battery","panelRole":"viewer"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create viewer: %d %s", rec.Code, rec.Body)
	}
	login := testutil.Request(a.handler, "POST", "/api/admin/login", `{"username":"viewer","password":"correct-horse-battery"}`)
	var cookie string
	for _, ck := range login.Result().Cookies() {
		if ck.Name == "gatehouse_admin" {
			cookie = ck.Value
		}
	}
	for _, r := range [][2]string{{"GET", "/api/export"}, {"POST", "/api/export"}, {"POST", "/api/import"}} {
		rec := testutil.Request(a.handler, r[0], r[1], `{}`, "Cookie", "gatehouse_admin="+cookie)
		if rec.Code != http.StatusForbidden {
			t.Errorf("%s %s as a viewer = %d", r[0], r[1], rec.Code)
		}
	}
}

// gatehouse export and gatehouse import: a dry run by default, -apply
// writes and is recorded in the audit log as the CLI.
func TestTransferCommands(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	// Each panel's environment, as its commands see it (newTestApp adds the
	// database when the tests run on PostgreSQL).
	envs := map[string]map[string]string{dirA: {"PANEL_DATA_DIR": dirA}, dirB: {"PANEL_DATA_DIR": dirB}}
	if testutil.OnPostgres() {
		envs[dirB]["PANEL_DATABASE_URL"] = testutil.NewDatabase(t)
	}
	a := newTestApp(t, envs[dirA])
	a.signIn()
	richPanel(t, a)
	run := func(dir, stdin string, args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		env := envs[dir]
		code := Run(context.Background(), Options{Args: args, Getenv: func(k string) string { return env[k] },
			Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
		return out.String(), errOut.String(), code
	}
	file := filepath.Join(t.TempDir(), "export.json")
	if out, errOut, code := run(dirA, "a long passphrase\n", "export", "-secrets", "-o", file); code != 0 {
		t.Fatalf("export: %d %s %s", code, out, errOut)
	}
	data, err := os.ReadFile(file) //nolint:gosec // a path the test chose
	if err != nil || !bytes.Contains(data, []byte(`"sealed": "-----BEGIN AGE ENCRYPTED FILE-----`)) {
		t.Fatalf("export file: %v %.200s", err, data)
	}
	if _, errOut, code := run(dirB, "wrong passphrase!\n", "import", file); code == 0 || !strings.Contains(errOut, "passphrase") {
		t.Fatalf("wrong passphrase: %d %s", code, errOut)
	}
	out, errOut, code := run(dirB, "a long passphrase\n", "import", file)
	if code != 0 || !strings.Contains(out, "dry run: nothing was changed") || !regexp.MustCompile(`create\s+service\s+Wiki`).MatchString(out) {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	// Under a serving panel (its lock held), -apply refuses: the panel's
	// caches would not see the change. The dry run above ran regardless.
	lk, err := backup.LockShared(dirB)
	if err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(dirB, "a long passphrase\n", "import", "-apply", file); code == 0 || !strings.Contains(errOut, "panel is running") || !strings.Contains(errOut, "POST /api/import") {
		t.Fatalf("apply under a running panel: %d %s", code, errOut)
	}
	lk.Release()
	if testutil.OnPostgres() {
		// A replica serving from the database on another host (another
		// data directory): -apply refuses too.
		cl, err := cluster.New(t.Context(), envs[dirB]["PANEL_DATABASE_URL"], change.NewBus(), nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); cl.Serving().Run(ctx) }()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			release, err := cluster.Exclusive(t.Context(), envs[dirB]["PANEL_DATABASE_URL"])
			if errors.Is(err, cluster.ErrServing) {
				break
			}
			if err == nil {
				release()
			}
			if time.Now().After(deadline) {
				t.Fatalf("the replica does not hold the serving lock: %v", err)
			}
		}
		if _, errOut, code := run(dirB, "a long passphrase\n", "import", "-apply", file); code == 0 || !strings.Contains(errOut, "serving from this PostgreSQL database") {
			t.Fatalf("apply beside a serving replica: %d %s", code, errOut)
		}
		stop()
		<-done
		cl.Close()
		// PostgreSQL ends the replica's session, and with it the lock, a
		// moment after the connection closes: wait for it before importing.
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			release, err := cluster.Exclusive(t.Context(), envs[dirB]["PANEL_DATABASE_URL"])
			if err == nil {
				release()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the stopped replica still holds the serving lock: %v", err)
			}
		}
	}
	out, errOut, code = run(dirB, "a long passphrase\n", "import", "-apply", file)
	if code != 0 || !strings.Contains(out, "\napplied (gatehouse, merge)") {
		t.Fatalf("apply: %d %s %s", code, out, errOut)
	}
	b := newTestApp(t, envs[dirB])
	b.signIn()
	if !bytes.Equal(proxyConfig(t, a), proxyConfig(t, b)) {
		t.Fatal("the CLI import does not reproduce the configuration")
	}
	rec := b.do("GET", "/api/audit?action=import", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"kind":"system","id":"","name":"cli"`) {
		t.Fatalf("audit: %d %s", rec.Code, rec.Body)
	}
}

// Managed mode: DNS credentials travel by name in the plain export and with
// their values only inside the sealed secrets.
func TestTransferCarriesDNSCredentials(t *testing.T) {
	env := map[string]string{"PANEL_MANAGED": "true", "PANEL_ADMIN_DOMAIN": "panel.example.com", "PANEL_INTERNAL_URL": "http://gatehouse:8081"}
	a := newTestApp(t, maps.Clone(env))
	a.signIn()
	if rec := a.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"CF_DNS_API_TOKEN":"cf-secret-value"}}`); rec.Code != http.StatusOK {
		t.Fatalf("secrets: %d %s", rec.Code, rec.Body)
	}
	plain := a.do("GET", "/api/export", "").Body.String()
	if !strings.Contains(plain, `"CF_DNS_API_TOKEN"`) || strings.Contains(plain, "cf-secret-value") {
		t.Fatalf("plain export: %s", plain)
	}
	sealed := a.do("POST", "/api/export", `{"secrets":true,"passphrase":"a long passphrase"}`).Body.String()

	b := newTestApp(t, maps.Clone(env)) // a panel of its own: its own database
	b.signIn()
	plan := decode[importAnswer](t, b.do("POST", "/api/import", plain))
	var refused bool
	for _, it := range plan.Items {
		refused = refused || (it.Kind == "dnsCredential" && it.Action == "refused")
	}
	if !refused {
		t.Fatalf("a credential without its value was not refused: %+v", plan.Items)
	}
	rec := b.do("POST", "/api/import?apply=true", sealed, "X-Gatehouse-Passphrase", "a long passphrase")
	if rec.Code != http.StatusOK {
		t.Fatalf("apply: %d %s", rec.Code, rec.Body)
	}
	exp := b.do("POST", "/api/export", `{"secrets":true,"passphrase":"another passphrase"}`)
	if !strings.Contains(exp.Body.String(), `"CF_DNS_API_TOKEN"`) {
		t.Fatalf("panel B lacks the credential: %s", exp.Body)
	}
	again := decode[importAnswer](t, b.do("POST", "/api/import", sealed, "X-Gatehouse-Passphrase", "a long passphrase"))
	for _, it := range again.Items {
		if it.Kind == "dnsCredential" && it.Action != "unchanged" {
			t.Fatalf("credential after import: %+v", it)
		}
	}
}
