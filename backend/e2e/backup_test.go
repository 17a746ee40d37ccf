//go:build e2e

package e2e

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

type backupList struct {
	Backups []struct {
		Name    string `json:"name"`
		Trigger string `json:"trigger"`
	} `json:"backups"`
}

func scheduledBackups(t *testing.T, p *harness.Panel) []string {
	t.Helper()
	var l backupList
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/backups", nil, &l)
	var out []string
	for _, b := range l.Backups {
		if b.Trigger == "scheduled" {
			out = append(out, b.Name)
		}
	}
	return out
}

// TestScheduledBackupRestoredIntoAFreshDirectory: a managed panel with
// services and a DNS credential is backed up by its schedule; `gatehouse
// restore` (the built binary) puts the archive into a fresh data directory;
// a panel started there routes the same services through a real Traefik
// and hands the wrapper the same credential.
func TestScheduledBackupRestoredIntoAFreshDirectory(t *testing.T) {
	harness.TraefikBin(t)
	bin := harness.BuildGatehouse(t)
	dataDir := t.TempDir()
	p := harness.StartManagedPanel(t, harness.FreePort(t), harness.FreePort(t), dataDir)

	// The schedule takes its first backup at start; start from a clean slate
	// so the one restored below is made after the services exist.
	harness.Eventually(t, 30*time.Second, func() bool { return len(scheduledBackups(t, p)) > 0 }, "no backup at start")
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/backups/schedule", map[string]any{"enabled": false, "intervalHours": 24, "keep": 7}, nil)
	for _, name := range scheduledBackups(t, p) {
		p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/backups/"+name, nil, nil)
	}

	one, two := harness.StartBackend(t, "one"), harness.StartBackend(t, "two")
	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "backup.test"}, &dom)
	for _, s := range []struct {
		sub string
		be  *harness.Backend
	}{{"one", one}, {"two", two}} {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": s.sub, "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": s.sub}},
			"targets": []map[string]any{{"host": s.be.Host, "port": s.be.Port}}, "entrypoints": []string{"web"},
		}, nil)
	}
	const credential = "cf-token-in-the-backup" //nolint:gosec // a made-up DNS token the restore must carry over
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/proxy/managed/secrets",
		map[string]any{"upsert": map[string]string{"CF_DNS_API_TOKEN": credential}, "remove": []string{}}, nil)

	// Switched on again with no scheduled backup left, one is due at once.
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/backups/schedule", map[string]any{"enabled": true, "intervalHours": 24, "keep": 7}, nil)
	var names []string
	harness.Eventually(t, 30*time.Second, func() bool { names = scheduledBackups(t, p); return len(names) == 1 },
		"the schedule did not take a backup")
	archive := filepath.Join(dataDir, "backups", names[0])

	fresh := filepath.Join(t.TempDir(), "fresh")
	cmd := exec.Command(bin, "restore", archive) //nolint:gosec // the gatehouse binary the test built, or GATEHOUSE_BIN
	cmd.Env = append(os.Environ(), "PANEL_DATA_DIR="+fresh)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "restored the backup of") {
		t.Fatalf("gatehouse restore: %v\n%s", err, out)
	}
	// The running panel's data directory refuses a restore.
	cmd = exec.Command(bin, "restore", archive) //nolint:gosec // the gatehouse binary the test built, or GATEHOUSE_BIN
	cmd.Env = append(os.Environ(), "PANEL_DATA_DIR="+dataDir)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "a Gatehouse panel is running on this data directory") {
		t.Fatalf("restore under the running panel: %v\n%s", err, out)
	}

	q := harness.StartManagedPanel(t, harness.FreePort(t), harness.FreePort(t), fresh)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: q.URL + "/api/proxy/config",
		Static: harness.ManagedProviderStatic(t, q.URL)})
	for _, name := range []string{"one", "two"} {
		harness.Eventually(t, 30*time.Second, func() bool {
			code, body := tr.Get(tr.WebURL, name+".backup.test", "/")
			return code == http.StatusOK && containsBackend(body, name)
		}, name+".backup.test does not route to its backend after the restore")
	}

	req, _ := http.NewRequest(http.MethodGet, q.URL+"/api/proxy/managed/secrets-env", nil)
	req.Header.Set("Authorization", "Bearer "+harness.WrapperToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var b strings.Builder
	if _, err := io.Copy(&b, resp.Body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(b.String(), credential) {
		t.Fatalf("the wrapper's credentials after the restore: %d %s", resp.StatusCode, b.String())
	}
}
