//go:build e2e

package e2e

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestDynamicConfigThroughTraefik proves GET /api/proxy/config against a real
// Traefik polling it: routing by Host, load balancing, disabling, expiry,
// TLS only on the TLS entrypoint, and every emitted router enabled.
func TestDynamicConfigThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	one, two := harness.StartBackend(t, "one"), harness.StartBackend(t, "two")
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "e2e.test"}, &dom)
	service := func(name, sub string, extra map[string]any) map[string]any {
		body := map[string]any{
			"name": name, "domainId": dom.ID,
			"hostnames":   []map[string]string{{"type": "subdomain", "value": sub}},
			"targets":     []map[string]any{{"host": one.Host, "port": one.Port}},
			"entrypoints": []string{"web", "websecure"},
		}
		for k, v := range extra {
			body[k] = v
		}
		var out map[string]any
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body, &out)
		return out
	}
	service("balanced", "lb", map[string]any{"targets": []map[string]any{
		{"host": one.Host, "port": one.Port}, {"host": two.Host, "port": two.Port},
	}})
	off := service("to disable", "off", nil)
	service("expiring", "exp", map[string]any{"expiry": map[string]any{
		"type": "at", "at": time.Now().Add(4 * time.Second).UTC().Format(time.RFC3339Nano),
	}})
	service("rules", "rules", map[string]any{"rules": []map[string]string{
		{"type": "pathPrefix", "value": "/api"}, {"type": "path", "value": "/api/exact"},
		{"type": "header", "name": "X-Env", "value": "e2e"}, {"type": "query", "name": "q", "value": "1"},
		{"type": "method", "value": "GET"}, {"type": "clientIP", "value": "127.0.0.0/8"},
	}})

	// Routed by Host, on plain HTTP through web.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, body := tr.Get(tr.WebURL, "lb.e2e.test", "/")
		return code == http.StatusOK && (containsBackend(body, "one") || containsBackend(body, "two"))
	}, "lb.e2e.test did not answer through traefik's web entrypoint")

	// A second target is load-balanced: both backends answer across requests.
	seen := map[string]bool{}
	harness.Eventually(t, 30*time.Second, func() bool {
		_, body := tr.Get(tr.WebURL, "lb.e2e.test", "/")
		var r harness.BackendReply
		if json.Unmarshal([]byte(body), &r) == nil {
			seen[r.Backend] = true
		}
		return seen["one"] && seen["two"]
	}, "both targets of lb.e2e.test should answer across requests")

	// TLS on websecure, plain HTTP on web.
	harness.Eventually(t, 30*time.Second, func() bool {
		state, code := getTLS(tr.WebsecureURL, "lb.e2e.test")
		return state != nil && code == http.StatusOK
	}, "lb.e2e.test did not answer over TLS on websecure")
	// Traefik terminates a TLS handshake on any entrypoint with its default
	// certificate, but only TLS routers match such requests: the web router
	// has no TLS block, so over TLS the host is unknown there.
	if state, code := getTLS(strings.Replace(tr.WebURL, "http://", "https://", 1), "lb.e2e.test"); state != nil && code != http.StatusNotFound {
		t.Errorf("the web router must not serve TLS: status %d over TLS on web", code)
	}

	// Rules of every type are accepted by Traefik and match.
	harness.Eventually(t, 30*time.Second, func() bool {
		return getWith(tr.WebURL+"/api/exact?q=1", "rules.e2e.test", map[string]string{"X-Env": "e2e"}) == http.StatusOK
	}, "the rules service did not match a request satisfying its rules")
	if code := getWith(tr.WebURL+"/api/exact?q=1", "rules.e2e.test", nil); code != http.StatusNotFound {
		t.Errorf("a request missing the header rule: status %d, want 404", code)
	}

	// Every emitted router is listed by Traefik, enabled, without error.
	var cfg struct {
		HTTP struct {
			Routers map[string]json.RawMessage `json:"routers"`
		} `json:"http"`
	}
	harness.Eventually(t, 30*time.Second, func() bool {
		resp, err := http.Get(p.URL + "/api/proxy/config")
		if err != nil {
			return false
		}
		defer func() { _ = resp.Body.Close() }()
		if err := json.NewDecoder(resp.Body).Decode(&cfg); err != nil {
			return false
		}
		byName := map[string]harness.Router{}
		for _, r := range tr.Routers(t) {
			byName[r.Name] = r
		}
		for name := range cfg.HTTP.Routers {
			r, ok := byName[name+"@http"]
			if !ok || r.Status != "enabled" || len(r.Error) > 0 {
				return false
			}
		}
		return len(cfg.HTTP.Routers) >= 8
	}, "traefik should list every emitted router as enabled with no error")
	for _, r := range tr.Routers(t) {
		if r.Provider == "http" && (r.Status != "enabled" || len(r.Error) > 0) {
			t.Errorf("router %s: status %s errors %v", r.Name, r.Status, r.Error)
		}
	}

	// A disabled service stops routing.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := tr.Get(tr.WebURL, "off.e2e.test", "/")
		return code == http.StatusOK
	}, "off.e2e.test should route before it is disabled")
	off["enabled"] = false
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+off["id"].(string), off, nil)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := tr.Get(tr.WebURL, "off.e2e.test", "/")
		return code == http.StatusNotFound
	}, "off.e2e.test should stop routing once disabled")

	// An expired service stops routing, and the API shows it disabled.
	harness.Eventually(t, 60*time.Second, func() bool {
		code, _ := tr.Get(tr.WebURL, "exp.e2e.test", "/")
		return code == http.StatusNotFound
	}, "exp.e2e.test should stop routing once expired")
	var list struct {
		Items []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		} `json:"items"`
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services", nil, &list)
	for _, s := range list.Items {
		if s.Name == "expiring" && s.Enabled {
			t.Error("the expired service is still enabled in the API")
		}
	}
}

// getTLS requests base with the host as Host and SNI; it returns the TLS
// state (nil for plain HTTP or a failed handshake) and the status.
func getTLS(base, host string) (*tls.ConnectionState, int) {
	req, err := http.NewRequest(http.MethodGet, base+"/", nil)
	if err != nil {
		return nil, 0
	}
	req.Host = host
	c := harness.NoRedirectClient()
	c.Transport.(*http.Transport).TLSClientConfig.ServerName = host
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.TLS, resp.StatusCode
}

func getWith(url, host string, hdr map[string]string) int {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	req.Host = host
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := harness.NoRedirectClient().Do(req)
	if err != nil {
		return 0
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestDynamicConfigManagedThroughTraefik covers managed mode: the admin
// router on the TLS entrypoint, guarded by the panel itself, and certificate-trigger
// routers (with a resolver Traefik knows) answered by the panel.
func TestDynamicConfigManagedThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	port := harness.FreePort(t)
	internal := "http://127.0.0.1:" + strconv.Itoa(port)
	p := harness.StartPanel(t, map[string]string{
		"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_INTERNAL_URL": internal,
		"PANEL_MANAGED": "true", "PANEL_ADMIN_DOMAIN": "panel.e2e.test",
	})
	// A resolver Traefik knows; its CA is unreachable, so no certificate is
	// issued, but routers that name it are valid.
	acme := t.TempDir()
	tr := harness.StartTraefik(t, harness.TraefikOptions{
		ProviderURL: p.URL + "/api/proxy/config",
		Static: "certificatesResolvers:\n  le:\n    acme:\n      email: e2e@example.com\n      storage: " + acme + "/acme.json\n" +
			"      caServer: http://127.0.0.1:1/directory\n      tlsChallenge: {}\n",
	})
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{
		"domain": "certs.e2e.test", "certResolver": "le",
		"certConfigs": []map[string]any{{"main": "extra.certs.e2e.test", "sans": []string{"more.certs.e2e.test"}}},
	}, nil)

	// The admin router reaches the panel with no layer of Traefik's own: the
	// login page and public routes answer, and the panel's session guard
	// refuses everything else without a session.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := tr.Get(tr.WebsecureURL, "panel.e2e.test", "/api/health")
		return code == http.StatusOK
	}, "the admin router should reach the panel on websecure")
	if code, body := tr.Get(tr.WebsecureURL, "panel.e2e.test", "/api/services"); code != http.StatusUnauthorized {
		t.Errorf("GET /api/services through the admin router without a session: %d %s, want 401", code, body)
	}
	if code, _ := tr.Get(tr.WebsecureURL, "panel.e2e.test", "/login"); code != http.StatusOK {
		t.Errorf("the login page through the admin router: %d", code)
	}
	if code, _ := tr.Get(tr.WebURL, "panel.e2e.test", "/api/health"); code != http.StatusNotFound {
		t.Errorf("the admin router must be on TLS entrypoints only: status %d on web", code)
	}
	// Through the public admin domain the dynamic configuration is refused.
	req, _ := http.NewRequest(http.MethodGet, tr.WebsecureURL+"/api/proxy/config", nil)
	req.Host = "panel.e2e.test"
	req.SetBasicAuth(harness.AdminUser, harness.AdminPassword)
	if resp, err := harness.NoRedirectClient().Do(req); err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET /api/proxy/config through the admin domain: status %d, want 403", resp.StatusCode)
		}
	}

	// The certificate-trigger router is answered by the panel with a blank page.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, body := tr.Get(tr.WebsecureURL, "extra.certs.e2e.test", "/.well-known/gatehouse-cert-trigger")
		return code == http.StatusOK && strings.Contains(body, "<title>")
	}, "the certificate-trigger router should be answered by the panel")

	harness.Eventually(t, 30*time.Second, func() bool {
		found := map[string]bool{}
		for _, r := range tr.Routers(t) {
			if r.Provider != "http" {
				continue
			}
			if r.Status != "enabled" || len(r.Error) > 0 {
				return false
			}
			found[r.Name] = true
		}
		return found["gh-admin-websecure@http"] && found["gh-cert-certs-e2e-test-1@http"]
	}, "traefik should list the admin and certificate-trigger routers as enabled with no error")
}
