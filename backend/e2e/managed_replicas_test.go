//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestManagedReplicas runs two replicas on one PostgreSQL behind the
// wrapper's Traefik: the wrapper skips a replica that is down, Traefik
// reaches the panel through its loopback entrypoint (forward-auth with the
// client's own address, the HTTP provider), load-balances over both, and
// keeps serving when a replica stops.
func TestManagedReplicas(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("replicas share a PostgreSQL database: set " + testutil.PostgresEnv)
	}
	dbURL := testutil.NewDatabase(t)
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	portA, portB, apiPort, ghPort, web := harness.FreePort(t), harness.FreePort(t), harness.FreePort(t), harness.FreePort(t), harness.FreePort(t)
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
		}
	}
	b := harness.StartPanel(t, env(portB))
	b.MustJSON(t, http.StatusOK, http.MethodPut, "/api/proxy/managed", map[string]any{
		"logLevel":    "INFO",
		"entrypoints": []map[string]any{{"name": "web", "host": "127.0.0.1", "port": web}},
		"resolvers":   []map[string]any{},
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
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) { return d.DialContext(ctx, network, addr) }}}
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

	servers := func() map[string]string {
		var s struct {
			ServerStatus map[string]string `json:"serverStatus"`
		}
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(apiPort) + "/api/http/services/gatehouse-panel@file")
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
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
	// sends it to B. Count what a client sees meanwhile.
	failed, total := 0, 0
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		total++
		if code := from("127.0.0.2"); code != http.StatusOK {
			failed++
		}
	}
	t.Logf("after the first replica stopped: %d of %d requests failed within 5 s", failed, total)
	if failed > 0 {
		t.Errorf("%d of %d requests failed while one replica was down", failed, total)
	}
	harness.Eventually(t, 10*time.Second, func() bool { return servers()[urlA] == "DOWN" },
		"Traefik's health check did not take the stopped replica out")

	// A change on B still reaches Traefik through the panel entrypoint.
	putRules(t, b, svc, "deny", []map[string]any{{"action": "allow", "note": "first loopback", "sources": []string{"127.0.0.1/32"}}})
	harness.Eventually(t, 15*time.Second, func() bool { return from("127.0.0.1") == http.StatusOK && from("127.0.0.2") == http.StatusForbidden },
		"a rule written on the remaining replica did not reach Traefik")
	if w.Exited() {
		t.Fatalf("the wrapper exited: %v", w.Err)
	}
}
