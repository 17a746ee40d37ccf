package managed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"path"
	"strconv"
)

// StaticOptions are the fixed inputs of the static configuration that come
// from the panel's own settings rather than from the managed config.
type StaticOptions struct {
	// ProviderURL is the panel's base URL as Traefik reaches it
	// (PANEL_INTERNAL_URL); the HTTP provider polls <ProviderURL>/api/proxy/config.
	ProviderURL string
	// APIAddress is the address of the internal "traefik" entrypoint that
	// carries the API, dashboard, ping and metrics (default ":8080").
	APIAddress string
	// ACMEDir holds one storage file per resolver (default "/acme").
	ACMEDir string
	// Replicas are the panel's replicas as Traefik reaches them
	// (PANEL_REPLICA_URLS). With any, Traefik gets the loopback entrypoint
	// "gatehouse" on PanelAddress and a file provider watching
	// <ConfigDir>/replicas.yml, the load balancer over them (BuildReplicas);
	// ProviderURL is then that entrypoint.
	Replicas []string
	// PanelAddress is the loopback entrypoint's address (default 127.0.0.1:8081).
	PanelAddress string
	// ConfigDir is the wrapper's GATEHOUSE_CONFIG_DIR (default /run/gatehouse).
	ConfigDir string
	// ProviderToken, when set, is sent by the HTTP provider as
	// Authorization: Bearer <token> (providers.http.headers, accepted by
	// Traefik 3.6 and 3.7): the panel serves /api/proxy/config to nothing
	// else. The document then holds a secret, so only the wrapper gets it.
	ProviderToken string
}

// HashHeader carries the hash of the static configuration.
const HashHeader = "X-Gatehouse-Config-Hash"

// hashLinePrefix starts the comment line that repeats the hash inside the
// file, so the wrapper reads it without parsing response headers.
const hashLinePrefix = "# gatehouse-config-hash: "

// The YAML shape mirrors the subset of Traefik's static configuration we
// emit (pkg/config/static), with the same keys. Maps are sorted by yaml.v3,
// which keeps the output deterministic.
type staticYAML struct {
	Global                global                  `yaml:"global"`
	Log                   logYAML                 `yaml:"log"`
	API                   apiYAML                 `yaml:"api"`
	Ping                  pingYAML                `yaml:"ping"`
	Metrics               metricsYAML             `yaml:"metrics"`
	EntryPoints           map[string]entryPoint   `yaml:"entryPoints"`
	Providers             providersYAML           `yaml:"providers"`
	CertificatesResolvers map[string]resolverYAML `yaml:"certificatesResolvers,omitempty"`
}

type global struct {
	CheckNewVersion    bool `yaml:"checkNewVersion"`
	SendAnonymousUsage bool `yaml:"sendAnonymousUsage"`
}

type logYAML struct {
	Level string `yaml:"level"`
}

type apiYAML struct {
	Dashboard bool `yaml:"dashboard"`
	// Insecure serves the API on the "traefik" entrypoint, which is internal
	// (never published by the bundled compose file); the panel reads it there.
	Insecure bool `yaml:"insecure"`
}

type pingYAML struct {
	EntryPoint string `yaml:"entryPoint"`
}

type metricsYAML struct {
	Prometheus prometheusYAML `yaml:"prometheus"`
}

type prometheusYAML struct {
	EntryPoint           string `yaml:"entryPoint"`
	AddEntryPointsLabels bool   `yaml:"addEntryPointsLabels"`
	AddRoutersLabels     bool   `yaml:"addRoutersLabels"`
	AddServicesLabels    bool   `yaml:"addServicesLabels"`
}

type entryPoint struct {
	Address string `yaml:"address"`
	// AsDefault keeps routers without explicit entrypoints off the internal
	// "traefik" entrypoint.
	AsDefault        bool                  `yaml:"asDefault,omitempty"`
	ForwardedHeaders *forwardedHeadersYAML `yaml:"forwardedHeaders,omitempty"`
	HTTP             *entryHTTPYML         `yaml:"http,omitempty"`
}

type forwardedHeadersYAML struct {
	TrustedIPs []string `yaml:"trustedIPs"`
}

type entryHTTPYML struct {
	Redirections *redirections `yaml:"redirections,omitempty"`
	TLS          *entryTLS     `yaml:"tls,omitempty"`
}

type redirections struct {
	EntryPoint redirectEntryPoint `yaml:"entryPoint"`
}

type redirectEntryPoint struct {
	To        string `yaml:"to"`
	Scheme    string `yaml:"scheme"`
	Permanent bool   `yaml:"permanent"`
}

type entryTLS struct {
	CertResolver string `yaml:"certResolver,omitempty"`
}

type providersYAML struct {
	HTTP httpProvider  `yaml:"http"`
	File *fileProvider `yaml:"file,omitempty"`
}

type fileProvider struct {
	Filename string `yaml:"filename"`
	Watch    bool   `yaml:"watch"`
}

type httpProvider struct {
	Endpoint     string            `yaml:"endpoint"`
	PollInterval string            `yaml:"pollInterval"`
	PollTimeout  string            `yaml:"pollTimeout"`
	Headers      map[string]string `yaml:"headers,omitempty"`
}

type resolverYAML struct {
	ACME acmeYAML `yaml:"acme"`
}

type acmeYAML struct {
	Email         string         `yaml:"email"`
	Storage       string         `yaml:"storage"`
	TLSChallenge  *struct{}      `yaml:"tlsChallenge,omitempty"`
	HTTPChallenge *httpChallenge `yaml:"httpChallenge,omitempty"`
	DNSChallenge  *dnsChallenge  `yaml:"dnsChallenge,omitempty"`
}

type httpChallenge struct {
	EntryPoint string `yaml:"entryPoint"`
}

type dnsChallenge struct {
	Provider    string       `yaml:"provider"`
	Resolvers   []string     `yaml:"resolvers,omitempty"`
	Propagation *propagation `yaml:"propagation,omitempty"`
}

type propagation struct {
	DelayBeforeChecks string `yaml:"delayBeforeChecks"`
}

// BuildStatic renders Traefik's static configuration. It is pure and
// deterministic: the same inputs give the same bytes (and hash). Resolvers
// without an e-mail are inactive: left out, and so are references to them.
func BuildStatic(c Config, o StaticOptions) []byte {
	if o.APIAddress == "" {
		o.APIAddress = ":8080"
	}
	if o.ACMEDir == "" {
		o.ACMEDir = "/acme"
	}
	active := map[string]bool{}
	resolvers := map[string]resolverYAML{}
	for _, r := range c.Resolvers {
		if !r.Active() {
			continue
		}
		active[r.Name] = true
		resolvers[r.Name] = resolverYAML{ACME: acme(r, o.ACMEDir)}
	}
	eps := map[string]entryPoint{APIEntrypoint: {Address: o.APIAddress}}
	byName := map[string]Entrypoint{}
	for _, e := range c.Entrypoints {
		byName[e.Name] = e
	}
	for _, e := range c.Entrypoints {
		addr := net.JoinHostPort(e.Host, strconv.Itoa(e.Port))
		if e.Stream() {
			// Not a default: HTTP routers without entrypoints stay off it.
			if e.Protocol == ProtocolUDP {
				addr += "/udp"
			}
			eps[e.Name] = entryPoint{Address: addr}
			continue
		}
		ep := entryPoint{Address: addr, AsDefault: true}
		var h entryHTTPYML
		if target, ok := byName[e.RedirectTo]; ok && e.RedirectTo != "" {
			scheme := "http"
			if target.TLS {
				scheme = "https"
			}
			h.Redirections = &redirections{EntryPoint: redirectEntryPoint{To: e.RedirectTo, Scheme: scheme, Permanent: true}}
		}
		if e.TLS {
			h.TLS = &entryTLS{}
			if active[e.Resolver] {
				h.TLS.CertResolver = e.Resolver
			}
		}
		if h.Redirections != nil || h.TLS != nil {
			ep.HTTP = &h
		}
		eps[e.Name] = ep
	}
	var file *fileProvider
	if len(o.Replicas) > 0 {
		if o.PanelAddress == "" {
			o.PanelAddress = "127.0.0.1:8081"
		}
		// Forward-auth requests reach the panel through this entrypoint with
		// the X-Forwarded-* headers Traefik wrote: from anywhere else they
		// would be replaced. Only Traefik itself connects from loopback.
		eps[PanelEntrypoint] = entryPoint{Address: o.PanelAddress,
			ForwardedHeaders: &forwardedHeadersYAML{TrustedIPs: []string{"127.0.0.1/32", "::1/128"}}}
		file = &fileProvider{Filename: replicasFilePath(o.ConfigDir), Watch: true}
	}
	level := c.LogLevel
	if level == "" {
		level = "INFO"
	}
	var headers map[string]string
	if o.ProviderToken != "" {
		headers = map[string]string{"Authorization": "Bearer " + o.ProviderToken}
	}
	doc := staticYAML{
		Log:  logYAML{Level: level},
		API:  apiYAML{Dashboard: true, Insecure: true},
		Ping: pingYAML{EntryPoint: APIEntrypoint},
		Metrics: metricsYAML{Prometheus: prometheusYAML{
			EntryPoint: APIEntrypoint, AddEntryPointsLabels: true, AddRoutersLabels: true, AddServicesLabels: true,
		}},
		EntryPoints: eps,
		Providers: providersYAML{HTTP: httpProvider{
			Endpoint: o.ProviderURL + "/api/proxy/config", PollInterval: "5s", PollTimeout: "5s", Headers: headers,
		}, File: file},
		CertificatesResolvers: resolvers,
	}
	return encodeYAML(doc)
}

func acme(r Resolver, dir string) acmeYAML {
	a := acmeYAML{Email: r.Email, Storage: path.Join(dir, r.Name+".json")}
	switch r.Challenge {
	case ChallengeHTTP:
		a.HTTPChallenge = &httpChallenge{EntryPoint: r.HTTPEntrypoint}
	case ChallengeDNS:
		d := &dnsChallenge{Provider: r.DNSProvider}
		for _, s := range r.DNSResolvers {
			d.Resolvers = append(d.Resolvers, dnsResolverAddress(s))
		}
		if r.PropagationDelaySeconds > 0 {
			d.Propagation = &propagation{DelayBeforeChecks: strconv.Itoa(r.PropagationDelaySeconds) + "s"}
		}
		a.DNSChallenge = d
	default:
		a.TLSChallenge = &struct{}{}
	}
	return a
}

// StaticDocument is the file served to the wrapper: a short header whose
// second line repeats the hash, then the YAML. The hash covers the YAML only.
func StaticDocument(yamlBody []byte) (doc []byte, hash string) {
	return document("# Traefik static configuration generated by Gatehouse (managed mode). Do not edit.", hashLinePrefix, yamlBody)
}

// document is a file served to the wrapper: the title line, the hash line
// (prefix and the YAML's hash, which the wrapper checks), then the YAML.
func document(title, prefix string, yamlBody []byte) (doc []byte, hash string) {
	hash = ContentHash(yamlBody)
	var b bytes.Buffer
	b.WriteString(title + "\n")
	b.WriteString(prefix + hash + "\n")
	b.Write(yamlBody)
	return b.Bytes(), hash
}

// ContentHash is the hex SHA-256 of b.
func ContentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
