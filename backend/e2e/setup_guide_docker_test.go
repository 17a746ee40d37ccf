//go:build e2e

package e2e

import (
	"encoding/base64"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/types"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// guideCompose is what a new user runs first: the panel alone, then Traefik
// in a container of its own beside it, its traefik.yml in ./traefik.
const guideCompose = `services:
  gatehouse:
    image: gatehouse:local
    environment:
      PANEL_ADMIN_USER: ` + harness.AdminUser + `
      PANEL_ADMIN_PASSWORD: ` + harness.AdminPassword + `
    volumes:
      - gatehouse-data:/data
  traefik:
    image: traefik:v3.6
    command: ["traefik", "--configFile=/etc/traefik/traefik.yml"]
    ports:
      - "80:80"
      - "443:443"
    volumes:
      - ./traefik:/etc/traefik:ro
    depends_on:
      - gatehouse
volumes:
  gatehouse-data: {}
`

// TestSetupGuideDockerVariant follows the "Traefik in Docker" guide as a
// new user would, with containers emulated as harness.StartCompose does:
// the panel starts alone; its guide gives a traefik.yml and the panel's
// variables; the user sets those variables, restarts the panel, and starts
// Traefik in its own container from that file, unchanged. The guide then
// has nothing left to warn about, the connection test passes, and a service
// protected by basic auth answers through Traefik from outside.
func TestSetupGuideDockerVariant(t *testing.T) {
	traefikBin := harness.TraefikBin(t)
	bin := harness.BuildGatehouse(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "traefik"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compose.yml"), []byte(guideCompose), 0o600); err != nil {
		t.Fatal(err)
	}
	envFile := filepath.Join(dir, ".env")
	if err := os.WriteFile(envFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p := harness.LoadCompose(t, filepath.Join(dir, "compose.yml"), dir, envFile)

	var panelBox *harness.Container
	var panel *harness.Panel
	var guide guideSetup
	images := func(_ testing.TB, s types.ServiceConfig) (harness.Image, bool) {
		switch s.Name {
		case "gatehouse":
			img := harness.GatehouseImage(bin)
			prepare := img.Prepare
			img.Prepare = func(t testing.TB, c *harness.Container) {
				panelBox = c
				prepare(t, c)
			}
			return img, true
		case "traefik":
			img := harness.TraefikImage(traefikBin)
			prepare := img.Prepare
			img.Prepare = func(t testing.TB, c *harness.Container) {
				// Before Traefik's container starts: the user reads the guide
				// on the panel, sets its variables and restarts the panel.
				panel = guidePanel(t, panelBox)
				guide = dockerGuide(t, panel)
				if len(guide.Warnings) == 0 || !strings.Contains(guide.Env, "PANEL_INTERNAL_URL=http://gatehouse:8080") {
					t.Fatalf("a panel without PANEL_INTERNAL_URL: the guide says nothing of it: %+v", guide)
				}
				panelBox.Stop()
				for _, line := range strings.Split(strings.TrimSpace(guide.Env), "\n") {
					k, v, _ := strings.Cut(line, "=")
					panelBox.Config.Environment[k] = &v
				}
				panelBox.Start(t)
				panel = guidePanel(t, panelBox)
				guide = dockerGuide(t, panel)
				if len(guide.Warnings) != 0 {
					t.Fatalf("the guide still warns once its variables are set: %q", guide.Warnings)
				}
				if err := os.WriteFile(filepath.Join(dir, "traefik", "traefik.yml"), []byte(guide.TraefikYml), 0o600); err != nil {
					t.Fatal(err)
				}
				prepare(t, c)
			}
			return img, true
		}
		return harness.Image{}, false
	}
	d := harness.StartCompose(t, p, images)
	t.Logf("traefik.yml from the guide:\n%s", guide.TraefikYml)

	type item struct{ Name, State, Answer string }
	var check struct {
		State string
		Items []item
	}
	harness.Eventually(t, 30*time.Second, func() bool {
		panel.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status/check", nil, &check)
		return check.State == "ok"
	}, "the connection test never passed with Traefik in its container")

	be := startHostBackend(t, d.Gateway, "guide")
	var set, svc struct{ ID string }
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "guide", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "guide", "hostnames": []map[string]string{{"type": "custom", "value": "guide.example.net"}},
		"targets": []map[string]any{{"host": be.host, "port": be.port}}, "entrypoints": []string{"web"},
	}, &svc)
	panel.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)

	out := outsideClient(d)
	var last string
	harness.Eventually(t, 30*time.Second, func() bool {
		code, body, _ := get(out, "http://guide.example.net/", nil)
		last = body
		return code == http.StatusUnauthorized
	}, "guide.example.net never asked for credentials through Traefik")
	right := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
	if code, body, _ := get(out, "http://guide.example.net/", map[string]string{"Authorization": right}); code != http.StatusOK || !containsBackend(body, "guide") {
		t.Fatalf("with the credential set's password through Traefik: %d %.300s (before: %.200s)", code, body, last)
	}
}

// guideSetup is one variant of GET /api/proxy/status's setup guide.
type guideSetup struct {
	Variant, ProviderURL, TraefikYml, Env string
	Warnings                              []string
}

// guidePanel signs in to the panel's container from this host once it
// answers.
func guidePanel(t testing.TB, c *harness.Container) *harness.Panel {
	t.Helper()
	base := "http://" + c.Addr + ":8080"
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Healthy(base) }, "the panel's container never answered /api/health")
	jar, _ := cookiejar.New(nil)
	p := &harness.Panel{URL: base, Client: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	p.MustJSON(t, http.StatusOK, http.MethodPost, "/api/admin/login",
		map[string]string{"username": harness.AdminUser, "password": harness.AdminPassword}, nil)
	return p
}

// dockerGuide is the guide's "Traefik in Docker" variant, as the System
// page shows it.
func dockerGuide(t testing.TB, p *harness.Panel) guideSetup {
	t.Helper()
	var st struct{ Poll struct{ Setups []guideSetup } }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/status", nil, &st)
	for _, s := range st.Poll.Setups {
		if s.Variant == "docker" {
			return s
		}
	}
	t.Fatalf("no docker variant in %+v", st.Poll.Setups)
	return guideSetup{}
}
