package config

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestLoadDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:8080" || c.DBPath != filepath.Join("data", "gatehouse.db") || c.Managed ||
		c.BackupDir != filepath.Join("data", "backups") {
		t.Fatalf("unexpected defaults: %+v", c)
	}
}

func TestLoadSecretFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(f, []byte("s3cret-password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"PANEL_ADMIN_USER": "admin", "PANEL_ADMIN_PASSWORD_FILE": f}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AdminPassword != "s3cret-password" {
		t.Fatalf("AdminPassword = %q", c.AdminPassword)
	}
}

func TestLoadErrorsNameTheVariable(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"PANEL_LISTEN": "8080"}, "PANEL_LISTEN"},
		{map[string]string{"PANEL_LISTEN": "127.0.0.1:99999"}, "PANEL_LISTEN"},
		{map[string]string{"PANEL_MANAGED": "yes please"}, "PANEL_MANAGED"},
		{map[string]string{"PANEL_INTERNAL_URL": "gatehouse:8080"}, "PANEL_INTERNAL_URL"},
		{map[string]string{"PANEL_DATABASE_URL": "postgres://x"}, "PANEL_DATABASE_URL"},
		{map[string]string{"PANEL_LOG_LEVEL": "loud"}, "PANEL_LOG_LEVEL"},
		{map[string]string{"PANEL_ADMIN_USER": "admin"}, "PANEL_ADMIN_USER and PANEL_ADMIN_PASSWORD"},
		{map[string]string{"PANEL_WRAPPER_TOKEN_FILE": "/nonexistent/file"}, "PANEL_WRAPPER_TOKEN_FILE"},
		{map[string]string{"PANEL_WRAPPER_TOKEN": "a", "PANEL_WRAPPER_TOKEN_FILE": "b"}, "PANEL_WRAPPER_TOKEN"},
		{map[string]string{"PANEL_ADMIN_DOMAIN": "https://panel.example.com"}, "PANEL_ADMIN_DOMAIN"},
		{map[string]string{"PANEL_MANAGED_API_ADDRESS": "8080"}, "PANEL_MANAGED_API_ADDRESS"},
		{map[string]string{"PANEL_MANAGED_API_ADDRESS": "127.0.0.1:0"}, "PANEL_MANAGED_API_ADDRESS"},
		{map[string]string{"PANEL_MANAGED_ACME_DIR": "acme"}, "PANEL_MANAGED_ACME_DIR"},
		{map[string]string{"PANEL_ACME_EMAIL": "Ops <ops@corp.io>"}, "PANEL_ACME_EMAIL"},
		{map[string]string{"PANEL_TRUSTED_PROXIES": "10.0.0.0/8, cdn"}, "PANEL_TRUSTED_PROXIES"},
		{map[string]string{"PANEL_GEOIP_DB": "/nonexistent/country.mmdb"}, "PANEL_GEOIP_DB"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": "10.0.0.300"}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": "10.0.0.0/33"}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": "http://traefik"}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": "traefik:8080"}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": "bad name!"}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_TRAEFIK_ADDRESSES": " , "}, "PANEL_TRAEFIK_ADDRESSES"},
		{map[string]string{"PANEL_DATA_DIR": "/srv/gh", "PANEL_BACKUP_DIR": "/srv/gh/"}, "PANEL_BACKUP_DIR"},
		{map[string]string{"PANEL_BACKUP_DIR": "/etc/hostname"}, "PANEL_BACKUP_DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := Load(env(tt.env))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("Load(%v) = %v; want an error starting with %s", tt.env, err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
		})
	}
}

func TestLoadTrustedProxies(t *testing.T) {
	c, err := Load(env(map[string]string{"PANEL_TRUSTED_PROXIES": "173.245.48.0/20, 2400:cb00::/32 10.0.0.2"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TrustedProxies) != 3 || c.TrustedProxies[2].String() != "10.0.0.2/32" {
		t.Fatalf("got %v", c.TrustedProxies)
	}
}

// The peers whose X-Forwarded-For the panel reads: loopback by default,
// and in managed mode also Traefik's host from PANEL_PROXY_API_URL.
func TestLoadTraefikAddresses(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		prefixes  string
		hostnames string
	}{
		{"default", nil, "127.0.0.0/8 ::1/128", ""},
		{"managed", map[string]string{"PANEL_MANAGED": "true", "PANEL_PROXY_API_URL": "http://traefik:8080"},
			"127.0.0.0/8 ::1/128", "traefik"},
		{"set", map[string]string{"PANEL_MANAGED": "true", "PANEL_PROXY_API_URL": "http://traefik:8080",
			"PANEL_TRAEFIK_ADDRESSES": "172.18.0.0/16, 10.0.0.2 Traefik-1.internal"},
			"172.18.0.0/16 10.0.0.2/32", "traefik-1.internal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			var ps []string
			for _, p := range c.TraefikAddresses {
				ps = append(ps, p.String())
			}
			if got := strings.Join(ps, " "); got != tt.prefixes {
				t.Errorf("addresses = %q; want %q", got, tt.prefixes)
			}
			if got := strings.Join(c.TraefikHosts, " "); got != tt.hostnames {
				t.Errorf("hosts = %q; want %q", got, tt.hostnames)
			}
		})
	}
}

func TestLoadDatabaseURL(t *testing.T) {
	tests := []struct {
		url, path, postgres string
	}{
		{"", filepath.Join("data", "gatehouse.db"), ""},
		{"/var/lib/gatehouse/g.db", "/var/lib/gatehouse/g.db", ""},
		{"sqlite:///var/lib/gatehouse/g.db", "/var/lib/gatehouse/g.db", ""},
		{"postgres://gh:s3cret@db:5432/gatehouse?sslmode=disable", "", "postgres://gh:s3cret@db:5432/gatehouse?sslmode=disable"},
		{"postgresql://gh@db/gatehouse", "", "postgresql://gh@db/gatehouse"},
		{"postgres://gh@/gatehouse?host=/run/postgresql", "", "postgres://gh@/gatehouse?host=/run/postgresql"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			c, err := Load(env(map[string]string{"PANEL_DATABASE_URL": tt.url}))
			if err != nil {
				t.Fatal(err)
			}
			if c.DBPath != tt.path || c.PostgresURL != tt.postgres {
				t.Fatalf("DBPath %q, PostgresURL %q; want %q, %q", c.DBPath, c.PostgresURL, tt.path, tt.postgres)
			}
			if want := tt.path + tt.postgres; c.Database() != want {
				t.Fatalf("Database() = %q; want %q", c.Database(), want)
			}
			if strings.Contains(c.DatabaseForLog(), "s3cret") {
				t.Fatalf("DatabaseForLog() = %q shows the password", c.DatabaseForLog())
			}
		})
	}
}

// A wrong database URL is named, with what is wrong, and never quoted with
// its password.
func TestLoadDatabaseURLErrors(t *testing.T) {
	tests := []struct{ url, want string }{
		{"postgres://gh:s3cret@db:port/gatehouse", "not a valid URL"},
		{"postgres://gh:s3cret@db:99999/gatehouse", "port"},
		{"postgres://gh:s3cret@db:0/gatehouse", "port"},
		{"postgres://gh:s3cret@/gatehouse", "names no server"},
		{"postgres://gh:s3cret@db", "names no database"},
		{"postgres://gh:s3cret@db/gatehouse?sslmode=on", "sslmode"},
		{"mysql://gh:s3cret@db/gatehouse", "mysql:// is not supported"},
		{"sqlite://", "names no file"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			_, err := Load(env(map[string]string{"PANEL_DATABASE_URL": tt.url}))
			if err == nil || !strings.HasPrefix(err.Error(), "PANEL_DATABASE_URL: ") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v; want a PANEL_DATABASE_URL error saying %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
}

func TestLoadProviderToken(t *testing.T) {
	const tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	f := filepath.Join(t.TempDir(), "tok")
	if err := os.WriteFile(f, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, e := range []map[string]string{
		{"PANEL_PROVIDER_TOKEN": tok},
		{"PANEL_PROVIDER_TOKEN_FILE": f},
		{"PANEL_PROVIDER_TOKEN": tok, "PANEL_MANAGED": "true", "PANEL_WRAPPER_TOKEN": "w"},
	} {
		c, err := Load(env(e))
		if err != nil || c.ProviderToken != tok {
			t.Fatalf("Load(%v) = %q, %v", e, c.ProviderToken, err)
		}
	}
	for _, bad := range []map[string]string{
		{"PANEL_PROVIDER_TOKEN": "short"},
		{"PANEL_PROVIDER_TOKEN": strings.Repeat("a", 40) + " b"},
		{"PANEL_PROVIDER_TOKEN": strings.Repeat("a", 40) + "\"b"},
		{"PANEL_PROVIDER_TOKEN": tok, "PANEL_PROVIDER_TOKEN_FILE": f},
		// Managed mode puts it in the static configuration, which only the
		// wrapper token guards.
		{"PANEL_PROVIDER_TOKEN": tok, "PANEL_MANAGED": "true"},
	} {
		_, err := Load(env(bad))
		if err == nil || !strings.HasPrefix(err.Error(), "PANEL_PROVIDER_TOKEN") {
			t.Fatalf("Load(%v) = %v; want an error naming PANEL_PROVIDER_TOKEN", bad, err)
		}
		if strings.Contains(err.Error(), "aaaaaaaaaa") || strings.Contains(err.Error(), tok) {
			t.Fatalf("the error quotes the token: %v", err)
		}
	}
}

func TestLoadMetricsAccess(t *testing.T) {
	const tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	c, err := Load(env(map[string]string{}))
	if err != nil || c.MetricsToken != "" || len(c.MetricsAddresses) == 0 {
		t.Fatalf("defaults: %q %v, %v", c.MetricsToken, c.MetricsAddresses, err)
	}
	if !slicesContain(c.MetricsAddresses, "127.0.0.1") || !slicesContain(c.MetricsAddresses, "10.9.8.7") || slicesContain(c.MetricsAddresses, "203.0.113.1") {
		t.Fatalf("default addresses %v: want loopback and private only", c.MetricsAddresses)
	}
	c, err = Load(env(map[string]string{"PANEL_METRICS_TOKEN": tok, "PANEL_METRICS_ADDRESSES": "none"}))
	if err != nil || c.MetricsToken != tok || len(c.MetricsAddresses) != 0 {
		t.Fatalf("token only: %v, %v", c.MetricsAddresses, err)
	}
	for _, bad := range []map[string]string{
		{"PANEL_METRICS_TOKEN": "short"},
		{"PANEL_METRICS_ADDRESSES": "example.com"},
		{"PANEL_METRICS_ADDRESSES": "10.0.0.0/33"},
	} {
		if _, err := Load(env(bad)); err == nil || strings.Contains(err.Error(), "short") {
			t.Errorf("Load(%v) = %v, want an error that does not quote the value", bad, err)
		}
	}
}

func slicesContain(ps []netip.Prefix, addr string) bool {
	a := netip.MustParseAddr(addr)
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
