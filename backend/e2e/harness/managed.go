package harness

import (
	"path/filepath"
	"testing"
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
