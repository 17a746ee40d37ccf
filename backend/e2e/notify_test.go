//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestNotificationsThroughTraefik runs a real Traefik 3.7 that serves a
// certificate expiring in 10 days and routes a panel service to a backend
// that then dies. A webhook channel receives exactly one "certificate
// expiring" and exactly one "backend down" notification, however many times
// the panel looks meanwhile. The backend counts as down by a direct
// connection to its target (the service has no Traefik health check), which
// the panel's health view makes on every look.
func TestNotificationsThroughTraefik(t *testing.T) {
	var bin harness.TraefikBinary
	for _, b := range harness.TraefikBinaries(t) {
		if b.AtLeast(3, 7) {
			bin = b
		}
	}
	if bin.Path == "" {
		t.Skip("needs Traefik 3.7 (TRAEFIK_BIN_37) for its certificates API")
	}
	var mu sync.Mutex
	var got []map[string]any
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)
	count := func(prefix string) int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, m := range got {
			if title, _ := m["title"].(string); strings.HasPrefix(title, prefix) {
				n++
			}
		}
		return n
	}

	be := harness.StartBackend(t, "fragile")
	certDir, fileDir := t.TempDir(), t.TempDir()
	writeCertUntil(t, certDir, "soon.notify.test", time.Now().Add(10*24*time.Hour+time.Hour))
	writeFile(t, filepath.Join(fileDir, "tls.yml"), fmt.Sprintf(`
tls:
  certificates:
    - certFile: %s
      keyFile: %s
`, filepath.Join(certDir, "cert.pem"), filepath.Join(certDir, "key.pem")))
	port := harness.FreePort(t)
	panelURL := "http://127.0.0.1:" + strconv.Itoa(port)
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: panelURL + "/api/proxy/config", FileDir: fileDir})
	p := harness.StartPanel(t, map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PROXY_API_URL": tr.APIURL})

	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/notifications/settings",
		map[string]any{"certWarningDays": 14, "debounceSeconds": 2}, nil)
	var ch struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/notifications/channels", map[string]any{
		"name": "receiver", "kind": "webhook",
		"events":  []string{"cert_expiring", "cert_expired", "backend_down", "backend_recovered"},
		"secrets": map[string]any{"webhookUrl": recv.URL + "/gatehouse"},
	}, &ch)
	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "notify.test"}, &dom)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "fragile", "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": "fragile"}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
	}, nil)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, _ := tr.Get(tr.WebURL, "fragile.notify.test", "/")
		return code == http.StatusOK
	}, "Traefik does not route fragile.notify.test")

	harness.Eventually(t, 60*time.Second, func() bool { return count("Certificate expires in") >= 1 },
		"no certificate notification")
	if n := count("Certificate expires in 10 days: soon.notify.test"); n != 1 {
		t.Fatalf("%d notifications for the certificate, want one saying 10 days: %v", n, got)
	}

	be.Stop()
	harness.Eventually(t, 60*time.Second, func() bool { return count("Backend down: fragile") >= 1 },
		"no backend down notification")
	// Two more looks (10 s apart) at the same dead backend and certificate say nothing new.
	time.Sleep(25 * time.Second)
	if d, c := count("Backend down: fragile"), count("Certificate expires in"); d != 1 || c != 1 {
		t.Fatalf("%d backend down and %d certificate notifications, want one each: %v", d, c, got)
	}
	var view struct {
		LastDelivery struct {
			OK    bool
			Event string
		}
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/notifications/channels/"+ch.ID, nil, &view)
	if !view.LastDelivery.OK || view.LastDelivery.Event != "backend_down" {
		t.Fatalf("last delivery %+v", view.LastDelivery)
	}
}
