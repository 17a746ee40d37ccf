//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// loopbackConfig is a managed config whose entrypoints bind free loopback ports.
func loopbackConfig(web, websecure int) map[string]any {
	return map[string]any{
		"logLevel": "INFO",
		"entrypoints": []map[string]any{
			{"name": "web", "host": "127.0.0.1", "port": web, "tls": false, "resolver": "", "redirectTo": "websecure"},
			{"name": "websecure", "host": "127.0.0.1", "port": websecure, "tls": true, "resolver": "", "redirectTo": ""},
		},
		"resolvers": []map[string]any{},
	}
}

type managedState struct {
	Status      string `json:"status"`
	Credentials []struct {
		Name string `json:"name"`
	} `json:"credentials"`
}

func status(t *testing.T, p *harness.Panel) string {
	var st managedState
	if code := p.JSON(t, "GET", "/api/proxy/managed", nil, &st); code != 200 {
		t.Fatalf("GET /api/proxy/managed: %d", code)
	}
	return st.Status
}

func TestManagedWrapperRestartsTraefik(t *testing.T) {
	for _, sh := range harness.Shells() {
		t.Run(filepath.Base(sh[0]), func(t *testing.T) { testWrapperRestarts(t, sh) })
	}
}

func testWrapperRestarts(t *testing.T, sh []string) {
	panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
	p := harness.StartManagedPanel(t, panelPort, apiPort, t.TempDir())
	web, websecure := harness.FreePort(t), harness.FreePort(t)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, websecure), nil)
	if s := status(t, p); s != "waiting" {
		t.Fatalf("before any wrapper ran: status %s, want waiting", s)
	}

	w := harness.StartWrapper(t, sh, p.URL)
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Pinged(apiPort) && harness.Redirects(web) },
		"Traefik did not come up with the managed entrypoints")
	harness.Eventually(t, 20*time.Second, func() bool { return status(t, p) == "applied" },
		"the panel did not show applied after the wrapper started Traefik")
	first := w.TraefikPID()
	if first == 0 {
		t.Fatal("cannot find Traefik's process")
	}

	// A new port: pending at once, then Traefik restarts on it.
	newWeb := harness.FreePort(t)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(newWeb, websecure), nil)
	if s := status(t, p); s != "pending" {
		t.Fatalf("right after the change: status %s, want pending", s)
	}
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Redirects(newWeb) && !harness.Listening(web) },
		"Traefik did not move the web entrypoint to the new port")
	harness.Eventually(t, 20*time.Second, func() bool { return status(t, p) == "applied" },
		"the panel did not show applied after the restart")
	second := w.TraefikPID()
	if second == 0 || second == first {
		t.Fatalf("Traefik was not restarted (pid %d, then %d)", first, second)
	}

	// A credential: it reaches Traefik's environment and nothing else.
	value := "e2e-cf-'token'-$(touch pwned)-\nline2"
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed/secrets",
		map[string]any{"upsert": map[string]string{"CF_DNS_API_TOKEN": value}, "remove": []string{}}, nil)
	if s := status(t, p); s != "pending" {
		t.Fatalf("right after the credential: status %s, want pending", s)
	}
	var third int
	harness.Eventually(t, 30*time.Second, func() bool {
		third = w.TraefikPID()
		return third != 0 && third != second && strings.Contains(harness.Environ(t, third), "CF_DNS_API_TOKEN="+value+"\x00")
	}, "the credential did not reach Traefik's environment")
	if env := harness.Environ(t, w.PID()); strings.Contains(env, "CF_DNS_API_TOKEN") || strings.Contains(env, "e2e-cf-") {
		t.Fatal("the credential is in the wrapper's own environment")
	}
	if strings.Contains(harness.Environ(t, third), harness.WrapperToken) {
		t.Fatal("the wrapper token leaked into Traefik's environment")
	}
	if strings.Contains(w.Out.String(), "e2e-cf-") {
		t.Fatal("the wrapper logged the credential")
	}
	harness.Eventually(t, 20*time.Second, func() bool { return status(t, p) == "applied" },
		"the panel did not show applied after the credential restart")

	// SIGTERM stops Traefik, then the wrapper.
	if err := w.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	harness.Eventually(t, 30*time.Second, w.Exited, "the wrapper did not exit after SIGTERM")
	if w.Err != nil {
		t.Fatalf("wrapper exit after SIGTERM: %v (want Traefik's clean exit)", w.Err)
	}
	if err := syscall.Kill(third, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("Traefik (pid %d) still runs after the wrapper exited: %v", third, err)
	}
	if harness.Pinged(apiPort) || harness.Listening(newWeb) {
		t.Fatal("Traefik still answers after SIGTERM")
	}
}

func TestManagedWrapperFallsBackThenFollowsThePanel(t *testing.T) {
	sh := harness.Shells()[len(harness.Shells())-1]
	panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
	dataDir := t.TempDir()
	web, websecure := harness.FreePort(t), harness.FreePort(t)
	t.Run("seed", func(t *testing.T) {
		p := harness.StartManagedPanel(t, panelPort, apiPort, dataDir)
		p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, websecure), nil)
	}) // the panel stops here

	fbWeb, fbAPI := harness.FreePort(t), harness.FreePort(t)
	w := harness.StartWrapper(t, sh, "http://127.0.0.1:"+strconv.Itoa(panelPort),
		"GATEHOUSE_FALLBACK_WEB_ADDRESS=127.0.0.1:"+strconv.Itoa(fbWeb),
		"GATEHOUSE_FALLBACK_API_ADDRESS=127.0.0.1:"+strconv.Itoa(fbAPI))
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Pinged(fbAPI) && harness.Listening(fbWeb) },
		"Traefik did not start with the fallback configuration while the panel was down")

	p := harness.StartManagedPanel(t, panelPort, apiPort, dataDir)
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Pinged(apiPort) && harness.Redirects(web) && !harness.Pinged(fbAPI) },
		"Traefik did not switch to the panel's configuration once the panel was up")
	harness.Eventually(t, 20*time.Second, func() bool { return status(t, p) == "applied" }, "status did not become applied")

	// Traefik dying takes the wrapper down with Traefik's exit code.
	pid := w.TraefikPID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	harness.Eventually(t, 10*time.Second, w.Exited, "the wrapper did not exit when Traefik died")
	var exitErr *exec.ExitError
	if !errors.As(w.Err, &exitErr) || exitErr.ExitCode() != 128+int(syscall.SIGKILL) {
		t.Fatalf("wrapper exit = %v; want code %d (Traefik killed by SIGKILL)", w.Err, 128+int(syscall.SIGKILL))
	}
}

// TestManagedStaticConfigAcceptedByTraefik runs Traefik on a configuration
// using every challenge type, a host-bound entrypoint and a DNS provider with
// credentials, and checks Traefik loads all of it (entrypoints, resolvers).
func TestManagedStaticConfigAcceptedByTraefik(t *testing.T) {
	panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
	p := harness.StartManagedPanel(t, panelPort, apiPort, t.TempDir())
	web, websecure, internal := harness.FreePort(t), harness.FreePort(t), harness.FreePort(t)
	cfg := loopbackConfig(web, websecure)
	cfg["logLevel"] = "DEBUG"
	cfg["entrypoints"] = append(cfg["entrypoints"].([]map[string]any),
		map[string]any{"name": "internal", "host": "127.0.0.1", "port": internal, "tls": true, "resolver": "dns", "redirectTo": ""})
	cfg["resolvers"] = []map[string]any{
		{"name": "alpn", "email": "ops@gatehouse.dev", "challenge": "tlsalpn"},
		{"name": "http", "email": "ops@gatehouse.dev", "challenge": "http", "httpEntrypoint": "web"},
		{"name": "dns", "email": "ops@gatehouse.dev", "challenge": "dns", "dnsProvider": "cloudflare",
			"dnsResolvers": []string{"1.1.1.1"}, "propagationDelaySeconds": 5},
	}
	cfg["entrypoints"].([]map[string]any)[1]["resolver"] = "alpn"
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", cfg, nil)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed/secrets",
		map[string]any{"upsert": map[string]string{"CF_DNS_API_TOKEN": "not-a-real-token"}}, nil)

	sh := harness.Shells()[len(harness.Shells())-1]
	w := harness.StartWrapper(t, sh, p.URL)
	harness.Eventually(t, 30*time.Second, func() bool { return status(t, p) == "applied" }, "status did not become applied")
	var eps []struct {
		Name    string `json:"name"`
		Address string `json:"address"`
		HTTP    struct {
			TLS *struct {
				CertResolver string `json:"certResolver"`
			} `json:"tls"`
		} `json:"http"`
	}
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(apiPort) + "/api/entrypoints")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(&eps); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range eps {
		r := "-"
		if e.HTTP.TLS != nil {
			r = e.HTTP.TLS.CertResolver
		}
		got[e.Name] = e.Address + " " + r
	}
	want := map[string]string{
		"web":       "127.0.0.1:" + strconv.Itoa(web) + " -",
		"websecure": "127.0.0.1:" + strconv.Itoa(websecure) + " alpn",
		"internal":  "127.0.0.1:" + strconv.Itoa(internal) + " dns",
		"traefik":   "127.0.0.1:" + strconv.Itoa(apiPort) + " -",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("entrypoint %s = %q; want %q (all: %v)", k, got[k], v, got)
		}
	}
	if !w.Exited() && w.TraefikPID() == 0 {
		t.Fatal("Traefik is not running")
	}
	out := w.Out.String()
	for _, bad := range []string{"Command error", "ACME resolve is skipped", "challenge is not enabled", "not-a-real-token"} {
		if strings.Contains(out, bad) {
			t.Fatalf("Traefik's log shows %q:\n%s", bad, out)
		}
	}
}

// TestManagedWrapperRollsBackAConfigTraefikRejects moves an entrypoint to a
// port somebody else holds: Traefik cannot start on it, so the wrapper goes
// back to the previous configuration and the panel stays pending until the
// configuration is fixed.
func TestManagedWrapperRollsBackAConfigTraefikRejects(t *testing.T) {
	for _, sh := range harness.Shells() {
		t.Run(filepath.Base(sh[0]), func(t *testing.T) { testWrapperRollsBack(t, sh) })
	}
}

func testWrapperRollsBack(t *testing.T, sh []string) {
	panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
	p := harness.StartManagedPanel(t, panelPort, apiPort, t.TempDir())
	web, websecure := harness.FreePort(t), harness.FreePort(t)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, websecure), nil)
	w := harness.StartWrapper(t, sh, p.URL)
	harness.Eventually(t, 30*time.Second, func() bool { return status(t, p) == "applied" }, "status did not become applied")

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = busy.Close() }()
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, busy.Addr().(*net.TCPAddr).Port), nil)
	harness.Eventually(t, 30*time.Second, func() bool { return strings.Contains(w.Out.String(), "going back to the previous one") },
		"the wrapper did not roll back the configuration Traefik rejected")
	harness.Eventually(t, 20*time.Second, func() bool { return harness.Pinged(apiPort) && harness.Redirects(web) && harness.Listening(websecure) },
		"Traefik does not run the previous configuration after the rollback")
	time.Sleep(3 * time.Second) // a few polls: the rejected configuration is not retried
	if w.Exited() {
		t.Fatalf("the wrapper exited: %v", w.Err)
	}
	if n := strings.Count(w.Out.String(), "going back to the previous one"); n != 1 {
		t.Fatalf("the rejected configuration was retried (%d rollbacks)", n)
	}
	var st struct {
		Status    string
		Rejection *struct{ Reason string }
	}
	harness.Eventually(t, 10*time.Second, func() bool {
		p.MustJSON(t, 200, "GET", "/api/proxy/managed", nil, &st)
		return st.Status == "rejected"
	}, "the panel did not show the rejection")
	if st.Rejection == nil || !strings.Contains(st.Rejection.Reason, "exited with code") {
		t.Fatalf("rejection = %+v, want the exit code", st.Rejection)
	}

	fixed := harness.FreePort(t)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, fixed), nil)
	harness.Eventually(t, 30*time.Second, func() bool { return status(t, p) == "applied" && harness.Listening(fixed) },
		"the fixed configuration was not applied")
}

// TestManagedSecretsUnreadableThroughThePublicDomain goes through Traefik to
// the panel on its admin domain, signed in and with the wrapper token, and
// still cannot read the credentials or the static configuration.
func TestManagedSecretsUnreadableThroughThePublicDomain(t *testing.T) {
	panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
	dataDir := t.TempDir()
	const domain = "panel.gatehouse.test"
	url := "http://127.0.0.1:" + strconv.Itoa(panelPort)
	p := harness.StartPanel(t, map[string]string{
		"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(panelPort), "PANEL_DATA_DIR": dataDir,
		"PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": harness.WrapperToken, "PANEL_INTERNAL_URL": url,
		"PANEL_MANAGED_API_ADDRESS": "127.0.0.1:" + strconv.Itoa(apiPort), "PANEL_ADMIN_DOMAIN": domain,
	})
	web, websecure := harness.FreePort(t), harness.FreePort(t)
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, websecure), nil)
	const value = "public-domain-canary-7d1e"
	p.MustJSON(t, 200, "PUT", "/api/proxy/managed/secrets",
		map[string]any{"upsert": map[string]string{"DO_AUTH_TOKEN": value}}, nil)
	harness.StartWrapper(t, harness.Shells()[0], p.URL)
	harness.Eventually(t, 30*time.Second, func() bool { return status(t, p) == "applied" }, "status did not become applied")

	client := harness.NoRedirectClient()
	get := func(path string, auth func(*http.Request)) (int, string) {
		req, err := http.NewRequest("GET", "https://127.0.0.1:"+strconv.Itoa(websecure)+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = domain
		auth(req)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer func() { _ = resp.Body.Close() }()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	basic := func(r *http.Request) { r.SetBasicAuth(harness.AdminUser, harness.AdminPassword) }
	// The admin router is up once the health endpoint answers through it.
	harness.Eventually(t, 30*time.Second, func() bool { code, _ := get("/api/health", basic); return code == 200 },
		"the panel is not reachable on its admin domain through Traefik")

	for _, c := range []struct {
		name string
		path string
		auth func(*http.Request)
	}{
		{"secrets with basic auth", "/api/proxy/managed/secrets-env", basic},
		{"secrets with the wrapper token", "/api/proxy/managed/secrets-env", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+harness.WrapperToken)
		}},
		{"static config", "/api/proxy/static-config", basic},
	} {
		code, body := get(c.path, c.auth)
		if code != http.StatusForbidden && code != http.StatusUnauthorized {
			t.Errorf("%s: %d %s; want 403 or 401", c.name, code, body)
		}
		if strings.Contains(body, value) || strings.Contains(body, "export ") {
			t.Fatalf("%s: the credential leaked through the public domain: %s", c.name, body)
		}
	}
	if code, body := get("/api/proxy/managed/secrets-env", basic); code != http.StatusForbidden {
		t.Errorf("signed-in request through Traefik: %d %s; want the panel's 403", code, body)
	}
}
