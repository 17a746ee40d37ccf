//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
)

// TestManagedReplicas runs two replicas on one PostgreSQL behind the
// wrapper's Traefik: the wrapper skips a replica that is down, Traefik
// reaches the panel through its loopback entrypoint (forward-auth with the
// client's own address, the HTTP provider), load-balances over both, and
// keeps serving when a replica stops.
func TestManagedReplicas(t *testing.T) {
	dbURL := harness.PostgresDatabase(t)
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	portA, portB, apiPort, ghPort := harness.FreePort(t), harness.FreePort(t), harness.FreePort(t), harness.FreePort(t)
	web, websecure := harness.FreePort(t), harness.FreePort(t)
	urlA, urlB := "http://127.0.0.1:"+strconv.Itoa(portA), "http://127.0.0.1:"+strconv.Itoa(portB)
	cfgDir, dataDir := t.TempDir(), t.TempDir()
	env := func(port int) map[string]string {
		return map[string]string{
			"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_DATA_DIR": dataDir, "PANEL_DATABASE_URL": dbURL,
			"PANEL_AGE_IDENTITY": id.String(), "PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": harness.WrapperToken,
			"PANEL_REPLICA_URLS": urlA + "," + urlB, "PANEL_INTERNAL_URL": "http://127.0.0.1:" + strconv.Itoa(ghPort),
			"PANEL_MANAGED_PANEL_ADDRESS": "127.0.0.1:" + strconv.Itoa(ghPort), "PANEL_MANAGED_CONFIG_DIR": cfgDir,
			"PANEL_MANAGED_API_ADDRESS": "127.0.0.1:" + strconv.Itoa(apiPort),
			"PANEL_PROXY_API_URL":       "http://127.0.0.1:" + strconv.Itoa(apiPort),
			"PANEL_ADMIN_DOMAIN":        "panel.replicas.test",
		}
	}
	b := harness.StartPanel(t, env(portB))
	b.MustJSON(t, http.StatusOK, http.MethodPut, "/api/proxy/managed", map[string]any{
		"logLevel": "INFO",
		"entrypoints": []map[string]any{{"name": "web", "host": "127.0.0.1", "port": web},
			{"name": "websecure", "host": "127.0.0.1", "port": websecure, "tls": true}},
		"resolvers": []map[string]any{},
	}, nil)

	// A is down: the wrapper takes everything from B.
	w := harness.StartWrapper(t, harness.Shells()[len(harness.Shells())-1], urlA+" "+urlB, "GATEHOUSE_CONFIG_DIR="+cfgDir)
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Pinged(apiPort) && status(t, b) == "applied" },
		"Traefik did not start on the configuration fetched from the second replica")

	// Only 127.0.0.2 may pass: forward-auth must see the client's address,
	// not the loopback hop through Traefik's panel entrypoint.
	be := harness.StartBackend(t, "upstream")
	const host = "app.replicas.test"
	svc := ruleService(t, b, be, host, []string{"web"}, nil)
	putRules(t, b, svc, "deny", []map[string]any{{"action": "allow", "note": "second loopback", "sources": []string{"127.0.0.2/32"}}})
	addr := "127.0.0.1:" + strconv.Itoa(web)
	from := func(src string) int {
		d := &net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
		c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			}}}
		r := send(t, c, http.MethodGet, "http://"+host+"/", nil)
		if r.code == http.StatusOK && !r.passed() {
			return 0
		}
		return r.code
	}
	harness.Eventually(t, 30*time.Second, func() bool { return from("127.0.0.2") == http.StatusOK },
		"the allowed client never passed (forward-auth through the panel entrypoint)")
	if code := from("127.0.0.1"); code != http.StatusForbidden {
		t.Fatalf("a client outside the rule: %d; want 403", code)
	}

	// The admin domain's router goes to the replicas' load balancer in the
	// file provider.
	admin := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // Traefik's default certificate
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+strconv.Itoa(websecure))
		}}}
	harness.Eventually(t, 30*time.Second, func() bool {
		resp, err := admin.Get("https://panel.replicas.test/api/system")
		if err != nil {
			return false
		}
		_ = resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, "the admin domain did not reach the panel through gatehouse-panel@file")
	var router struct{ Service, Status string }
	if resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(apiPort) + "/api/http/routers/gh-admin-websecure@http"); err == nil {
		_ = json.NewDecoder(resp.Body).Decode(&router)
		_ = resp.Body.Close()
	}
	if router.Service != "gatehouse-panel@file" || router.Status != "enabled" {
		t.Fatalf("admin router = %+v; want enabled on gatehouse-panel@file", router)
	}

	servers := func() map[string]string {
		var s struct {
			ServerStatus map[string]string `json:"serverStatus"`
		}
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(apiPort) + "/api/http/services/gatehouse-panel-ready@file")
		if err != nil {
			return nil
		}
		defer func() { _ = resp.Body.Close() }()
		_ = json.NewDecoder(resp.Body).Decode(&s)
		return s.ServerStatus
	}
	t.Run("both replicas", func(t *testing.T) {
		harness.StartPanel(t, env(portA))
		harness.Eventually(t, 15*time.Second, func() bool { s := servers(); return s[urlA] == "UP" && s[urlB] == "UP" },
			"Traefik's health check did not bring the first replica into the load balancer")
		for i := 0; i < 10; i++ {
			if code := from("127.0.0.2"); code != http.StatusOK {
				t.Fatalf("request %d over both replicas: %d", i, code)
			}
		}
	}) // A stops here

	// Until the health check notices, a request may go to A: the retry
	// sends it to B. Count what a client sees meanwhile (reported, not
	// asserted: a request A was answering as it stopped may fail).
	failed, total := map[int]int{}, 0
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		total++
		if code := from("127.0.0.2"); code != http.StatusOK {
			failed[code]++
		}
	}
	t.Logf("after the first replica stopped: failed requests by status %v of %d within 5 s", failed, total)
	harness.Eventually(t, 10*time.Second, func() bool { return servers()[urlA] == "DOWN" },
		"Traefik's health check did not take the stopped replica out")
	for i := 0; i < 20; i++ {
		if code := from("127.0.0.2"); code != http.StatusOK {
			t.Fatalf("request %d with one replica out of the load balancer: %d", i, code)
		}
	}

	// A change on B still reaches Traefik through the panel entrypoint.
	putRules(t, b, svc, "deny", []map[string]any{{"action": "allow", "note": "first loopback", "sources": []string{"127.0.0.1/32"}}})
	harness.Eventually(t, 15*time.Second, func() bool { return from("127.0.0.1") == http.StatusOK && from("127.0.0.2") == http.StatusForbidden },
		"a rule written on the remaining replica did not reach Traefik")
	if w.Exited() {
		t.Fatalf("the wrapper exited: %v", w.Err)
	}
}

// fakeReplica answers /api/health with 200 or 503 (ready) and everything
// else with its name, as a replica that lost the database still answers
// forward-auth from memory.
type fakeReplica struct {
	*httptest.Server
	ready atomic.Bool
}

// startFakeReplica starts a replica; without keepAlive it closes every
// connection after its answer, so Traefik never holds one open to it.
func startFakeReplica(t *testing.T, name string, keepAlive bool) *fakeReplica {
	t.Helper()
	r := &fakeReplica{}
	r.ready.Store(true)
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/api/health" && !r.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, name)
	}))
	r.Config.SetKeepAlivesEnabled(keepAlive)
	r.Start()
	t.Cleanup(r.Close)
	return r
}

// port is the replica's listening port.
func (r *fakeReplica) port() int { return r.Listener.Addr().(*net.TCPAddr).Port }

// TestReplicasLoadBalancer runs Traefik (each version) on the file the
// panel builds for PANEL_REPLICA_URLS: replicas that are not ready leave
// the rotation, when none is ready (the database is down for all) every
// live replica still answers, and a replica that goes away costs no
// request unless Traefik had already written one to it.
func TestReplicasLoadBalancer(t *testing.T) {
	harness.ForEachTraefik(t, testReplicasLoadBalancer)
}

func testReplicasLoadBalancer(t *testing.T, bin harness.TraefikBinary) {
	// a never keeps a connection open; c does, as a real replica.
	a, b, c := startFakeReplica(t, "a", false), startFakeReplica(t, "b", true), startFakeReplica(t, "c", true)
	dir := t.TempDir()
	file := managed.BuildReplicas([]string{a.URL, b.URL, c.URL})
	if err := os.WriteFile(filepath.Join(dir, managed.ReplicasFile), file, 0o600); err != nil {
		t.Fatal(err)
	}
	gh := "127.0.0.1:" + strconv.Itoa(harness.FreePort(t))
	harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, FileDir: dir,
		Static: "entryPoints:\n  gatehouse:\n    address: \"" + gh + "\"\n"})
	client := &http.Client{Timeout: 5 * time.Second}
	answers := func(n int) map[string]int {
		got := map[string]int{}
		for i := 0; i < n; i++ {
			resp, err := client.Get("http://" + gh + "/api/auth/verify")
			if err != nil {
				got["error"]++
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				got[strconv.Itoa(resp.StatusCode)]++
				continue
			}
			got[strings.TrimSpace(string(body))]++
		}
		return got
	}
	harness.Eventually(t, 15*time.Second, func() bool { g := answers(12); return g["a"] > 0 && g["b"] > 0 && g["c"] > 0 },
		"Traefik did not balance over the three replicas")

	a.ready.Store(false)
	harness.Eventually(t, 10*time.Second, func() bool { g := answers(10); return g["a"] == 0 && g["b"]+g["c"] == 10 },
		"a replica that is not ready stayed in the rotation")

	b.ready.Store(false)
	c.ready.Store(false)
	harness.Eventually(t, 10*time.Second, func() bool { g := answers(12); return g["a"] > 0 && g["b"] > 0 && g["c"] > 0 },
		"with no replica ready, Traefik did not fall back to every replica")

	// No replica ready and one gone that Traefik held no connection to:
	// every request that picks it is refused before it is written, and the
	// retry sends it to a live one.
	a.Close()
	if g := answers(30); g["b"]+g["c"] != 30 {
		t.Fatalf("with one replica gone (refusing connections) and none ready: %v", g)
	}

	// A replica that dies with keep-alive connections open: Traefik does
	// not retry a request it wrote to one (it cannot tell whether the
	// replica read it), so each connection open at the death may carry
	// one failed request, before Traefik sees it closed; after that, the
	// replica refuses and the retry finds the live one.
	// The listener goes first, so no connection opens after the count.
	_ = c.Listener.Close()
	open := harness.EstablishedTo(c.port())
	c.Close()
	g := answers(30)
	failed := 30 - g["b"]
	t.Logf("Traefik %s: a replica gone with %d connections open: %v", bin.Version, open, g)
	if failed > open || failed != g["502"] {
		t.Fatalf("with a replica gone with %d connections open: %v; want at most %d failed requests, all 502", open, g, open)
	}
	if g := answers(20); g["b"] != 20 {
		t.Fatalf("with one replica left and two gone: %v", g)
	}
}
