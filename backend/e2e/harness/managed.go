package harness

import (
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

// WrapperToken is the token managed panels and wrappers share in the tests.
const WrapperToken = "e2e-wrapper-token-4f1c2b9a7d"

// StartManagedPanel starts a managed-mode panel on a fixed loopback port (so
// PANEL_INTERNAL_URL can name it) with Traefik's API entrypoint on apiPort.
func StartManagedPanel(t testing.TB, port, apiPort int, dataDir string) *Panel {
	t.Helper()
	url := "http://" + loopback(port)
	return StartPanel(t, map[string]string{
		"PANEL_LISTEN":              loopback(port),
		"PANEL_DATA_DIR":            dataDir,
		"PANEL_MANAGED":             "true",
		"PANEL_WRAPPER_TOKEN":       WrapperToken,
		"PANEL_INTERNAL_URL":        url,
		"PANEL_MANAGED_API_ADDRESS": loopback(apiPort),
		"PANEL_MANAGED_ACME_DIR":    filepath.Join(dataDir, "acme"),
	})
}

// ManagedProviderStatic is the static configuration (YAML) that makes a
// Traefik started by the test send the provider token a managed panel puts
// in its static configuration, read as the wrapper reads it: a plain
// Traefik polling a managed panel without it gets 401.
func ManagedProviderStatic(t testing.TB, panelURL string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, panelURL+"/api/proxy/static-config", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+WrapperToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("static-config: %d %v", resp.StatusCode, err)
	}
	var static struct {
		Providers struct {
			HTTP struct {
				Headers map[string]string `yaml:"headers"`
			} `yaml:"http"`
		} `yaml:"providers"`
	}
	if err := yaml.Unmarshal(b, &static); err != nil {
		t.Fatalf("static-config: %v", err)
	}
	auth := static.Providers.HTTP.Headers["Authorization"]
	if auth == "" {
		t.Fatalf("the managed static configuration carries no provider token:\n%s", b)
	}
	return "providers:\n  http:\n    headers:\n      Authorization: \"" + auth + "\"\n"
}
