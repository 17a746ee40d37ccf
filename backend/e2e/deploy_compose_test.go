//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// The bundled compose files, run without Docker (see harness.StartCompose).
var composeFiles = []string{"docker-compose.yml", "docker-compose.ha.yml"}

// TestDeployCompose brings each bundled compose file up as `docker compose
// up` would, with the .env its header tells a new user to write, and checks
// what the header and the README promise: the first administrator signs in
// on the admin domain through Traefik, a service routes, only 80 and 443 are
// reachable from outside, every healthcheck passes, a static-configuration
// change restarts Traefik through the wrapper, and the data survives a
// restart of the panel (with several replicas: one stopping does not stop
// the others serving).
func TestDeployCompose(t *testing.T) {
	traefikBin := harness.TraefikBin(t)
	bin := harness.BuildGatehouse(t)
	for _, file := range composeFiles {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("..", "..", file)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s is missing from the repository root: nothing to run (%v)", file, err)
			}
			start := time.Now()
			testDeployment(t, path, bin, traefikBin)
			t.Logf("%s: %.1fs", file, time.Since(start).Seconds())
		})
	}
}

func testDeployment(t *testing.T, file, bin, traefikBin string) {
	env := dotEnvFromHeader(t, file)
	root, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	p := harness.LoadCompose(t, file, root, env.path)
	fastPolls(t, p)
	d := harness.StartCompose(t, p, composeImages(bin, traefikBin))

	var panels []*harness.Container
	var traefik *harness.Container
	for _, name := range d.Order {
		c := d.Containers[name]
		switch {
		case isPanel(c.Config):
			panels = append(panels, c)
		case strings.HasPrefix(c.Config.Image, "traefik:"):
			traefik = c
		}
	}
	if len(panels) == 0 || traefik == nil {
		t.Fatalf("services %v: want a panel and a traefik", d.Order)
	}

	t.Run("healthchecks", func(t *testing.T) {
		for _, name := range d.Order {
			c := d.Containers[name]
			if c.Config.HealthCheck == nil {
				t.Errorf("service %s has no healthcheck", name)
				continue
			}
			var why string
			harness.Eventually(t, 30*time.Second, func() bool {
				if !c.Running() {
					t.Fatalf("service %s exited", name)
				}
				var ok bool
				ok, why = c.Healthy(t.Context())
				return ok
			}, "healthcheck of "+name+" fails")
			t.Logf("%s healthy: %s", name, why)
		}
	})

	domain := env.get(t, "PANEL_ADMIN_DOMAIN")
	out := outsideClient(d)
	panel := &harness.Panel{URL: "https://" + domain, Client: out}

	t.Run("first run", func(t *testing.T) {
		// The panel's router exists once the first administrator does; Traefik
		// picks it up within a provider poll.
		harness.Eventually(t, 30*time.Second, func() bool {
			code, _, loc := get(out, "http://"+domain+"/", nil)
			return code >= 300 && code < 400 && strings.HasPrefix(loc, "https://"+domain)
		}, "http://"+domain+" does not redirect to https")
		login, _ := json.Marshal(map[string]string{
			"username": env.get(t, "PANEL_ADMIN_USER"), "password": env.get(t, "PANEL_ADMIN_PASSWORD"),
		})
		var last string
		harness.Eventually(t, 30*time.Second, func() bool {
			resp, err := out.Post(panel.URL+"/api/admin/login", "application/json", bytes.NewReader(login))
			if err != nil {
				last = err.Error()
				return false
			}
			b, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			last = fmt.Sprintf("%d %.200s", resp.StatusCode, b)
			return resp.StatusCode == http.StatusOK
		}, "the administrator from .env cannot sign in on https://"+domain)
		t.Logf("signed in: %s", last)
		harness.Eventually(t, 30*time.Second, func() bool { return managedStatus(panel) == "applied" },
			"the managed status does not become applied")
	})
	if t.Failed() {
		t.FailNow()
	}

	t.Run("only 80 and 443 from outside", func(t *testing.T) {
		ctx := t.Context()
		host := d.Outside.HostAddr
		for _, port := range []string{"80", "443"} {
			if d.Outside.Unreachable(ctx, net.JoinHostPort(host, port)) {
				t.Errorf("port %s is not reachable from outside", port)
			}
		}
		for _, port := range []string{"8080", "8081", "5432"} {
			if !d.Outside.Unreachable(ctx, net.JoinHostPort(host, port)) {
				t.Errorf("port %s of the host is reachable from outside", port)
			}
		}
		for _, name := range d.Order {
			for _, port := range []string{"80", "443", "8080", "5432"} {
				if addr := net.JoinHostPort(d.Containers[name].Addr, port); !d.Outside.Unreachable(ctx, addr) {
					t.Errorf("%s (%s) is reachable from outside", addr, name)
				}
			}
		}
		// Through the proxy, the wrapper's endpoints refuse even the right token.
		auth := map[string]string{"Authorization": "Bearer " + env.get(t, "GATEHOUSE_WRAPPER_TOKEN")}
		for _, path := range []string{"/api/proxy/managed/secrets-env", "/api/proxy/static-config"} {
			for _, base := range []string{"https://" + domain, "http://" + domain, "http://" + panels[0].Name + ":8080"} {
				if code, body, _ := get(out, base+path, auth); code == http.StatusOK {
					t.Errorf("%s%s answers from outside: %.200s", base, path, body)
				}
			}
		}
		if code, body, _ := get(out, "http://traefik:8080/api/rawdata", nil); code == http.StatusOK {
			t.Errorf("Traefik's API answers from outside: %.200s", body)
		}
	})

	be := startHostBackend(t, d.Gateway, "app")
	var svc struct{ ID string }
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "app", "hostnames": []map[string]string{{"type": "custom", "value": "app.example.net"}},
		"targets": []map[string]any{{"host": be.host, "port": be.port}}, "entrypoints": []string{"web", "websecure"},
	}, &svc)
	t.Run("service routes", func(t *testing.T) {
		routes(t, out, "https://app.example.net/", "app", "")
	})
	t.Run("live view", func(t *testing.T) {
		// PANEL_PROXY_API_URL: the panel reads Traefik's API across the network.
		var last string
		harness.Eventually(t, 30*time.Second, func() bool {
			code, body, _ := get(out, panel.URL+"/api/proxy/runtime", nil)
			last = fmt.Sprintf("%d %.300s", code, body)
			return code == http.StatusOK && strings.Contains(body, "app.example.net")
		}, "the panel's live view does not show the service's router")
		t.Logf("runtime: %.120s", last)
	})

	t.Run("static config change restarts traefik", func(t *testing.T) {
		before := harness.ChildPID(traefik.PID(), "--configFile=")
		if before == 0 {
			t.Fatal("cannot find Traefik under the wrapper")
		}
		var st struct {
			Config map[string]any `json:"config"`
		}
		panel.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/managed", nil, &st)
		found := false
		for _, e := range st.Config["entrypoints"].([]any) {
			if ep := e.(map[string]any); ep["name"] == "web" {
				ep["redirectTo"] = ""
				found = true
			}
		}
		if !found {
			t.Fatalf("no web entrypoint in %v", st.Config)
		}
		put := time.Now()
		panel.MustJSON(t, http.StatusOK, http.MethodPut, "/api/proxy/managed", st.Config, nil)
		harness.Eventually(t, 30*time.Second, func() bool {
			pid := harness.ChildPID(traefik.PID(), "--configFile=")
			return pid != 0 && pid != before && managedStatus(panel) == "applied"
		}, "Traefik was not restarted on the new configuration (or the panel does not say applied)")
		t.Logf("applied %s after the change (Traefik pid %d -> %d)", time.Since(put).Round(100*time.Millisecond),
			before, harness.ChildPID(traefik.PID(), "--configFile="))
		routes(t, out, "http://app.example.net/", "app", "without the redirect")
	})

	protected := ""
	if len(panels) > 1 {
		protected = protectedService(t, panel, out, be)
	}

	t.Run("panel restart keeps the data", func(t *testing.T) {
		// As the header says: the first administrator leaves .env after the start.
		env.drop(t, "PANEL_ADMIN_USER", "PANEL_ADMIN_PASSWORD")
		after := harness.LoadCompose(t, file, root, env.path)
		c := panels[0]
		c.Kill()
		c.Config = after.Services[c.Name]
		if v := c.Config.Environment["PANEL_ADMIN_PASSWORD"]; v != nil && *v != "" {
			t.Fatalf("PANEL_ADMIN_PASSWORD is still set after leaving .env")
		}
		c.Start(t)
		harness.Eventually(t, 30*time.Second, func() bool { ok, _ := c.Healthy(t.Context()); return ok },
			c.Name+" is not healthy after the restart")
		harness.Eventually(t, 30*time.Second, func() bool {
			var got struct{ Name string }
			return tryJSON(panel, http.MethodGet, "/api/services/"+svc.ID, &got) == http.StatusOK && got.Name == "app"
		}, "the service is gone after the panel restarted (or the session is)")
		routes(t, out, "http://app.example.net/", "app", "after the panel restarted")
	})

	if len(panels) > 1 {
		t.Run("one replica stopped", func(t *testing.T) {
			stopped := panels[0]
			stopped.Stop()
			creds := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
			for i := 0; i < 20; i++ {
				if code, _, _ := get(out, "http://"+protected+"/", map[string]string{"Authorization": creds}); code != http.StatusOK {
					t.Errorf("request %d to the protected service with %s stopped: %d", i, stopped.Name, code)
				}
				if code, body, _ := get(out, panel.URL+"/api/admin/me", nil); code != http.StatusOK {
					t.Errorf("request %d to the panel with %s stopped: %d %.200s", i, stopped.Name, code, body)
				}
			}
			if t.Failed() {
				raw, _ := traefik.Exec(t.Context(), "wget", "-q", "-O", "-", "http://127.0.0.1:8080/api/rawdata")
				t.Logf("traefik rawdata: %s", raw)
			}
			stopped.Start(t)
		})
	}
}

// protectedService creates a service behind basic auth (forward-auth to the
// panel) and waits until it asks for and accepts the credentials.
func protectedService(t *testing.T, panel *harness.Panel, out *http.Client, be hostBackend) string {
	t.Helper()
	host := "protected.example.net"
	var set, svc struct{ ID string }
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "deploy", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "protected", "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": be.host, "port": be.port}}, "entrypoints": []string{"web", "websecure"},
	}, &svc)
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)
	creds := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
	harness.Eventually(t, 30*time.Second, func() bool {
		noAuth, _, _ := get(out, "http://"+host+"/", nil)
		code, body, _ := get(out, "http://"+host+"/", map[string]string{"Authorization": creds})
		return noAuth == http.StatusUnauthorized && code == http.StatusOK && containsBackend(body, "app")
	}, host+" does not ask for and accept its credentials")
	return host
}

func isPanel(s types.ServiceConfig) bool {
	return (s.Build != nil && filepath.ToSlash(s.Build.Dockerfile) == "backend/Dockerfile") || strings.HasPrefix(s.Image, "gatehouse:")
}

func composeImages(bin, traefikBin string) harness.ImageFor {
	return func(t testing.TB, s types.ServiceConfig) (harness.Image, bool) {
		switch {
		case isPanel(s):
			return harness.GatehouseImage(bin), true
		case strings.HasPrefix(s.Image, "traefik:v3"):
			return harness.TraefikImage(traefikBin), true
		case s.Image == "postgres:15" || strings.HasPrefix(s.Image, "postgres:15-") || strings.HasPrefix(s.Image, "postgres:15."):
			dir := "/usr/lib/postgresql/15/bin"
			if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
				t.Skipf("%s emulates postgres:15 with Debian's PostgreSQL 15: %v (apt-get install postgresql-15)", s.Name, err)
			}
			return harness.PostgresImage(dir), true
		}
		return harness.Image{}, false
	}
}

// fastPolls makes the wrapper poll every second instead of every 30, so a
// configuration change shows in seconds: the one change to the compose file.
func fastPolls(t *testing.T, p *types.Project) {
	for name, s := range p.Services {
		if s.Environment["GATEHOUSE_POLL_INTERVAL"] != nil {
			one := "1"
			s.Environment["GATEHOUSE_POLL_INTERVAL"] = &one
			p.Services[name] = s
			t.Logf("%s: GATEHOUSE_POLL_INTERVAL=1 for the test", name)
		}
	}
}

type dotEnv struct {
	path string
	vars map[string]string
}

func (e dotEnv) get(t *testing.T, k string) string {
	t.Helper()
	v, ok := e.vars[k]
	if !ok || v == "" {
		t.Fatalf("the compose file's header does not tell to put %s in .env", k)
	}
	return v
}

// drop removes variables from the .env file.
func (e dotEnv) drop(t *testing.T, keys ...string) {
	t.Helper()
	b, err := os.ReadFile(e.path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, _, _ := strings.Cut(line, "=")
		if !slices.Contains(keys, k) {
			keep = append(keep, line)
		}
	}
	if err := os.WriteFile(e.path, []byte(strings.Join(keep, "\n")+"\n"), 0o600); err != nil { //nolint:gosec // the test's own temporary .env
		t.Fatal(err)
	}
}

// The header's `echo "NAME=VALUE" >> .env` lines.
var envLine = regexp.MustCompile(`echo "([A-Z][A-Z0-9_]*)=(.*)" >> \.env`)

// dotEnvFromHeader writes the .env a new user writes by following the
// compose file's header: every `echo "NAME=VALUE" >> .env` line, with
// $(openssl rand -hex N) and $(age-keygen ...) run and a <placeholder>
// filled in. The ACME e-mail
// is left out: this host cannot reach Let's Encrypt.
func dotEnvFromHeader(t *testing.T, file string) dotEnv {
	t.Helper()
	b, err := os.ReadFile(file) //nolint:gosec // one of the repository's compose files
	if err != nil {
		t.Fatal(err)
	}
	e := dotEnv{path: filepath.Join(t.TempDir(), ".env"), vars: map[string]string{}}
	var lines []string
	for _, m := range envLine.FindAllStringSubmatch(string(b), -1) {
		k, v := m[1], m[2]
		if k == "PANEL_ACME_EMAIL" {
			continue
		}
		if r := regexp.MustCompile(`^\$\(openssl rand -hex (\d+)\)$`).FindStringSubmatch(v); r != nil {
			n, _ := strconv.Atoi(r[1])
			v = randomHex(n)
		} else if strings.HasPrefix(v, "$(age-keygen") && strings.Contains(v, "AGE-SECRET-KEY-1") {
			id, err := age.GenerateX25519Identity()
			if err != nil {
				t.Fatal(err)
			}
			v = id.String()
		} else if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
			v = "pw-" + randomHex(12)
		} else if strings.ContainsAny(v, "$`<>") {
			t.Fatalf("header line %q: cannot follow it", m[0])
		}
		e.vars[k] = v
		lines = append(lines, k+"="+v)
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no `echo \"NAME=VALUE\" >> .env` line in the header", file)
	}
	if err := os.WriteFile(e.path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil { //nolint:gosec // the test's own temporary .env
		t.Fatal(err)
	}
	return e
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// outsideClient is a browser on the internet: every host name resolves to
// the Docker host's public address, cookies are kept, TLS is not verified
// (Traefik's default certificate: no ACME here) and redirects not followed.
func outsideClient(d *harness.Deployment) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{
		Jar:           jar,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			DisableKeepAlives: true,
			TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // Traefik's self-signed default certificate
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				_, port, err := net.SplitHostPort(addr)
				if err != nil {
					return nil, err
				}
				return d.Outside.DialContext(ctx, network, net.JoinHostPort(d.Outside.HostAddr, port))
			},
		},
	}
}

func get(c *http.Client, url string, hdr map[string]string) (code int, body, location string) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err.Error(), ""
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err.Error(), ""
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Location")
}

// managedStatus is the panel's managed status, or why it could not be read
// (Traefik restarting answers nothing for a moment).
func managedStatus(p *harness.Panel) string {
	var st struct {
		Status string `json:"status"`
	}
	if code := tryJSON(p, http.MethodGet, "/api/proxy/managed", &st); code != http.StatusOK {
		return fmt.Sprintf("status %d", code)
	}
	return st.Status
}

// tryJSON is a body-less Panel.JSON that returns 0 on a transport or
// decoding error instead of failing the test, for polling.
func tryJSON(p *harness.Panel, method, path string, out any) int {
	req, err := http.NewRequest(method, p.URL+path, nil)
	if err != nil {
		return 0
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.Client.Do(req)
	if err != nil {
		return 0
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return 0
	}
	return resp.StatusCode
}

type hostBackend struct {
	host string
	port int
}

// startHostBackend is an upstream on the Docker host's address on the
// compose network (what host.docker.internal would reach).
func startHostBackend(t *testing.T, ip, name string) hostBackend {
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(harness.BackendReply{Backend: name, Host: r.Host, Path: r.URL.Path})
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return hostBackend{host: ip, port: ln.Addr().(*net.TCPAddr).Port}
}

// routes waits until url answers from the backend called name.
func routes(t *testing.T, c *http.Client, url, name, when string) {
	t.Helper()
	var last string
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, body, loc := get(c, url, nil)
		if code == http.StatusOK && containsBackend(body, name) {
			return
		}
		last = fmt.Sprintf("%d %s %.200s", code, loc, body)
		if time.Now().After(deadline) {
			t.Fatalf("%s does not reach %s %s (last answer: %s)", url, name, when, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
