//go:build e2e

package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

const e2eProviderToken = "e2e-provider-token-7d1f0c5a9b3e4d2c8a6f1e0b9c7d5a3f" //nolint:gosec // the test's made-up token

// getConfig fetches the panel's dynamic configuration with the given
// Authorization header (none when empty).
func getConfig(t *testing.T, base, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/api/proxy/config", nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestProviderTokenExternalTraefik: with PANEL_PROVIDER_TOKEN set, each real
// Traefik whose HTTP provider sends it (providers.http.headers, the
// snippet the README gives) routes the panel's services; a Traefik without
// it and any other caller get nothing.
func TestProviderTokenExternalTraefik(t *testing.T) {
	harness.ForEachTraefik(t, func(t *testing.T, bin harness.TraefikBinary) {
		p := harness.StartPanel(t, map[string]string{"PANEL_PROVIDER_TOKEN": e2eProviderToken})
		be := harness.StartBackend(t, "tokened")
		withToken := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config",
			Static: "providers:\n  http:\n    headers:\n      Authorization: \"Bearer " + e2eProviderToken + "\"\n"})
		without := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})
		var svc struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": "tokened", "hostnames": []map[string]string{{"type": "custom", "value": "tokened.access.test"}},
			"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
		}, &svc)
		c := browser(t, withToken)
		harness.Eventually(t, 30*time.Second, func() bool {
			a := fetch(t, c, "http://tokened.access.test/", nil)
			return a.code == http.StatusOK && a.reply.Backend == "tokened"
		}, "Traefik with the provider token never routed the service")
		// A few of its polls (1 s apart, applied within Traefik's 2 s
		// throttle): the Traefik without the token still has nothing.
		time.Sleep(4 * time.Second)
		if a := fetch(t, browser(t, without), "http://tokened.access.test/", nil); a.code != http.StatusNotFound {
			t.Fatalf("Traefik without the token: %d %s", a.code, a.body)
		}
		for _, auth := range []string{"", "Bearer wrong", "Basic " + e2eProviderToken} {
			code, body := getConfig(t, p.URL, auth)
			if code != http.StatusUnauthorized || strings.Contains(body, "tokened.access.test") {
				t.Fatalf("GET /api/proxy/config with %q: %d %s", auth, code, body)
			}
		}
		var st statusView
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &st)
		if !strings.Contains(st.Poll.Snippet, "Authorization: \"Bearer <") || strings.Contains(st.Poll.Snippet, e2eProviderToken) {
			t.Fatalf("snippet:\n%s", st.Poll.Snippet)
		}
	})
}

// TestManagedProviderToken: in managed mode the panel derives a provider
// token and puts it in the static configuration, which only the wrapper
// reads; Traefik polls with it, and nothing else gets the configuration.
func TestManagedProviderToken(t *testing.T) {
	harness.ForEachTraefik(t, func(t *testing.T, bin harness.TraefikBinary) {
		panelPort, apiPort := harness.FreePort(t), harness.FreePort(t)
		p := harness.StartManagedPanel(t, panelPort, apiPort, t.TempDir())
		web, websecure := harness.FreePort(t), harness.FreePort(t)
		p.MustJSON(t, 200, "PUT", "/api/proxy/managed", loopbackConfig(web, websecure), nil)
		sh := harness.Shells()[len(harness.Shells())-1]
		harness.StartWrapper(t, sh, p.URL, "TRAEFIK_BIN="+bin.Path)
		harness.Eventually(t, 30*time.Second, func() bool { return status(t, p) == "applied" }, "status did not become applied")
		harness.Eventually(t, 30*time.Second, func() bool {
			var st statusView
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &st)
			return st.Poll.Polled && st.Poll.Last != nil && st.Poll.Last.Code == http.StatusOK
		}, "Traefik never fetched the dynamic configuration with the provider token")
		if code, body := getConfig(t, p.URL, ""); code != http.StatusUnauthorized {
			t.Fatalf("GET /api/proxy/config without the token: %d %s", code, body)
		}
		if code, body := getConfig(t, p.URL, "Bearer "+harness.WrapperToken); code != http.StatusUnauthorized {
			t.Fatalf("GET /api/proxy/config with the wrapper token: %d %s", code, body)
		}
		resp, err := http.Get(p.URL + "/api/proxy/static-config")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(string(b), "providers") {
			t.Fatalf("static-config without the wrapper token: %d %s", resp.StatusCode, b)
		}
	})
}
