// Package config loads Gatehouse's configuration from PANEL_* environment
// variables. Secrets also accept a *_FILE variant (Docker/Kubernetes secrets).
// Any wrong value stops start-up with one line naming the variable.
package config

import (
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Config is the validated process configuration.
type Config struct {
	Listen      string // PANEL_LISTEN, host:port
	DataDir     string // PANEL_DATA_DIR, created if missing
	DatabaseURL string // PANEL_DATABASE_URL, sqlite path, sqlite:// or postgres:// URL
	DBPath      string // the SQLite file derived from DatabaseURL; empty on PostgreSQL
	PostgresURL string // the postgres:// URL when DatabaseURL selects PostgreSQL
	BackupDir   string // PANEL_BACKUP_DIR, where backups are written (default <data>/backups)
	InternalURL string // PANEL_INTERNAL_URL, how Traefik reaches the panel (forwardAuth, HTTP provider)
	AdminDomain string // PANEL_ADMIN_DOMAIN, seeds the admin panel domain on first start
	PublicURL   string // PANEL_PUBLIC_URL, how browsers reach the panel (sign-in flow); default from the admin domain
	// PortalURL is PANEL_PORTAL_URL, how browsers reach the sign-in portal
	// when it is not https://<portal host> (a port, plain HTTP in tests).
	PortalURL string

	AdminUser     string // PANEL_ADMIN_USER
	AdminPassword string // PANEL_ADMIN_PASSWORD[_FILE]

	Managed     bool   // PANEL_MANAGED
	ProxyAPIURL string // PANEL_PROXY_API_URL, Traefik's API (e.g. http://traefik:8080)
	MetricsURL  string // PANEL_PROXY_METRICS_URL, Traefik's Prometheus endpoint (default: API URL + /metrics)
	// Traffic is where the traffic history is read from and how long it
	// is kept (see traffic.go).
	Traffic      Traffic
	WrapperToken string // PANEL_WRAPPER_TOKEN[_FILE]
	// ProviderToken is PANEL_PROVIDER_TOKEN[_FILE]: once set, GET
	// /api/proxy/config answers only a request with Authorization: Bearer
	// <token>, which Traefik's HTTP provider sends (providers.http.headers).
	// Managed mode derives one when it is unset (see managed.ProviderToken).
	ProviderToken string
	AgeIdentity   string // PANEL_AGE_IDENTITY[_FILE]
	// Managed mode's static configuration (see internal/managed).
	ManagedAPIAddress string // PANEL_MANAGED_API_ADDRESS, Traefik's internal API entrypoint (default :8080)
	ManagedACMEDir    string // PANEL_MANAGED_ACME_DIR, ACME storage directory inside the Traefik container (default /acme)
	ACMEEmail         string // PANEL_ACME_EMAIL, seeds the default resolver's e-mail
	// ReplicaURLs are PANEL_REPLICA_URLS: every replica's base URL as
	// Traefik reaches it. Managed mode then load-balances over them on
	// Traefik's loopback entrypoint ManagedPanelAddress.
	ReplicaURLs         []string
	ManagedPanelAddress string // PANEL_MANAGED_PANEL_ADDRESS, that entrypoint (default 127.0.0.1:8081)
	ManagedConfigDir    string // PANEL_MANAGED_CONFIG_DIR, the wrapper's GATEHOUSE_CONFIG_DIR (default /run/gatehouse)

	// TrustedProxies are PANEL_TRUSTED_PROXIES: proxies in front of Traefik
	// (a CDN, a load balancer) whose X-Forwarded-For entries count when
	// forward-auth works out the client's address.
	TrustedProxies []netip.Prefix
	// TraefikAddresses and TraefikHosts are PANEL_TRAEFIK_ADDRESSES: the
	// peers (Traefik, or whatever proxies to the panel) whose
	// X-Forwarded-For the panel's own routes read to find the client.
	// Every other peer is the client itself. Default: loopback, plus in
	// managed mode the host of PANEL_PROXY_API_URL (Traefik's container).
	TraefikAddresses []netip.Prefix
	TraefikHosts     []string
	GeoIPDB          string // PANEL_GEOIP_DB, a MaxMind-format country database for country rules

	// DockerHost is PANEL_DOCKER_HOST: the Docker Engine API the panel
	// lists containers from (unix:///var/run/docker.sock or
	// tcp://host:2375, for example a read-only socket proxy); "" is none.
	DockerHost string
	// DockerNetworks are PANEL_DOCKER_NETWORK: the networks Traefik shares
	// with containers, whose addresses a container's service targets.
	DockerNetworks []string
	// DockerPublishedHost is PANEL_DOCKER_PUBLISHED_HOST: the address
	// Traefik reaches the engine host's published ports at (default: the
	// host of a tcp:// PANEL_DOCKER_HOST, else 127.0.0.1).
	DockerPublishedHost string

	LogLevel  slog.Level // PANEL_LOG_LEVEL: debug, info, warn, error
	LogFormat string     // PANEL_LOG_FORMAT: text or json

	// MemoryLimit is PANEL_MEMORY_LIMIT: the Go runtime's soft memory limit
	// in bytes (see DefaultMemoryLimit); math.MaxInt64 is none,
	// MemoryLimitFromGo leaves GOMEMLIMIT's.
	MemoryLimit int64

	// BcryptCost is not read from the environment: zero means the production
	// default; tests lower it so password hashing does not dominate them.
	BcryptCost int
}

// Getenv is os.Getenv's shape, so tests can pass a map.
type Getenv func(string) string

// Load reads and validates the configuration.
func Load(getenv Getenv) (Config, error) {
	l := loader{getenv: getenv}
	c := Config{
		Listen:      l.str("PANEL_LISTEN", "127.0.0.1:8080"),
		DataDir:     l.str("PANEL_DATA_DIR", "./data"),
		DatabaseURL: l.str("PANEL_DATABASE_URL", ""),
		InternalURL: strings.TrimRight(l.str("PANEL_INTERNAL_URL", ""), "/"),
		PublicURL:   strings.TrimRight(l.str("PANEL_PUBLIC_URL", ""), "/"),
		PortalURL:   strings.TrimRight(l.str("PANEL_PORTAL_URL", ""), "/"),
		AdminDomain: strings.ToLower(l.str("PANEL_ADMIN_DOMAIN", "")),
		AdminUser:   l.str("PANEL_ADMIN_USER", ""),
		ProxyAPIURL: strings.TrimRight(l.str("PANEL_PROXY_API_URL", ""), "/"),
		MetricsURL:  l.str("PANEL_PROXY_METRICS_URL", ""),
		LogFormat:   l.str("PANEL_LOG_FORMAT", "text"),

		ManagedAPIAddress:   l.str("PANEL_MANAGED_API_ADDRESS", ":8080"),
		ManagedACMEDir:      l.str("PANEL_MANAGED_ACME_DIR", "/acme"),
		ACMEEmail:           l.str("PANEL_ACME_EMAIL", ""),
		ManagedPanelAddress: l.str("PANEL_MANAGED_PANEL_ADDRESS", "127.0.0.1:8081"),
		ManagedConfigDir:    l.str("PANEL_MANAGED_CONFIG_DIR", "/run/gatehouse"),
		GeoIPDB:             l.str("PANEL_GEOIP_DB", ""),
		DockerHost:          l.str("PANEL_DOCKER_HOST", ""),
		DockerPublishedHost: l.str("PANEL_DOCKER_PUBLISHED_HOST", ""),
	}
	c.AdminPassword = l.secret("PANEL_ADMIN_PASSWORD")
	c.WrapperToken = l.secret("PANEL_WRAPPER_TOKEN")
	c.ProviderToken = l.secret("PANEL_PROVIDER_TOKEN")
	c.AgeIdentity = l.secret("PANEL_AGE_IDENTITY")
	c.Managed = l.boolean("PANEL_MANAGED")
	c.LogLevel = l.level("PANEL_LOG_LEVEL")
	c.Traffic = l.traffic()
	if l.err != nil {
		return Config{}, l.err
	}

	if _, port, err := net.SplitHostPort(c.Listen); err != nil {
		return Config{}, fmt.Errorf("PANEL_LISTEN: %q is not host:port (for example 127.0.0.1:8080)", c.Listen)
	} else if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return Config{}, fmt.Errorf("PANEL_LISTEN: port %q must be a number between 0 and 65535", port)
	}
	if c.DataDir == "" {
		return Config{}, fmt.Errorf("PANEL_DATA_DIR: must not be empty")
	}
	if store.IsPostgres(c.DatabaseURL) {
		if err := checkPostgresURL(c.DatabaseURL); err != nil {
			return Config{}, fmt.Errorf("PANEL_DATABASE_URL: %w", err)
		}
		c.PostgresURL = c.DatabaseURL
	} else {
		path, err := sqlitePath(c.DatabaseURL, c.DataDir)
		if err != nil {
			return Config{}, fmt.Errorf("PANEL_DATABASE_URL: %w", err)
		}
		c.DBPath = path
	}
	bdir, err := backupDir(l.str("PANEL_BACKUP_DIR", ""), c.DataDir)
	if err != nil {
		return Config{}, fmt.Errorf("PANEL_BACKUP_DIR: %w", err)
	}
	c.BackupDir = bdir
	for _, u := range []struct{ name, val string }{
		{"PANEL_INTERNAL_URL", c.InternalURL}, {"PANEL_PUBLIC_URL", c.PublicURL}, {"PANEL_PORTAL_URL", c.PortalURL},
		{"PANEL_PROXY_API_URL", c.ProxyAPIURL}, {"PANEL_PROXY_METRICS_URL", c.MetricsURL},
		{"PANEL_PROMETHEUS_URL", c.Traffic.PrometheusURL},
	} {
		if err := checkHTTPURL(u.val); err != nil {
			return Config{}, fmt.Errorf("%s: %w", u.name, err)
		}
	}
	if c.MetricsURL == "" && c.ProxyAPIURL != "" {
		c.MetricsURL = c.ProxyAPIURL + "/metrics"
	}
	if c.AdminDomain != "" && strings.ContainsAny(c.AdminDomain, "/:` ()") {
		return Config{}, fmt.Errorf("PANEL_ADMIN_DOMAIN: %q must be a bare host name like panel.example.com", c.AdminDomain)
	}
	if err := checkProviderToken(c); err != nil {
		return Config{}, err
	}
	if err := checkManaged(c); err != nil {
		return Config{}, err
	}
	if c.ReplicaURLs, err = parseReplicaURLs(l.str("PANEL_REPLICA_URLS", "")); err != nil {
		return Config{}, fmt.Errorf("PANEL_REPLICA_URLS: %w", err)
	}
	if err := checkReplicas(c); err != nil {
		return Config{}, err
	}
	if (c.AdminUser == "") != (c.AdminPassword == "") {
		return Config{}, fmt.Errorf("PANEL_ADMIN_USER and PANEL_ADMIN_PASSWORD: set both or neither")
	}
	if c.TrustedProxies, err = rules.ParseTrusted(l.str("PANEL_TRUSTED_PROXIES", "")); err != nil {
		return Config{}, fmt.Errorf("PANEL_TRUSTED_PROXIES: %w (addresses or CIDRs, separated by commas)", err)
	}
	if c.TraefikAddresses, c.TraefikHosts, err = parseTraefikAddresses(l.str("PANEL_TRAEFIK_ADDRESSES", defaultTraefikAddresses(c))); err != nil {
		return Config{}, fmt.Errorf("PANEL_TRAEFIK_ADDRESSES: %w", err)
	}
	if c.GeoIPDB != "" {
		if st, err := os.Stat(c.GeoIPDB); err != nil || st.IsDir() {
			return Config{}, fmt.Errorf("PANEL_GEOIP_DB: %q is not a readable file", c.GeoIPDB)
		}
	}
	if err := loadDocker(&c, l.str("PANEL_DOCKER_NETWORK", "")); err != nil {
		return Config{}, err
	}
	if c.MemoryLimit, err = l.memoryLimit(); err != nil {
		return Config{}, err
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return Config{}, fmt.Errorf("PANEL_LOG_FORMAT: %q must be text or json", c.LogFormat)
	}
	return c, nil
}

func sqlitePath(dbURL, dataDir string) (string, error) {
	if dbURL == "" {
		return filepath.Join(dataDir, "gatehouse.db"), nil
	}
	switch {
	case strings.HasPrefix(dbURL, "sqlite://"):
		p := strings.TrimPrefix(dbURL, "sqlite://")
		if p == "" {
			return "", fmt.Errorf("%q names no file (for example sqlite:///var/lib/gatehouse/gatehouse.db)", dbURL)
		}
		return p, nil
	case strings.Contains(dbURL, "://"):
		// Only the scheme is quoted: the rest may hold a password.
		scheme, _, _ := strings.Cut(dbURL, "://")
		return "", fmt.Errorf("%s:// is not supported: use sqlite:// (or a file path) or postgres://", scheme)
	default:
		return dbURL, nil
	}
}

// backupDir is PANEL_BACKUP_DIR, else <data>/backups. It must not be the
// data directory itself (a restore moves files out of it) nor a file.
func backupDir(dir, dataDir string) (string, error) {
	if dir == "" {
		return filepath.Join(dataDir, "backups"), nil
	}
	dir = filepath.Clean(dir)
	if a, err := filepath.Abs(dir); err == nil {
		if d, err := filepath.Abs(dataDir); err == nil && a == d {
			return "", fmt.Errorf("%q is the data directory; name a directory of its own (default: <data>/backups)", dir)
		}
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return "", fmt.Errorf("%q exists and is not a directory", dir)
	}
	return dir, nil
}

// Database is what the store opens: the SQLite file or the PostgreSQL URL.
func (c Config) Database() string {
	if c.PostgresURL != "" {
		return c.PostgresURL
	}
	return c.DBPath
}

// DatabaseForLog is Database without the PostgreSQL password.
func (c Config) DatabaseForLog() string { return store.Redact(c.Database()) }

// checkPostgresURL checks the shape of a PostgreSQL URL; the server says the
// rest at start-up. Messages never quote the URL, which may hold a password.
func checkPostgresURL(dbURL string) error {
	u, err := url.Parse(dbURL)
	if err != nil {
		return fmt.Errorf("not a valid URL (for example postgres://gatehouse:secret@db:5432/gatehouse?sslmode=disable)")
	}
	q := u.Query()
	if u.Host == "" && q.Get("host") == "" {
		return fmt.Errorf("names no server (postgres://user:password@host:5432/database, or ?host=/socket/dir)")
	}
	if u.Port() != "" {
		if n, err := strconv.Atoi(u.Port()); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %q must be a number between 1 and 65535", u.Port())
		}
	}
	if strings.Trim(u.Path, "/") == "" && q.Get("dbname") == "" {
		return fmt.Errorf("names no database (postgres://user:password@host:5432/database)")
	}
	switch mode := q.Get("sslmode"); mode {
	case "", "disable", "allow", "prefer", "require", "verify-ca", "verify-full":
	default:
		return fmt.Errorf("sslmode %q must be one of disable, allow, prefer, require, verify-ca, verify-full", mode)
	}
	return nil
}

// providerTokenRE is what goes verbatim into a YAML string and an
// Authorization header: base64, base64url or hex (openssl rand -hex 32).
var providerTokenRE = regexp.MustCompile(`^[A-Za-z0-9._~+/=-]{32,512}$`)

// checkProviderToken never quotes the token: it is a secret.
func checkProviderToken(c Config) error {
	if c.ProviderToken == "" {
		return nil
	}
	if !providerTokenRE.MatchString(c.ProviderToken) {
		return fmt.Errorf("PANEL_PROVIDER_TOKEN: must be 32 to 512 characters of A-Z, a-z, 0-9 and ._~+/=- (for example openssl rand -hex 32)")
	}
	if c.Managed && c.WrapperToken == "" {
		// The static configuration carries it, and only the wrapper token
		// keeps that document from anyone on the internal network.
		return fmt.Errorf("PANEL_PROVIDER_TOKEN: managed mode also needs PANEL_WRAPPER_TOKEN, which guards the static configuration that carries it")
	}
	return nil
}

func checkManaged(c Config) error {
	if _, port, err := net.SplitHostPort(c.ManagedAPIAddress); err != nil {
		return fmt.Errorf("PANEL_MANAGED_API_ADDRESS: %q is not [host]:port (for example :8080)", c.ManagedAPIAddress)
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("PANEL_MANAGED_API_ADDRESS: port %q must be a number between 1 and 65535", port)
	}
	if !strings.HasPrefix(c.ManagedACMEDir, "/") || strings.ContainsAny(c.ManagedACMEDir, "\"\n") {
		return fmt.Errorf("PANEL_MANAGED_ACME_DIR: %q must be an absolute path", c.ManagedACMEDir)
	}
	if c.ACMEEmail != "" {
		if a, err := mail.ParseAddress(c.ACMEEmail); err != nil || a.Address != c.ACMEEmail {
			return fmt.Errorf("PANEL_ACME_EMAIL: %q is not a bare e-mail address", c.ACMEEmail)
		}
	}
	return nil
}

func checkHTTPURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q must be an absolute http:// or https:// URL", s)
	}
	return nil
}

type loader struct {
	getenv Getenv
	err    error
}

func (l *loader) str(name, def string) string {
	if v := strings.TrimSpace(l.getenv(name)); v != "" {
		return v
	}
	return def
}

// secret reads NAME, or the file named by NAME_FILE (trailing newline trimmed).
func (l *loader) secret(name string) string {
	v := l.getenv(name)
	file := l.getenv(name + "_FILE")
	if v != "" && file != "" && l.err == nil {
		l.err = fmt.Errorf("%s and %s_FILE: set only one", name, name)
		return ""
	}
	if file == "" {
		return v
	}
	b, err := os.ReadFile(file) //nolint:gosec // the operator names the secret file (PANEL_*_FILE)
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("%s_FILE: cannot read %q: %w", name, file, err)
		return ""
	}
	return strings.TrimRight(string(b), "\r\n")
}

func (l *loader) boolean(name string) bool {
	v := strings.TrimSpace(l.getenv(name))
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("%s: %q must be true or false", name, v)
	}
	return b
}

func (l *loader) level(name string) slog.Level {
	v := strings.TrimSpace(l.getenv(name))
	if v == "" {
		return slog.LevelInfo
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(v)); err != nil && l.err == nil {
		l.err = fmt.Errorf("%s: %q must be debug, info, warn or error", name, v)
	}
	return lvl
}
