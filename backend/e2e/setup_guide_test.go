//go:build e2e

package e2e

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestSetupGuideTraefikYML starts a real Traefik from the "Traefik on this
// host" traefik.yml the panel gives, changed only in its listen addresses
// (free loopback ports instead of :80, :443 and the API's), and with the
// environment the guide names: the connection test then finds Traefik
// polling, its API and its metrics answering, and a service with the
// domain's HTTPS redirect is redirected on web.
func TestSetupGuideTraefikYML(t *testing.T) {
	harness.ForEachTraefik(t, testSetupGuide)
}

func testSetupGuide(t *testing.T, bin harness.TraefikBinary) {
	web, websecure, api := harness.FreePort(t), harness.FreePort(t), harness.FreePort(t)
	apiAddr := "127.0.0.1:" + strconv.Itoa(api)
	p := harness.StartPanel(t, map[string]string{"PANEL_PROXY_API_URL": "http://" + apiAddr})

	var st struct {
		Poll struct {
			Setups []struct {
				Variant, ProviderURL, TraefikYml, Env string
				Warnings                              []string
			}
		}
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &st)
	if len(st.Poll.Setups) != 2 || st.Poll.Setups[1].Variant != "host" {
		t.Fatalf("setups = %+v", st.Poll.Setups)
	}
	docker, host := st.Poll.Setups[0], st.Poll.Setups[1]
	if strings.Contains(docker.TraefikYml, "127.0.0.1") || len(docker.Warnings) == 0 {
		t.Fatalf("docker variant points at loopback or does not warn:\n%s\n%q", docker.TraefikYml, docker.Warnings)
	}
	if host.ProviderURL != p.URL {
		t.Fatalf("host variant polls %s, the panel is at %s", host.ProviderURL, p.URL)
	}
	// The guide's API address is the one the panel was given here.
	yml := host.TraefikYml
	var guideAPI string
	for _, line := range strings.Split(host.Env, "\n") {
		if v, ok := strings.CutPrefix(line, "PANEL_PROXY_API_URL=http://"); ok {
			guideAPI = v
		}
	}
	if guideAPI == "" || !strings.Contains(yml, `"`+guideAPI+`"`) {
		t.Fatalf("env %q names no API address of the traefik.yml:\n%s", host.Env, yml)
	}
	yml = strings.NewReplacer(
		`address: ":80"`, `address: "127.0.0.1:`+strconv.Itoa(web)+`"`,
		`address: ":443"`, `address: "127.0.0.1:`+strconv.Itoa(websecure)+`"`,
		`"`+guideAPI+`"`, `"`+apiAddr+`"`,
	).Replace(yml)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "traefik.yml")
	if err := os.WriteFile(cfg, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin.Path, "--configFile="+cfg)           //nolint:gosec // the Traefik binary the harness built, on the test's own file
	logFile, err := os.Create(filepath.Join(dir, "traefik.log")) //nolint:gosec // in the test's temporary directory
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logFile.Name())
			t.Logf("traefik.yml:\n%s\ntraefik log:\n%s", yml, b)
		}
	})

	type item struct{ Name, State, Answer, Hint, Detail string }
	var check struct {
		State, Summary string
		Items          []item
	}
	harness.Eventually(t, 30*time.Second, func() bool {
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status/check", nil, &check)
		return check.State == "ok"
	}, "the connection test never passed")
	if len(check.Items) != 3 || !strings.Contains(check.Items[1].Answer, bin.Version) {
		t.Fatalf("check = %+v", check)
	}

	// The guide's entrypoints serve the panel's services, the redirect too.
	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{
		"domain": "guide.test", "https": map[string]any{"redirect": true},
	}, &dom)
	be := harness.StartBackend(t, "app")
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "app", "domainId": dom.ID,
		"hostnames": []map[string]string{{"type": "subdomain", "value": "app"}},
		"targets":   []map[string]any{{"host": be.Host, "port": be.Port}},
	}, nil)
	webURL := "http://127.0.0.1:" + strconv.Itoa(web)
	harness.Eventually(t, 30*time.Second, func() bool {
		code, hdr := head(webURL, "app.guide.test", "/")
		return code == http.StatusMovedPermanently && hdr.Get("Location") == "https://app.guide.test/"
	}, "app.guide.test on web did not redirect to https")
	if code, _ := head("https://127.0.0.1:"+strconv.Itoa(websecure), "app.guide.test", "/"); code != http.StatusOK {
		t.Fatalf("websecure: %d", code)
	}

	// Traefik stops: the test says its API does not answer, in a sentence.
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status/check", nil, &check)
	if check.Items[1].State != "failed" || check.Items[1].Detail == "" || strings.Contains(check.Items[1].Answer, "refused") {
		t.Fatalf("api item after Traefik stopped = %+v", check.Items[1])
	}
}
