//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// status is the head every runtime view answers with.
type viewStatus struct {
	Configured bool   `json:"configured"`
	Reachable  bool   `json:"reachable"`
	Error      string `json:"error"`
}

// TestRuntimeViews runs the panel against a real Traefik whose file provider
// defines a router on the same host as a panel service, sends real traffic
// through Traefik, and reads every runtime view; then stops Traefik and sees
// every view answer 200 saying it is unreachable. It runs against every
// Traefik version the suite knows.
func TestRuntimeViews(t *testing.T) {
	harness.ForEachTraefik(t, testRuntimeViews)
}

func testRuntimeViews(t *testing.T, bin harness.TraefikBinary) {
	up := harness.StartBackend(t, "up")
	down := harness.StartBackend(t, "down")
	down.Stop()
	legacy := harness.StartBackend(t, "legacy")

	// Traefik polls the panel and the panel reads Traefik: fix the panel's
	// port first so each can be told the other's address.
	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	fileDir := t.TempDir()
	writeFile(t, filepath.Join(fileDir, "legacy.yml"), fmt.Sprintf(`
http:
  routers:
    legacy:
      rule: "Host(%[1]sother.rt.test%[1]s)"
      entryPoints: [web]
      service: legacy
  middlewares:
    compress:
      compress: {}
  services:
    legacy:
      loadBalancer:
        servers:
          - url: %[2]s
`, "`", legacy.URL))
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: panelURL + "/api/proxy/config", FileDir: fileDir})
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL})

	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "rt.test"}, &dom)
	create := func(name string, targets []*harness.Backend, mws []string) string {
		var svc struct{ ID string }
		ts := make([]map[string]any, len(targets))
		for i, b := range targets {
			ts[i] = map[string]any{"host": b.Host, "port": b.Port}
		}
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": name, "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": name}},
			"targets": ts, "entrypoints": []string{"web"}, "middlewares": mws,
		}, &svc)
		return svc.ID
	}
	app := create("app", []*harness.Backend{up, down}, []string{"compress@file"})
	other := create("other", []*harness.Backend{up}, nil)
	broken := create("broken", []*harness.Backend{up}, []string{"nope@file"})

	harness.Eventually(t, 30*time.Second, func() bool {
		code, body := tr.Get(tr.WebURL, "app.rt.test", "/")
		return code == http.StatusOK && containsBackend(body, "up")
	}, "app.rt.test did not answer through traefik")

	t.Run("runtime", func(t *testing.T) {
		var v struct {
			viewStatus
			Version  string
			Routers  []rtRouter
			Services []struct {
				Name, ServiceID         string
				ServersUp, ServersTotal int
			}
		}
		harness.Eventually(t, 15*time.Second, func() bool {
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/runtime", nil, &v)
			return v.Reachable && len(v.Routers) > 0 && hasRouterOf(v.Routers, broken)
		}, "runtime view does not show the panel's routers")
		if v.Version != bin.Version {
			t.Errorf("version = %q", v.Version)
		}
		owned := map[string]string{}
		for _, r := range v.Routers {
			owned[r.Name] = r.ServiceID
			if r.ServiceID == broken && (r.Status != "disabled" || len(r.Errors) == 0) {
				t.Errorf("broken router = %+v", r)
			}
		}
		if owned["legacy@file"] != "" {
			t.Errorf("legacy@file attributed to %s", owned["legacy@file"])
		}
		found := false
		for _, s := range v.Services {
			if s.ServiceID == app {
				found = true
				if s.ServersTotal != 2 {
					t.Errorf("app service = %+v", s)
				}
			}
		}
		if !found {
			t.Errorf("no Traefik service attributed to app: %+v", v.Services)
		}
	})

	t.Run("entrypoints", func(t *testing.T) {
		var v struct {
			viewStatus
			Items []struct {
				Name string
				TLS  bool
			}
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/entrypoints", nil, &v)
		got := map[string]bool{}
		for _, e := range v.Items {
			got[e.Name] = e.TLS
		}
		if !v.Reachable || len(got) != 3 || got["web"] || !got["websecure"] {
			t.Errorf("entrypoints = %+v", v)
		}
	})

	t.Run("middlewares", func(t *testing.T) {
		var v struct {
			viewStatus
			Items []struct{ Name, Provider, Type, Status string }
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/middlewares", nil, &v)
		if !v.Reachable || len(v.Items) != 1 || v.Items[0].Name != "compress@file" || v.Items[0].Type != "compress" {
			t.Errorf("middlewares = %+v", v)
		}
	})

	t.Run("conflicts", func(t *testing.T) {
		var v struct {
			viewStatus
			Items []struct{ ServiceID, Kind, Host, Router, Provider, Middleware string }
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/conflicts", nil, &v)
		var hostOK, mwOK bool
		for _, c := range v.Items {
			switch {
			case c.Kind == "host" && c.ServiceID == other && c.Router == "legacy@file" && c.Host == "other.rt.test" && c.Provider == "file":
				hostOK = true
			case c.Kind == "missing_middleware" && c.ServiceID == broken && c.Middleware == "nope@file":
				mwOK = true
			case c.ServiceID == app:
				t.Errorf("conflict reported against app: %+v", c)
			}
		}
		if !hostOK || !mwOK {
			t.Errorf("conflicts = %+v", v.Items)
		}
	})

	t.Run("health", func(t *testing.T) {
		var v struct {
			viewStatus
			Items []struct {
				ServiceID string
				Source    string
				Servers   []struct{ URL, Status, Probe string }
			}
		}
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/health?probe=true", nil, &v)
		for _, h := range v.Items {
			if h.ServiceID != app {
				continue
			}
			if h.Source != "traefik" || len(h.Servers) != 2 {
				t.Fatalf("app health = %+v", h)
			}
			for _, s := range h.Servers {
				want := "up"
				if strings.Contains(s.URL, strconv.Itoa(down.Port)) {
					want = "down"
				}
				if s.Probe != want {
					t.Errorf("server %s probe = %q, want %q", s.URL, s.Probe, want)
				}
			}
			return
		}
		t.Errorf("app missing from health: %+v", v)
	})

	t.Run("metrics", func(t *testing.T) {
		// Round-robin over one live and one dead backend: 2xx and 5xx.
		for range 20 {
			tr.Get(tr.WebURL, "app.rt.test", "/")
		}
		type item struct {
			ServiceID   string
			Requests    float64
			RequestRate float64
			ErrorRate   float64
			Status      map[string]float64
			History     []struct{ RequestRate float64 }
		}
		var got item
		harness.Eventually(t, 45*time.Second, func() bool {
			var v struct {
				viewStatus
				Items []item
			}
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/metrics", nil, &v)
			for _, it := range v.Items {
				if it.ServiceID == app {
					got = it
				}
			}
			return got.Requests >= 20
		}, "metrics never counted the requests sent to app")
		if got.Status["2xx"] == 0 || got.Status["5xx"] == 0 || got.ErrorRate <= 0 || got.RequestRate <= 0 || len(got.History) == 0 {
			t.Errorf("app metrics = %+v", got)
		}
	})

	tr.Stop()
	t.Run("traefik stopped", func(t *testing.T) {
		for _, path := range []string{
			"/api/proxy/entrypoints", "/api/proxy/middlewares", "/api/proxy/cert-resolvers",
			"/api/proxy/runtime", "/api/proxy/conflicts", "/api/proxy/certificates",
			"/api/proxy/health", "/api/proxy/health?probe=true", "/api/proxy/metrics",
		} {
			var v viewStatus
			harness.Eventually(t, 10*time.Second, func() bool {
				p.MustJSON(t, http.StatusOK, http.MethodGet, path, nil, &v)
				return v.Configured && !v.Reachable
			}, path+" still says Traefik is reachable")
			// Refused, or reset while Traefik was going away: either way the
			// view must say it cannot reach Traefik.
			if !strings.Contains(v.Error, "cannot reach Traefik") {
				t.Errorf("%s error = %q", path, v.Error)
			}
		}
	})
}

// rtRouter is the part of a runtime router the test reads.
type rtRouter struct {
	Name, Status, ServiceID string
	Errors                  []string
}

func hasRouterOf(routers []rtRouter, id string) bool {
	for _, r := range routers {
		if r.ServiceID == id {
			return true
		}
	}
	return false
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
