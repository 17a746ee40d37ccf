//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
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

// head sends a GET with the given Host (and SNI) without following
// redirects, and returns the status and headers.
func head(base, host, path string) (int, http.Header) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
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
	defer resp.Body.Close()
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
	defer resp.Body.Close()
	var out []runtimeObject
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("decode traefik %s: %v", kind, err)
	}
	return out
}
