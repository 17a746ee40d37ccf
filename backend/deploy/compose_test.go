// Package deploy holds the deployment files' tests: the bundled
// docker-compose.yml (loaded with compose-go, as docker compose does), the
// panel's Dockerfile and the Traefik wrapper script.
package deploy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

const repoRoot = "../.."

func loadCompose(t *testing.T, env ...string) (*types.Project, error) {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{filepath.Join(repoRoot, "docker-compose.yml")},
		cli.WithWorkingDirectory(repoRoot), cli.WithEnv(env), cli.WithName("gatehouse"))
	if err != nil {
		t.Fatal(err)
	}
	return opts.LoadProject(context.Background())
}

func TestComposeFile(t *testing.T) {
	p, err := loadCompose(t, "GATEHOUSE_WRAPPER_TOKEN=0123456789abcdef", "PANEL_ADMIN_DOMAIN=panel.gatehouse.dev")
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	if len(p.Services) != 2 {
		t.Fatalf("services = %v; want gatehouse and traefik", p.ServiceNames())
	}
	panel, err := p.GetService("gatehouse")
	if err != nil {
		t.Fatal(err)
	}
	traefik, err := p.GetService("traefik")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("panel", func(t *testing.T) {
		if panel.Build == nil || panel.Build.Dockerfile != "backend/Dockerfile" {
			t.Fatalf("build = %+v; want dockerfile backend/Dockerfile", panel.Build)
		}
		if ctx, _ := filepath.Abs(repoRoot); panel.Build.Context != ctx {
			t.Errorf("build context = %s; want the repository root", panel.Build.Context)
		}
		if len(panel.Ports) != 0 {
			t.Errorf("the panel publishes ports %v; it must stay internal", panel.Ports)
		}
		env := func(k string) string {
			if v := panel.Environment[k]; v != nil {
				return *v
			}
			return ""
		}
		for k, want := range map[string]string{
			"PANEL_MANAGED": "true", "PANEL_LISTEN": "0.0.0.0:8080", "PANEL_INTERNAL_URL": "http://gatehouse:8080",
			"PANEL_DATA_DIR": "/data", "PANEL_WRAPPER_TOKEN": "0123456789abcdef", "PANEL_ADMIN_DOMAIN": "panel.gatehouse.dev",
			"PANEL_PROXY_API_URL": "http://traefik:8080",
		} {
			if got := env(k); got != want {
				t.Errorf("%s = %q; want %q", k, got, want)
			}
		}
		if !hasVolume(panel, "volume", "/data") {
			t.Errorf("no data volume on /data: %+v", panel.Volumes)
		}
		hc := panel.HealthCheck
		if hc == nil || !slices.Contains(hc.Test, "wget") || !strings.Contains(strings.Join(hc.Test, " "), "/api/health") {
			t.Errorf("healthcheck = %+v; want wget on /api/health", hc)
		}
	})

	t.Run("traefik", func(t *testing.T) {
		if !strings.HasPrefix(traefik.Image, "traefik:v3.6") {
			t.Errorf("image = %s; want the official traefik:v3.6", traefik.Image)
		}
		onlyWebPorts(t, p.Services)
		if !strings.Contains(strings.Join(traefik.Entrypoint, " "), "/gatehouse/traefik-wrapper.sh") {
			t.Errorf("entrypoint = %v; want the wrapper", traefik.Entrypoint)
		}
		var wrapper *types.ServiceVolumeConfig
		for i, v := range traefik.Volumes {
			if v.Target == "/gatehouse/traefik-wrapper.sh" {
				wrapper = &traefik.Volumes[i]
			}
		}
		if wrapper == nil || wrapper.Type != "bind" || !wrapper.ReadOnly {
			t.Fatalf("the wrapper is not bind-mounted read-only: %+v", traefik.Volumes)
		}
		if _, err := os.Stat(wrapper.Source); err != nil {
			t.Errorf("wrapper source %s: %v", wrapper.Source, err)
		}
		if !hasVolume(traefik, "volume", "/acme") {
			t.Errorf("no ACME storage volume on /acme: %+v", traefik.Volumes)
		}
		if d, ok := traefik.DependsOn["gatehouse"]; !ok || d.Condition != types.ServiceConditionHealthy {
			t.Errorf("depends_on = %+v; want gatehouse healthy", traefik.DependsOn)
		}
		if traefik.Environment["GATEHOUSE_WRAPPER_TOKEN"] == nil || *traefik.Environment["GATEHOUSE_WRAPPER_TOKEN"] != "0123456789abcdef" {
			t.Errorf("the wrapper does not get the same token as the panel")
		}
	})

	t.Run("volumes", func(t *testing.T) {
		for _, v := range []string{"gatehouse-data", "traefik-acme"} {
			if _, ok := p.Volumes[v]; !ok {
				t.Errorf("volume %s is not declared", v)
			}
		}
	})
}

func TestComposeRequiresTheWrapperToken(t *testing.T) {
	_, err := loadCompose(t)
	if err == nil || !strings.Contains(err.Error(), "GATEHOUSE_WRAPPER_TOKEN") {
		t.Fatalf("loading without GATEHOUSE_WRAPPER_TOKEN = %v; want an error naming it", err)
	}
}

func TestDockerfileIsMultiStageAndNonRoot(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "backend", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var froms, user []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.EqualFold(f[0], "FROM") {
			froms = append(froms, f[1])
		}
		if len(f) >= 2 && strings.EqualFold(f[0], "USER") {
			user = append(user, f[1])
		}
	}
	if len(froms) < 3 {
		t.Errorf("stages = %v; want node, go and runtime stages", froms)
	}
	if len(user) == 0 || strings.HasPrefix(user[len(user)-1], "root") || strings.HasPrefix(user[len(user)-1], "0") {
		t.Errorf("the runtime stage does not switch to a non-root user: %v", user)
	}
	if !strings.Contains(string(b), "CGO_ENABLED=1") {
		t.Error("the Go build must enable cgo (SQLite)")
	}
}

func TestWrapperParsesInEveryShell(t *testing.T) {
	shells := [][]string{{"sh"}}
	if p, err := exec.LookPath("busybox"); err == nil {
		shells = append(shells, []string{p, "sh"})
	}
	for _, sh := range shells {
		out, err := exec.Command(sh[0], append(sh[1:], "-n", "traefik-wrapper.sh")...).CombinedOutput() //nolint:gosec // the shells the test looked up itself
		if err != nil {
			t.Errorf("%v -n traefik-wrapper.sh: %v\n%s", sh, err, out)
		}
	}
}

func hasVolume(s types.ServiceConfig, typ, target string) bool {
	for _, v := range s.Volumes {
		if v.Type == typ && v.Target == target {
			return true
		}
	}
	return false
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

// onlyWebPorts fails unless services publish 80 and 443 and nothing else.
func onlyWebPorts(t *testing.T, services types.Services) {
	t.Helper()
	var published []string
	for _, s := range services {
		for _, port := range s.Ports {
			published = append(published, port.Published+":"+itoa(port.Target))
		}
	}
	slices.Sort(published)
	if !slices.Equal(published, []string{"443:443", "80:80"}) {
		t.Errorf("published ports = %v; want only 80 and 443", published)
	}
}
