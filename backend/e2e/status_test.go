//go:build e2e

package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

type statusView struct {
	Poll struct {
		Polled          bool
		Stopped         bool
		Current         bool
		Behind          int
		IntervalSeconds float64
		Snippet         string
		Last            *struct {
			Remote string
			Code   int
		}
	}
	Traefik  viewStatus
	Services []struct {
		ServiceID string
		State     string
		Message   string
		Errors    []string
	}
}

func (v statusView) badge(id string) (state string, errs []string) {
	for _, b := range v.Services {
		if b.ServiceID == id {
			return b.State, b.Errors
		}
	}
	return "", nil
}

// TestStatusFromEvidence follows a service's badge and the poll line through
// a real Traefik: waiting before Traefik's first poll, live once Traefik runs
// its routers, error with Traefik's message for a router naming a missing
// middleware, and the stopped-polling warning once Traefik is gone.
func TestStatusFromEvidence(t *testing.T) {
	up := harness.StartBackend(t, "up")
	port, apiPort := harness.FreePort(t), harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	p := harness.StartPanel(t, map[string]string{
		"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": "http://127.0.0.1:" + strconv.Itoa(apiPort),
	})
	status := func() statusView {
		var v statusView
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &v)
		return v
	}
	create := func(name string, mws []string) string {
		var svc struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": name, "hostnames": []map[string]string{{"type": "custom", "value": name + ".status.test"}},
			"targets": []map[string]any{{"host": up.Host, "port": up.Port}}, "entrypoints": []string{"web"}, "middlewares": mws,
		}, &svc)
		return svc.ID
	}

	app := create("app", nil)
	v := status()
	if st, _ := v.badge(app); st != "waiting" || v.Poll.Polled {
		t.Fatalf("before Traefik: badge %q, poll %+v; want waiting, never polled", st, v.Poll)
	}
	if !strings.Contains(v.Poll.Snippet, panelURL+"/api/proxy/config") {
		t.Fatalf("snippet = %q", v.Poll.Snippet)
	}

	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: panelURL + "/api/proxy/config", APIPort: apiPort})
	start := time.Now()
	harness.Eventually(t, 15*time.Second, func() bool {
		v = status()
		st, _ := v.badge(app)
		return st == "live" && v.Poll.Current
	}, "the service did not turn live after Traefik polled")
	t.Logf("live %v after Traefik started", time.Since(start).Round(10*time.Millisecond))
	if v.Poll.Last == nil || v.Poll.Last.Remote != "127.0.0.1" {
		t.Fatalf("last poll = %+v", v.Poll.Last)
	}
	if code, body := tr.Get(tr.WebURL, "app.status.test", "/"); code != http.StatusOK || !containsBackend(body, "up") {
		t.Fatalf("through Traefik: %d %s", code, body)
	}

	// A middleware Traefik does not know: the panel accepts the name (it
	// may come from another provider later), Traefik flags the router.
	broken := create("broken", []string{"nope@file"})
	var errs []string
	harness.Eventually(t, 15*time.Second, func() bool {
		var st string
		st, errs = status().badge(broken)
		return st == "error"
	}, "the broken service did not show Traefik's error")
	if len(errs) == 0 || !strings.Contains(errs[0], `"nope@file" does not exist`) {
		t.Fatalf("errors = %q, want Traefik's message", errs)
	}

	// Traefik stops: the warning comes after three measured intervals.
	tr.Stop()
	stopped := time.Now()
	harness.Eventually(t, 15*time.Second, func() bool { v = status(); return v.Poll.Stopped },
		"the poll warning did not appear after Traefik stopped")
	t.Logf("polls stopped noticed %v after Traefik stopped (interval %.1f s)", time.Since(stopped).Round(10*time.Millisecond), v.Poll.IntervalSeconds)
	// Traefik's API answers are cached for a few seconds.
	harness.Eventually(t, 10*time.Second, func() bool { st, _ := status().badge(app); return st == "unknown" },
		"the badge did not turn unknown with Traefik's API gone")
	late := create("late", nil)
	v = status()
	if st, _ := v.badge(late); st != "waiting" || v.Poll.Current || v.Poll.Behind != 1 {
		t.Fatalf("a change after Traefik stopped: badge %q, poll %+v; want waiting, 1 behind", st, v.Poll)
	}
}
