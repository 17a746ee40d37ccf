//go:build e2e

package e2e

import (
	"encoding/base64"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// trafficAnswer is the part of GET /api/services/{id}/traffic checked here.
type trafficAnswer struct {
	Source, State, Reason string
	StepSeconds           int64
	Time                  []int64
	Series                map[string][]*float64
	Totals                struct{ Requests, Errors5xx, BytesIn, BytesOut, Denied int64 }
}

func (a *trafficAnswer) sum(name string) float64 {
	var n float64
	for _, v := range a.Series[name] {
		if v != nil {
			n += *v
		}
	}
	return n
}

// upstreamDelay is how long the test upstream takes to answer.
const upstreamDelay = 20 * time.Millisecond

// TestTrafficHistory sends a known mix through a real Traefik with wrk
// (60 % 200, 30 % 404, 10 % 500 from an upstream that answers after 20 ms,
// behind basic auth) and reads it back from the traffic API: first from
// the panel's own history, then, with PANEL_PROMETHEUS_URL, from a real
// Prometheus (Debian's package) that scraped the same Traefik.
func TestTrafficHistory(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	var byClass [6]atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(upstreamDelay)
		code := http.StatusOK
		switch r.URL.Path {
		case "/missing":
			code = http.StatusNotFound
		case "/fail":
			code = http.StatusInternalServerError
		}
		byClass[code/100].Add(1)
		w.WriteHeader(code)
		_, _ = w.Write([]byte("traffic"))
	}))
	t.Cleanup(up.Close)
	upHost, upPortS, _ := net.SplitHostPort(up.Listener.Addr().String())
	upPort, _ := strconv.Atoi(upPortS)

	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: panelURL + "/api/proxy/config",
		// Finer buckets than Traefik's default (0.1, 0.3, 1.2, 5) around the delay.
		Static: "metrics:\n  prometheus:\n    buckets: [0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.05, 0.1, 0.25, 1]\n"})
	var prom *harness.Prometheus
	if _, err := exec.LookPath("prometheus"); err == nil || os.Getenv("PROMETHEUS_BIN") != "" {
		prom = harness.StartPrometheus(t, tr.APIURL[len("http://"):])
	}
	env := map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL}
	p := harness.StartPanel(t, env)

	const host = "traffic.e2e.test"
	var svc, set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "traffic", "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": upHost, "port": upPort}}, "entrypoints": []string{"web"},
	}, &svc)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "wrk",
		"users": []map[string]string{{"username": "wrk", "password": "traffic-e2e-password"}}}, &set)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("wrk:traffic-e2e-password"))
	get := func(path string) int {
		req, _ := http.NewRequest(http.MethodGet, tr.WebURL+path, nil)
		req.Host = host
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	harness.Eventually(t, 30*time.Second, func() bool { return get("/fail") == http.StatusInternalServerError },
		"the service did not answer through Traefik")
	for _, path := range []string{"/ok", "/missing"} {
		get(path) // every series exists before the load: Prometheus's increase() sees it start
	}
	time.Sleep(3 * time.Second)

	script := filepath.Join(t.TempDir(), "mix.lua")
	writeFile(t, script, `local paths = {"/ok", "/ok", "/ok", "/ok", "/ok", "/ok", "/missing", "/missing", "/missing", "/fail"}
local i = 0
request = function()
  i = i + 1
  return wrk.format(nil, paths[(i % #paths) + 1])
end
`)
	out, err := exec.Command("wrk", "-t2", "-c8", "-d30s", "-s", script, "-H", "Host: "+host, //nolint:gosec // the test's own arguments
		"-H", "Authorization: "+auth, tr.WebURL+"/").CombinedOutput()
	if err != nil {
		t.Fatalf("wrk: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(\d+) requests in`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("wrk said:\n%s", out)
	}
	sent, _ := strconv.ParseFloat(string(m[1]), 64)
	t.Logf("wrk:\n%s", out)
	want := [4]float64{float64(byClass[2].Load()), 0, float64(byClass[4].Load()), float64(byClass[5].Load())}
	total := want[0] + want[2] + want[3]
	t.Logf("the upstream answered %v 2xx, %v 4xx, %v 5xx (%v in all; wrk sent %v, the rest are the checks before)",
		want[0], want[2], want[3], total, sent)

	check := func(t *testing.T, a trafficAnswer) {
		t.Helper()
		within := func(name string, got, want float64) {
			t.Helper()
			if math.Abs(got-want) > 0.05*want {
				t.Errorf("%s: %v, want %v within 5 %%", name, got, want)
			}
		}
		within("requests", float64(a.Totals.Requests), total)
		within("requests from wrk", float64(a.Totals.Requests)-(total-sent), sent)
		within("2xx", a.sum("requests2xx"), want[0])
		within("4xx", a.sum("requests4xx"), want[2])
		within("5xx", float64(a.Totals.Errors5xx), want[3])
		if a.Totals.BytesOut <= 0 {
			t.Errorf("bytes out = %d", a.Totals.BytesOut)
		}
		var busiest int
		var most float64
		for i, v := range a.Series["requests2xx"] {
			if v != nil && *v > most {
				busiest, most = i, *v
			}
		}
		p50, p99 := a.Series["latencyP50Ms"][busiest], a.Series["latencyP99Ms"][busiest]
		if p50 == nil || p99 == nil {
			t.Fatalf("no latency where the traffic is: %v", a.Series)
		}
		// Every request waits 20 ms: the median falls in Traefik's 15-25 ms
		// buckets, and the 99th percentile below 100 ms on a busy machine.
		if *p50 < 15 || *p50 > 30 || *p99 < *p50 || *p99 > 100 {
			t.Errorf("p50 %v ms, p99 %v ms: not what a %v upstream gives", *p50, *p99, upstreamDelay)
		}
		t.Logf("%s: %d requests, %d 5xx, p50 %.1f ms, p95 %v ms, p99 %.1f ms at the busiest step", a.Source,
			a.Totals.Requests, a.Totals.Errors5xx, *p50, deref(a.Series["latencyP95Ms"][busiest]), *p99)
	}

	t.Run("panel", func(t *testing.T) {
		var a trafficAnswer
		// The minute rows are written just after each minute ends, from
		// the scrapes of that minute (every 10 s).
		harness.Eventually(t, 150*time.Second, func() bool {
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+svc.ID+"/traffic?range=1h", nil, &a)
			return float64(a.Totals.Requests) >= total
		}, "the traffic history never held the requests sent")
		if a.Source != "panel" || a.State != "ok" || a.StepSeconds != 60 {
			t.Fatalf("source %q state %q (%s) step %d", a.Source, a.State, a.Reason, a.StepSeconds)
		}
		check(t, a)
		if signedIn := a.sum("signedIn"); math.Abs(signedIn-total) > 0.05*total {
			t.Errorf("forward-auth signed in %v requests, want %v within 5 %%", signedIn, total)
		}
		if up := a.Series["up"]; len(up) == 0 {
			t.Error("no up series")
		}
		var g trafficAnswer
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/traffic?range=1h", nil, &g)
		if g.Totals.Requests < a.Totals.Requests {
			t.Errorf("global requests %d < the service's %d", g.Totals.Requests, a.Totals.Requests)
		}
		var list struct {
			Services []struct {
				ServiceID string
				Requests  int64
				Points    []int64
			}
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/traffic/services?range=1h&points=12", nil, &list)
		if len(list.Services) == 0 || list.Services[0].ServiceID != svc.ID || list.Services[0].Requests != a.Totals.Requests {
			t.Errorf("services list = %+v", list.Services)
		}
	})

	t.Run("prometheus", func(t *testing.T) {
		if prom == nil {
			t.Skip("prometheus is not installed (apt-get install prometheus)")
		}
		// The same panel, started again on the same data with
		// PANEL_PROMETHEUS_URL: Traefik's figures now come from PromQL.
		p.Stop()
		env2 := map[string]string{"PANEL_DATA_DIR": p.DataDir, "PANEL_PROMETHEUS_URL": prom.URL}
		for k, v := range env {
			env2[k] = v
		}
		p2 := harness.StartPanel(t, env2)
		var a trafficAnswer
		harness.Eventually(t, 30*time.Second, func() bool {
			return p2.JSON(t, http.MethodGet, "/api/services/"+svc.ID+"/traffic?range=1h", nil, &a) == http.StatusOK &&
				float64(a.Totals.Requests) >= 0.95*total
		}, "Prometheus never answered the requests sent")
		if a.Source != "prometheus" || a.State != "ok" {
			t.Fatalf("source %q state %q (%s)", a.Source, a.State, a.Reason)
		}
		check(t, a)
		if signedIn := a.sum("signedIn"); math.Abs(signedIn-total) > 0.05*total {
			t.Errorf("the decisions (still the panel's) signed in %v, want %v", signedIn, total)
		}
	})
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
