//go:build e2e

package e2e

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestAlertFiresAndRecovers sends a steady trickle of requests through a
// real Traefik to a service behind basic auth whose upstream first answers
// 500, then 200. The panel stores Traefik's figures each minute; a rule
// "5xx above 50 % for 1 minute" fires once and then recovers, each message
// reaching a local webhook through a notification channel, and the history
// shows the resolved episode. Beside it, a real Prometheus scrapes the
// panel's /metrics from loopback (forward-auth's decisions by service
// included), while /metrics refuses the admin domain through Traefik.
func TestAlertFiresAndRecovers(t *testing.T) {
	var failing atomic.Bool
	var failed atomic.Int64 // 500s the upstream itself answered
	failing.Store(true)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if failing.Load() {
			failed.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(up.Close)
	upHost, upPortS, _ := net.SplitHostPort(up.Listener.Addr().String())
	upPort, _ := strconv.Atoi(upPortS)

	var mu sync.Mutex
	var titles []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		title, _ := m["title"].(string)
		mu.Lock()
		titles = append(titles, title)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), titles...)
	}

	port := harness.FreePort(t)
	panelAddr := "127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: "http://" + panelAddr + "/api/proxy/config"})
	const adminDomain = "panel.alerts.e2e.test"
	// Managed mode routes the admin domain to the panel (on the TLS
	// entrypoint): the public way in whose /metrics must stay shut.
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": panelAddr, "PANEL_PROXY_API_URL": tr.APIURL,
		"PANEL_MANAGED": "true", "PANEL_INTERNAL_URL": "http://" + panelAddr, "PANEL_ADMIN_DOMAIN": adminDomain})

	const host = "shop.alerts.e2e.test"
	var svc, set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "shop", "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": upHost, "port": upPort}}, "entrypoints": []string{"web"},
	}, &svc)
	const password = "alerts-e2e-password" //nolint:gosec // the test's own credential set
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "shoppers",
		"users": []map[string]string{{"username": "shopper", "password": password}}}, &set)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/notifications/channels", map[string]any{
		"name": "receiver", "kind": "webhook", "events": []string{"alert_firing"},
		"secrets": map[string]any{"webhookUrl": recv.URL + "/alerts"},
	}, nil)
	var rule struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/alerts/rules", map[string]any{
		"name": "shop errors", "serviceId": svc.ID, "kind": "error_ratio", "threshold": 50, "forMinutes": 1,
	}, &rule)

	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("shopper:"+password))
	send := func() int {
		req, _ := http.NewRequest(http.MethodGet, tr.WebURL+"/", nil)
		req.Host = host
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	harness.Eventually(t, 30*time.Second, func() bool { return send() == http.StatusInternalServerError && failed.Load() > 0 },
		"the service did not answer through Traefik")
	stop := make(chan struct{})
	var load sync.WaitGroup
	load.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				send()
			}
		}
	})
	t.Cleanup(func() { close(stop); load.Wait() })

	t.Run("metrics", func(t *testing.T) {
		// Through Traefik on the admin domain the panel answers (its health),
		// but never its metrics, token or not.
		harness.Eventually(t, 30*time.Second, func() bool {
			c, _ := tr.Get(tr.WebsecureURL, adminDomain, "/api/health")
			return c == http.StatusOK
		}, "the admin domain did not reach the panel through Traefik")
		if c, body := tr.Get(tr.WebsecureURL, adminDomain, "/metrics"); c != http.StatusNotFound || strings.Contains(body, "gatehouse_") {
			t.Fatalf("/metrics on the admin domain through Traefik: %d %.200s", c, body)
		}
		prom := harness.StartPrometheus(t, panelAddr)
		query := func(q string) int {
			resp, err := http.Get(prom.URL + "/api/v1/query?query=" + url.QueryEscape(q))
			if err != nil {
				return 0
			}
			defer func() { _ = resp.Body.Close() }()
			var a struct {
				Data struct{ Result []json.RawMessage }
			}
			_ = json.NewDecoder(resp.Body).Decode(&a)
			return len(a.Data.Result)
		}
		queries := []string{
			`sum(gatehouse_verify_decisions_total{service="shop",decision=~"allowed|signed_in"}) > 0`,
			`gatehouse_traefik_polls_total > 0`,
			`gatehouse_cluster_leader == 1`,
		}
		var missing []string
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Second) {
			missing = missing[:0]
			for _, q := range queries {
				if query(q) != 1 {
					missing = append(missing, q)
				}
			}
			if len(missing) == 0 || time.Now().After(deadline) {
				break
			}
		}
		if len(missing) > 0 {
			t.Fatalf("Prometheus scraping the panel never answered %q", missing)
		}
	})

	// The rule needs one settled minute above 50 %: the minute is written
	// after it ends and read a minute later, at the next evaluation.
	harness.Eventually(t, 4*time.Minute, func() bool { return len(got()) >= 1 }, "the alert never fired")
	if g := got(); len(g) != 1 || g[0] != "Alert: shop errors (shop)" {
		t.Fatalf("the webhook got %q", g)
	}
	var rules struct{ Items []struct{ Firing bool } }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/alerts/rules", nil, &rules)
	if len(rules.Items) != 1 || !rules.Items[0].Firing {
		t.Fatalf("rules: %+v", rules.Items)
	}
	failing.Store(false)
	harness.Eventually(t, 4*time.Minute, func() bool { return len(got()) >= 2 }, "the alert never recovered")
	time.Sleep(2 * time.Second)
	if g := got(); len(g) != 2 || g[1] != "Resolved: shop errors (shop)" {
		t.Fatalf("the webhook got %q", g)
	}
	var events struct {
		Items []struct {
			State      string
			Value      *float64
			Resolution string
		}
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/alerts/events?ruleId="+rule.ID, nil, &events)
	if len(events.Items) != 1 || events.Items[0].State != "resolved" || events.Items[0].Resolution != "recovered" ||
		events.Items[0].Value == nil || *events.Items[0].Value <= 50 {
		t.Fatalf("history: %+v", events.Items)
	}
	t.Logf("fired at %.1f %% 5xx, then recovered", *events.Items[0].Value)
}
