package deploy

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// haEnv is a complete .env for docker-compose.ha.yml.
var haEnv = map[string]string{
	"GATEHOUSE_WRAPPER_TOKEN": "0123456789abcdef",
	"POSTGRES_USER":           "gatehouse",
	"POSTGRES_PASSWORD":       "5ecret0123456789",
	"POSTGRES_DB":             "gatehouse",
	"PANEL_AGE_IDENTITY":      "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
	"PANEL_ADMIN_DOMAIN":      "panel.gatehouse.dev",
}

func loadHACompose(t *testing.T, env map[string]string) (*types.Project, error) {
	t.Helper()
	var kv []string
	for k, v := range env {
		kv = append(kv, k+"="+v)
	}
	opts, err := cli.NewProjectOptions([]string{filepath.Join(repoRoot, "docker-compose.ha.yml")},
		cli.WithWorkingDirectory(repoRoot), cli.WithEnv(kv), cli.WithName("gatehouse-ha"))
	if err != nil {
		t.Fatal(err)
	}
	return opts.LoadProject(context.Background())
}

func envOf(s types.ServiceConfig, k string) string {
	if v := s.Environment[k]; v != nil {
		return *v
	}
	return ""
}

func TestHAComposeFile(t *testing.T) {
	p, err := loadHACompose(t, haEnv)
	if err != nil {
		t.Fatalf("docker-compose.ha.yml does not load: %v", err)
	}
	names := p.ServiceNames()
	slices.Sort(names)
	if !slices.Equal(names, []string{"gatehouse-a", "gatehouse-b", "postgres", "traefik"}) {
		t.Fatalf("services = %v; want postgres, gatehouse-a, gatehouse-b and traefik", names)
	}
	get := func(name string) types.ServiceConfig {
		s, err := p.GetService(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	pg, a, b, traefik := get("postgres"), get("gatehouse-a"), get("gatehouse-b"), get("traefik")

	t.Run("postgres", func(t *testing.T) {
		if !strings.HasPrefix(pg.Image, "postgres:15") {
			t.Errorf("image = %s; want postgres:15", pg.Image)
		}
		for k, want := range map[string]string{"POSTGRES_USER": "gatehouse", "POSTGRES_PASSWORD": "5ecret0123456789", "POSTGRES_DB": "gatehouse"} {
			if got := envOf(pg, k); got != want {
				t.Errorf("%s = %q; want %q", k, got, want)
			}
		}
		if !hasVolume(pg, "volume", "/var/lib/postgresql/data") {
			t.Errorf("no named volume on PostgreSQL's data directory: %+v", pg.Volumes)
		}
		if hc := pg.HealthCheck; hc == nil || !strings.Contains(strings.Join(hc.Test, " "), "pg_isready") {
			t.Errorf("healthcheck = %+v; want pg_isready", hc)
		}
		if len(pg.Ports) != 0 {
			t.Errorf("PostgreSQL publishes ports %v", pg.Ports)
		}
	})

	t.Run("replicas", func(t *testing.T) {
		single, err := loadCompose(t, "GATEHOUSE_WRAPPER_TOKEN=x")
		if err != nil {
			t.Fatal(err)
		}
		panel, _ := single.GetService("gatehouse")
		var urls []string
		for _, s := range []types.ServiceConfig{a, b} {
			if s.Build == nil || s.Build.Dockerfile != panel.Build.Dockerfile || s.Build.Context != panel.Build.Context || s.Image != panel.Image {
				t.Errorf("%s: build %+v, image %s; want docker-compose.yml's", s.Name, s.Build, s.Image)
			}
			if len(s.Ports) != 0 {
				t.Errorf("%s publishes ports %v", s.Name, s.Ports)
			}
			if d, ok := s.DependsOn["postgres"]; !ok || d.Condition != types.ServiceConditionHealthy {
				t.Errorf("%s: depends_on = %+v; want postgres healthy", s.Name, s.DependsOn)
			}
			if hc := s.HealthCheck; hc == nil || !strings.Contains(strings.Join(hc.Test, " "), "/api/health") {
				t.Errorf("%s: healthcheck = %+v; want /api/health", s.Name, hc)
			}
			for k, want := range map[string]string{ //nolint:gosec // the test .env's made-up password
				"PANEL_MANAGED": "true", "PANEL_LISTEN": "0.0.0.0:8080", "PANEL_INTERNAL_URL": "http://127.0.0.1:8081",
				"PANEL_DATABASE_URL":  "postgres://gatehouse:5ecret0123456789@postgres:5432/gatehouse?sslmode=disable",
				"PANEL_AGE_IDENTITY":  haEnv["PANEL_AGE_IDENTITY"],
				"PANEL_WRAPPER_TOKEN": "0123456789abcdef", "PANEL_PROXY_API_URL": "http://traefik:8080",
			} {
				if got := envOf(s, k); got != want {
					t.Errorf("%s: %s = %q; want %q", s.Name, k, got, want)
				}
			}
			urls = append(urls, envOf(s, "PANEL_REPLICA_URLS"))
		}
		// Anything replica-specific in the environment would give the
		// replicas different static configurations: Traefik would restart
		// whenever the wrapper switches replicas.
		if !sameEnv(a.Environment, b.Environment) {
			t.Errorf("the replicas' environments differ:\n%v\n%v", a.Environment, b.Environment)
		}
		var hosts []string
		for _, u := range strings.Split(urls[0], ",") {
			pu, err := url.Parse(u)
			if err != nil || pu.Port() != "8080" {
				t.Fatalf("PANEL_REPLICA_URLS entry %q is not http://<service>:8080", u)
			}
			hosts = append(hosts, pu.Hostname())
		}
		if !slices.Equal(hosts, []string{"gatehouse-a", "gatehouse-b"}) {
			t.Errorf("PANEL_REPLICA_URLS names %v; want the replica services", hosts)
		}
		// The database holds what the replicas share: each has a data
		// volume of its own, as replicas on different hosts would.
		if !hasVolume(a, "volume", "/data") || !hasVolume(b, "volume", "/data") || a.Volumes[0].Source == b.Volumes[0].Source {
			t.Errorf("the replicas do not have a data volume each: %+v / %+v", a.Volumes, b.Volumes)
		}
	})

	t.Run("traefik", func(t *testing.T) {
		onlyWebPorts(t, p.Services)
		if !strings.Contains(strings.Join(traefik.Entrypoint, " "), "/gatehouse/traefik-wrapper.sh") {
			t.Errorf("entrypoint = %v; want the wrapper", traefik.Entrypoint)
		}
		for _, r := range []string{"gatehouse-a", "gatehouse-b"} {
			if d, ok := traefik.DependsOn[r]; !ok || d.Condition != types.ServiceConditionHealthy {
				t.Errorf("depends_on = %+v; want %s healthy", traefik.DependsOn, r)
			}
		}
		if got := strings.Fields(envOf(traefik, "GATEHOUSE_URL")); !slices.Equal(got, []string{"http://gatehouse-a:8080", "http://gatehouse-b:8080"}) {
			t.Errorf("GATEHOUSE_URL = %v; want both replicas", got)
		}
		if got := strings.Join(strings.Fields(envOf(traefik, "GATEHOUSE_URL")), ","); got != envOf(a, "PANEL_REPLICA_URLS") {
			t.Errorf("GATEHOUSE_URL %q and PANEL_REPLICA_URLS %q name different replicas", got, envOf(a, "PANEL_REPLICA_URLS"))
		}
		if envOf(traefik, "GATEHOUSE_WRAPPER_TOKEN") != "0123456789abcdef" {
			t.Errorf("the wrapper does not get the replicas' token")
		}
		if envOf(traefik, "GATEHOUSE_CONFIG_DIR") != "/run/gatehouse" {
			t.Errorf("GATEHOUSE_CONFIG_DIR = %q; want /run/gatehouse (the panels' PANEL_MANAGED_CONFIG_DIR default)", envOf(traefik, "GATEHOUSE_CONFIG_DIR"))
		}
		if hc := traefik.HealthCheck; hc == nil || !strings.Contains(strings.Join(hc.Test, " "), "/ping") {
			t.Errorf("healthcheck = %+v; want /ping", hc)
		}
		if !hasVolume(traefik, "volume", "/acme") {
			t.Errorf("no ACME storage volume on /acme: %+v", traefik.Volumes)
		}
	})
}

func sameEnv(a, b types.MappingWithEquals) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || (v == nil) != (w == nil) || (v != nil && *v != *w) {
			return false
		}
	}
	return true
}

func TestHAComposeRequiresItsVariables(t *testing.T) {
	for _, name := range []string{"GATEHOUSE_WRAPPER_TOKEN", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB", "PANEL_AGE_IDENTITY"} {
		t.Run(name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range haEnv {
				if k != name {
					env[k] = v
				}
			}
			_, err := loadHACompose(t, env)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("loading without %s = %v; want an error naming it", name, err)
			}
		})
	}
}
