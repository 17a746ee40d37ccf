//go:build e2e

package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestSmoke starts the panel and Traefik, creates a domain and a service in
// the API and sees the service answer through Traefik by Host.
func TestSmoke(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "smoke")
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "smoke.test"}, &dom)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "smoke", "domainId": dom.ID,
		"hostnames":   []map[string]string{{"type": "subdomain", "value": "app"}},
		"targets":     []map[string]any{{"host": be.Host, "port": be.Port}},
		"entrypoints": []string{"web"},
	}, nil)

	harness.Eventually(t, 30*time.Second, func() bool {
		code, body := tr.Get(tr.WebURL, "app.smoke.test", "/")
		return code == http.StatusOK && containsBackend(body, "smoke")
	}, "app.smoke.test did not answer through traefik")
}
