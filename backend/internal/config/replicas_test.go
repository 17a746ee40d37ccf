package config

import (
	"slices"
	"strings"
	"testing"
)

const pgURL = "postgres://gatehouse:secret@postgres:5432/gatehouse?sslmode=disable" //nolint:gosec // a made-up password

func replicaEnv(extra map[string]string) map[string]string {
	m := map[string]string{
		"PANEL_MANAGED": "true", "PANEL_DATABASE_URL": pgURL, "PANEL_INTERNAL_URL": "http://127.0.0.1:8081",
		"PANEL_REPLICA_URLS": "http://gatehouse-a:8080, https://gatehouse-b:8443/",
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestLoadReplicas(t *testing.T) {
	c, err := Load(env(replicaEnv(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://gatehouse-a:8080", "https://gatehouse-b:8443"}; !slices.Equal(c.ReplicaURLs, want) {
		t.Errorf("ReplicaURLs = %v; want %v", c.ReplicaURLs, want)
	}
	if c.ManagedPanelAddress != "127.0.0.1:8081" || c.ManagedConfigDir != "/run/gatehouse" {
		t.Errorf("defaults: panel address %q, config dir %q", c.ManagedPanelAddress, c.ManagedConfigDir)
	}
	c, err = Load(env(replicaEnv(map[string]string{
		"PANEL_MANAGED_PANEL_ADDRESS": "127.0.0.1:9081", "PANEL_MANAGED_CONFIG_DIR": "/tmp/gh",
	})))
	if err != nil {
		t.Fatal(err)
	}
	if c.ManagedPanelAddress != "127.0.0.1:9081" || c.ManagedConfigDir != "/tmp/gh" {
		t.Errorf("panel address %q, config dir %q", c.ManagedPanelAddress, c.ManagedConfigDir)
	}
	// One replica is one process: SQLite will do.
	c, err = Load(env(map[string]string{"PANEL_MANAGED": "true", "PANEL_INTERNAL_URL": "http://127.0.0.1:8081",
		"PANEL_REPLICA_URLS": "http://127.0.0.1:8080"}))
	if err != nil || len(c.ReplicaURLs) != 1 {
		t.Fatalf("one replica on SQLite: %v, %v", c.ReplicaURLs, err)
	}
}

func TestLoadReplicaErrors(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string // the error starts with the variable and holds this
	}{
		{"not a URL", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "gatehouse-a:8080"}), "PANEL_REPLICA_URLS: \"gatehouse-a:8080\" must be an absolute"},
		{"ftp", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "ftp://gatehouse-a"}), "PANEL_REPLICA_URLS: \"ftp://gatehouse-a\""},
		{"path", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://a:8080/panel"}), "PANEL_REPLICA_URLS: \"http://a:8080/panel\" must be a base URL"},
		{"query", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://a:8080?x=1"}), "must be a base URL"},
		{"credentials", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://u:p@a:8080"}), "must be a base URL"}, //nolint:gosec // made-up credentials the parser must refuse
		{"port", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://a:0"}), "port \"0\""},
		{"empty entry", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://a:8080,,http://b:8080"}), "an empty entry"},
		{"twice", replicaEnv(map[string]string{"PANEL_REPLICA_URLS": "http://a:8080,http://a:8080/"}), "listed twice"},
		{"not managed", replicaEnv(map[string]string{"PANEL_MANAGED": "false"}), "PANEL_REPLICA_URLS: only used in managed mode"},
		{"sqlite", replicaEnv(map[string]string{"PANEL_DATABASE_URL": ""}), "PANEL_REPLICA_URLS: several replicas need PostgreSQL"},
		{"no internal URL", replicaEnv(map[string]string{"PANEL_INTERNAL_URL": ""}), "PANEL_REPLICA_URLS: set PANEL_INTERNAL_URL to Traefik's loopback entrypoint (http://127.0.0.1:8081)"},
		{"panel address", replicaEnv(map[string]string{"PANEL_MANAGED_PANEL_ADDRESS": "8081"}), "PANEL_MANAGED_PANEL_ADDRESS"},
		{"panel port", replicaEnv(map[string]string{"PANEL_MANAGED_PANEL_ADDRESS": "127.0.0.1:0"}), "PANEL_MANAGED_PANEL_ADDRESS"},
		{"config dir", replicaEnv(map[string]string{"PANEL_MANAGED_CONFIG_DIR": "run/gatehouse"}), "PANEL_MANAGED_CONFIG_DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v; want an error with %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "PANEL_") || strings.Contains(err.Error(), "secret") {
				t.Fatalf("error %q does not start with the variable or quotes the database password", err)
			}
		})
	}
}

func TestForwardAuthProxies(t *testing.T) {
	c, err := Load(env(replicaEnv(map[string]string{"PANEL_TRUSTED_PROXIES": "10.0.0.0/8"})))
	if err != nil {
		t.Fatal(err)
	}
	got := c.ForwardAuthProxies()
	if len(got) != 3 || got[0].String() != "10.0.0.0/8" || got[1].String() != "127.0.0.0/8" || got[2].String() != "::1/128" {
		t.Fatalf("with replicas = %v", got)
	}
	if len(c.TrustedProxies) != 1 {
		t.Fatalf("TrustedProxies changed: %v", c.TrustedProxies)
	}
	c, err = Load(env(map[string]string{"PANEL_TRUSTED_PROXIES": "10.0.0.0/8"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ForwardAuthProxies(); len(got) != 1 {
		t.Fatalf("without replicas = %v", got)
	}
}
