//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestHTTPSOptionsThroughTraefik proves the HTTPS options through a real
// Traefik: a domain's redirect and HSTS defaults reach its services, a
// service overrides them, every emitted router and middleware loads without
// an error, and the preview warns that a domain without a resolver serves
// Traefik's default certificate.
func TestHTTPSOptionsThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testHTTPSOptions)
}

func testHTTPSOptions(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "app")
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})

	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{
		"domain": "https.test",
		"https":  map[string]any{"redirect": true, "hsts": map[string]any{"maxAge": 31536000, "includeSubdomains": true, "preload": true}},
	}, &dom)
	service := func(sub string, https map[string]any) string {
		var out struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": sub, "domainId": dom.ID,
			"hostnames":   []map[string]string{{"type": "subdomain", "value": sub}},
			"targets":     []map[string]any{{"host": be.Host, "port": be.Port}},
			"entrypoints": []string{"web", "websecure"},
			"https":       https,
		}, &out)
		return out.ID
	}
	inherits := service("inherits", nil)
	service("plain", map[string]any{"redirect": false, "hsts": map[string]any{"maxAge": 0}})

	// The inheriting service redirects plain HTTP to HTTPS, permanently,
	// keeping the path and query.
	harness.Eventually(t, 30*time.Second, func() bool {
		code, hdr := head(tr.WebURL, "inherits.https.test", "/a/b?c=d")
		return code == http.StatusMovedPermanently && hdr.Get("Location") == "https://inherits.https.test/a/b?c=d"
	}, "inherits.https.test on web did not redirect to https")
	// Over TLS it answers with the domain's HSTS policy.
	code, hdr := head(tr.WebsecureURL, "inherits.https.test", "/")
	if code != http.StatusOK || hdr.Get("Strict-Transport-Security") != "max-age=31536000; includeSubDomains; preload" {
		t.Fatalf("websecure: %d, Strict-Transport-Security %q", code, hdr.Get("Strict-Transport-Security"))
	}

	// The overriding service answers on plain HTTP and sends no HSTS.
	code, hdr = head(tr.WebURL, "plain.https.test", "/")
	if code != http.StatusOK || hdr.Get("Location") != "" {
		t.Fatalf("plain on web: %d, Location %q", code, hdr.Get("Location"))
	}
	if code, hdr = head(tr.WebsecureURL, "plain.https.test", "/"); code != http.StatusOK || hdr.Get("Strict-Transport-Security") != "" {
		t.Fatalf("plain on websecure: %d, Strict-Transport-Security %q", code, hdr.Get("Strict-Transport-Security"))
	}

	// Traefik loaded every router and middleware the panel emitted.
	for _, kind := range []string{"routers", "middlewares"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}

	// The domain has no resolver: the preview says websecure serves
	// Traefik's default certificate.
	var pv struct {
		Warnings []struct{ Code, Message string }
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/config/preview?serviceId="+inherits, nil, &pv)
	if len(pv.Warnings) != 1 || pv.Warnings[0].Code != "default_certificate" || !strings.Contains(pv.Warnings[0].Message, "websecure") {
		t.Fatalf("preview warnings = %+v", pv.Warnings)
	}
}

// TestHTTPSRedirectWithDefaultEntrypoints: with the default settings (a
// service on websecure only) a domain's "Redirect HTTP to HTTPS" sends a
// plain request on web to https, over a router the panel adds for it; with
// the redirect off, nothing answers the host on web.
func TestHTTPSRedirectWithDefaultEntrypoints(t *testing.T) {
	harness.ForEachTraefik(t, testHTTPSRedirectDefaults)
}

func testHTTPSRedirectDefaults(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "app")
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})

	var dom struct{ ID string }
	domain := map[string]any{"domain": "defaults.test", "https": map[string]any{"redirect": true}}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", domain, &dom)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "app", "domainId": dom.ID,
		"hostnames": []map[string]string{{"type": "subdomain", "value": "app"}},
		"targets":   []map[string]any{{"host": be.Host, "port": be.Port}},
	}, nil)

	harness.Eventually(t, 30*time.Second, func() bool {
		code, hdr := head(tr.WebURL, "app.defaults.test", "/x?y=1")
		return code == http.StatusMovedPermanently && hdr.Get("Location") == "https://app.defaults.test/x?y=1"
	}, "app.defaults.test on web did not redirect to https")
	if code, _ := head(tr.WebsecureURL, "app.defaults.test", "/"); code != http.StatusOK {
		t.Fatalf("websecure: %d, want 200", code)
	}
	for _, kind := range []string{"routers", "middlewares"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}

	// The redirect off: the plain router goes, the host is not served on web.
	domain["https"] = map[string]any{"redirect": false}
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/domains/"+dom.ID, domain, nil)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := head(tr.WebURL, "app.defaults.test", "/")
		return code == http.StatusNotFound
	}, "app.defaults.test still answered on web with the redirect off")
}

// TestRedirectKindThroughTraefik: a redirect service answers every request
// on its hostnames with the chosen kind of redirect to its URL, keeping the
// path and query or not, and its middleware loads without an error.
func TestRedirectKindThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testRedirectKind)
}

func testRedirectKind(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})
	redirect := func(host string, r map[string]any) {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
			"entrypoints": []string{"web"}, "kind": "redirect", "redirect": r,
		}, nil)
	}
	redirect("moved.test", map[string]any{"url": "https://new.test/base/", "permanent": true, "keepPath": true})
	redirect("promo.test", map[string]any{"url": "https://shop.test/offer?ref=$1&x=$$2", "permanent": false})

	harness.Eventually(t, 30*time.Second, func() bool {
		code, hdr := request(http.MethodGet, tr.WebURL, "moved.test", "/a/b?c=$1")
		return code == http.StatusMovedPermanently && hdr.Get("Location") == "https://new.test/base/a/b?c=$1"
	}, "moved.test did not redirect permanently keeping the path")
	tests := []struct {
		method, host, path string
		status             int
		location           string
	}{
		// Traefik keeps the method for anything but GET: 308 and 307.
		{http.MethodPost, "moved.test", "/form", http.StatusPermanentRedirect, "https://new.test/base/form"},
		{http.MethodGet, "promo.test", "/any/path?q=1", http.StatusFound, "https://shop.test/offer?ref=$1&x=$$2"},
		{http.MethodPost, "promo.test", "/", http.StatusTemporaryRedirect, "https://shop.test/offer?ref=$1&x=$$2"},
	}
	for _, tc := range tests {
		code, hdr := request(tc.method, tr.WebURL, tc.host, tc.path)
		if code != tc.status || hdr.Get("Location") != tc.location {
			t.Errorf("%s %s%s: %d %q, want %d %q", tc.method, tc.host, tc.path, code, hdr.Get("Location"), tc.status, tc.location)
		}
	}
	for _, kind := range []string{"routers", "middlewares"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}
}

// TestMaintenanceThroughTraefik: switching maintenance on makes Traefik
// answer the panel's page for the service's hosts instead of the upstream;
// switching it off brings the upstream back, the settings untouched.
func TestMaintenanceThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testMaintenance)
}

func testMaintenance(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "shop")
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})
	body := func(on bool) map[string]any {
		return map[string]any{
			"name": "shop", "hostnames": []map[string]string{{"type": "custom", "value": "shop.test"}},
			"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
			"maintenance": map[string]any{"enabled": on, "message": "Back at <noon>.\nThanks for waiting."},
		}
	}
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body(false), &svc)
	upstream := func() bool {
		code, b := tr.Get(tr.WebURL, "shop.test", "/cart")
		return code == http.StatusOK && containsBackend(b, "shop")
	}
	harness.Eventually(t, 30*time.Second, upstream, "shop.test did not reach its upstream")

	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+svc.ID, body(true), nil)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, b := tr.Get(tr.WebURL, "shop.test", "/cart?x=1")
		return code == http.StatusServiceUnavailable && strings.Contains(b, "Back at &lt;noon&gt;.\nThanks for waiting.")
	}, "shop.test did not answer the maintenance page")
	for _, kind := range []string{"routers", "middlewares", "services"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}

	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+svc.ID, body(false), nil)
	harness.Eventually(t, 30*time.Second, upstream, "shop.test did not come back to its upstream")
}

// TestLoadBalancerOptionsThroughTraefik: Traefik's health check marks a dead
// target DOWN and keeps sending to the live one, the sticky cookie is set,
// and weights and upstream timeouts load without an error.
func TestLoadBalancerOptionsThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testLoadBalancerOptions)
}

func testLoadBalancerOptions(t *testing.T, bin harness.TraefikBinary) {
	p := harness.StartPanel(t, nil)
	live := harness.StartBackend(t, "live")
	dead := harness.FreePort(t) // nothing listens here
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "lb", "hostnames": []map[string]string{{"type": "custom", "value": "lb.test"}},
		"entrypoints": []string{"web"},
		"targets":     []map[string]any{{"host": live.Host, "port": live.Port, "weight": 3}, {"host": "127.0.0.1", "port": dead, "weight": 1}},
		"loadBalancer": map[string]any{
			"healthCheck": map[string]any{"path": "/health", "intervalSeconds": 1, "timeoutSeconds": 1},
			"sticky":      map[string]any{"cookieName": "gh_lb", "httpOnly": true, "sameSite": "lax"},
			"timeouts":    map[string]any{"dialSeconds": 2, "responseHeaderSeconds": 5},
		},
	}, nil)

	deadURL := "http://127.0.0.1:" + strconv.Itoa(dead)
	harness.Eventually(t, 30*time.Second, func() bool {
		var svc struct{ ServerStatus map[string]string }
		resp, err := http.Get(tr.APIURL + "/api/http/services/gh-lb@http")
		if err != nil {
			return false
		}
		defer func() { _ = resp.Body.Close() }()
		if json.NewDecoder(resp.Body).Decode(&svc) != nil {
			return false
		}
		return svc.ServerStatus[deadURL] == "DOWN" && svc.ServerStatus["http://"+live.Host+":"+strconv.Itoa(live.Port)] == "UP"
	}, "traefik's health check did not mark the dead target DOWN and the live one UP")

	// Only the live target answers now, and the sticky cookie is set.
	for range 5 {
		req, _ := http.NewRequest(http.MethodGet, tr.WebURL+"/", nil)
		req.Host = "lb.test"
		resp, err := harness.NoRedirectClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !containsBackend(string(b), "live") {
			t.Fatalf("lb.test: %d %s", resp.StatusCode, b)
		}
		cookie := resp.Header.Get("Set-Cookie")
		if !strings.HasPrefix(cookie, "gh_lb=") || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
			t.Fatalf("Set-Cookie = %q", cookie)
		}
	}
	// Weights: Traefik's weighted round robin sends 3 of every 4 requests to
	// the target of weight 3.
	heavy, light := harness.StartBackend(t, "heavy"), harness.StartBackend(t, "light")
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "weighted", "hostnames": []map[string]string{{"type": "custom", "value": "weighted.test"}},
		"entrypoints": []string{"web"},
		"targets":     []map[string]any{{"host": heavy.Host, "port": heavy.Port, "weight": 3}, {"host": light.Host, "port": light.Port}},
	}, nil)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := tr.Get(tr.WebURL, "weighted.test", "/")
		return code == http.StatusOK
	}, "weighted.test did not answer")
	counts := map[string]int{}
	for range 40 {
		_, b := tr.Get(tr.WebURL, "weighted.test", "/")
		var r harness.BackendReply
		if json.Unmarshal([]byte(b), &r) == nil {
			counts[r.Backend]++
		}
	}
	if counts["heavy"] != 30 || counts["light"] != 10 {
		t.Errorf("40 requests went %v, want heavy 30, light 10", counts)
	}

	// Traefik lists no status for serversTransports; the services using them are checked.
	for _, kind := range []string{"routers", "services"} {
		for _, o := range runtimeObjects(t, tr, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}
}

// head is request with GET.
func head(base, host, path string) (int, http.Header) {
	return request(http.MethodGet, base, host, path)
}

// request sends a request with the given Host (and SNI) without following
// redirects, and returns the status and headers.
func request(method, base, host, path string) (int, http.Header) {
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		return 0, nil
	}
	req.Host = host
	c := harness.NoRedirectClient()
	c.Transport.(*http.Transport).TLSClientConfig.ServerName = host
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header
}

type runtimeObject struct {
	Name     string   `json:"name"`
	Provider string   `json:"provider"`
	Status   string   `json:"status"`
	Error    []string `json:"error"`
}

// runtimeObjects lists one kind of Traefik's HTTP runtime objects.
func runtimeObjects(t *testing.T, tr *harness.Traefik, kind string) []runtimeObject {
	t.Helper()
	resp, err := http.Get(tr.APIURL + "/api/http/" + kind + "?per_page=1000")
	if err != nil {
		t.Fatalf("traefik %s: %v", kind, err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out []runtimeObject
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("decode traefik %s: %v", kind, err)
	}
	return out
}
