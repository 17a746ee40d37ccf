// Package managed implements managed mode: the panel owns Traefik's static
// configuration (entrypoints, ACME resolvers, log level) and the DNS provider
// credentials, which it keeps encrypted with age. A small wrapper script in
// the Traefik container polls both, restarts Traefik when they change and
// reports back what it runs, so the panel can tell applied from pending.
package managed

import (
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Config is the managed static configuration, stored under store.KeyManaged.
type Config struct {
	Entrypoints []Entrypoint `json:"entrypoints"`
	Resolvers   []Resolver   `json:"resolvers"`
	LogLevel    string       `json:"logLevel"`
}

// Entrypoint is one Traefik entrypoint.
type Entrypoint struct {
	Name string `json:"name"`
	// Host optionally binds the entrypoint to one IP address; empty means
	// every interface.
	Host       string `json:"host,omitempty"`
	Port       int    `json:"port"`
	TLS        bool   `json:"tls"`
	Resolver   string `json:"resolver"`   // default certificate resolver of routers on this entrypoint
	RedirectTo string `json:"redirectTo"` // redirect every request to this entrypoint
	// Protocol is "" (HTTP, the default), "tcp" (raw TCP, for tcp services:
	// no TLS, resolver or redirect of its own, not a default entrypoint of
	// HTTP routers) or "udp" (address <port>/udp, for udp services).
	Protocol string `json:"protocol,omitempty"`
}

// Entrypoint protocols (Entrypoint.Protocol).
const (
	ProtocolHTTP = ""
	ProtocolTCP  = "tcp"
	ProtocolUDP  = "udp"
)

// Stream reports whether the entrypoint carries tcp or udp services only.
func (e Entrypoint) Stream() bool { return e.Protocol == ProtocolTCP || e.Protocol == ProtocolUDP }

// Resolver is one ACME certificate resolver.
type Resolver struct {
	Name                    string   `json:"name"`
	Email                   string   `json:"email"`
	Challenge               string   `json:"challenge"` // tlsalpn | http | dns
	HTTPEntrypoint          string   `json:"httpEntrypoint"`
	DNSProvider             string   `json:"dnsProvider"`
	DNSResolvers            []string `json:"dnsResolvers"`
	PropagationDelaySeconds int      `json:"propagationDelaySeconds"`
}

// The ACME challenge types.
const (
	ChallengeTLSALPN = "tlsalpn"
	ChallengeHTTP    = "http"
	ChallengeDNS     = "dns"
)

// DefaultResolver is the resolver every fresh installation starts with.
const DefaultResolver = "letsencrypt"

// APIEntrypoint is the internal entrypoint carrying Traefik's API, dashboard,
// ping and metrics. It is never published and cannot be used as a name.
const APIEntrypoint = "traefik"

var logLevels = []string{"DEBUG", "INFO", "WARN", "ERROR"}

const (
	maxEntrypoints      = 16
	maxResolvers        = 16
	maxDNSResolvers     = 8
	maxPropagationDelay = 3600
)

// Defaults is the configuration of a fresh installation: web on :80
// redirecting to websecure on :443 with TLS and the letsencrypt resolver
// (TLS-ALPN challenge). The resolver stays inactive until it has an e-mail
// address (acmeEmail, from PANEL_ACME_EMAIL, or set later in the UI).
func Defaults(acmeEmail string) Config {
	return Config{
		Entrypoints: []Entrypoint{
			{Name: "web", Port: 80, RedirectTo: "websecure"},
			{Name: "websecure", Port: 443, TLS: true, Resolver: DefaultResolver},
		},
		Resolvers: []Resolver{{
			Name: DefaultResolver, Email: acmeEmail, Challenge: ChallengeTLSALPN, DNSResolvers: []string{},
		}},
		LogLevel: "INFO",
	}
}

// Active reports whether the resolver can be used: ACME needs an e-mail.
func (r Resolver) Active() bool { return r.Email != "" }

// normalize trims strings, fills empty slices and clears the fields the
// chosen challenge does not use, so equal configurations compare equal.
func (c *Config) normalize() {
	if c.Entrypoints == nil {
		c.Entrypoints = []Entrypoint{}
	}
	if c.Resolvers == nil {
		c.Resolvers = []Resolver{}
	}
	c.LogLevel = strings.ToUpper(strings.TrimSpace(c.LogLevel))
	if c.LogLevel == "" {
		c.LogLevel = "INFO"
	}
	for i := range c.Entrypoints {
		e := &c.Entrypoints[i]
		e.Name = strings.TrimSpace(e.Name)
		e.Host = strings.TrimSpace(e.Host)
		e.Resolver = strings.TrimSpace(e.Resolver)
		e.RedirectTo = strings.TrimSpace(e.RedirectTo)
		e.Protocol = strings.ToLower(strings.TrimSpace(e.Protocol))
		if e.Protocol == "http" {
			e.Protocol = ProtocolHTTP
		}
	}
	for i := range c.Resolvers {
		r := &c.Resolvers[i]
		r.Name = strings.TrimSpace(r.Name)
		r.Email = strings.TrimSpace(r.Email)
		r.Challenge = strings.ToLower(strings.TrimSpace(r.Challenge))
		r.HTTPEntrypoint = strings.TrimSpace(r.HTTPEntrypoint)
		r.DNSProvider = strings.ToLower(strings.TrimSpace(r.DNSProvider))
		resolvers := make([]string, 0, len(r.DNSResolvers))
		for _, s := range r.DNSResolvers {
			if s = strings.TrimSpace(s); s != "" {
				resolvers = append(resolvers, s)
			}
		}
		r.DNSResolvers = resolvers
		if r.Challenge != ChallengeHTTP {
			r.HTTPEntrypoint = ""
		}
		if r.Challenge != ChallengeDNS {
			r.DNSProvider, r.DNSResolvers, r.PropagationDelaySeconds = "", []string{}, 0
		}
	}
}

// Validate normalizes c and checks it as a whole. apiPort is the port of the
// internal API entrypoint, which no other entrypoint may take.
func (c *Config) Validate(apiPort int) error {
	c.normalize()
	var col apperr.Collector
	if !contains(logLevels, c.LogLevel) {
		col.Add("logLevel", "must be one of: %s", strings.Join(logLevels, ", "))
	}
	resolvers := map[string]bool{}
	for i, r := range c.Resolvers {
		f := fmt.Sprintf("resolvers[%d].", i)
		switch {
		case !validate.Resolver(r.Name):
			col.Add(f+"name", "must be 1-63 letters, digits, - or _, starting with a letter or digit")
		case resolvers[r.Name]:
			col.Add(f+"name", "%q is used by another resolver", r.Name)
		}
		resolvers[r.Name] = true
	}
	entrypoints := map[string]Entrypoint{}
	for _, e := range c.Entrypoints {
		if _, dup := entrypoints[e.Name]; !dup {
			entrypoints[e.Name] = e
		}
	}
	validateEntrypoints(&col, c.Entrypoints, entrypoints, resolvers, apiPort)
	for i, r := range c.Resolvers {
		validateResolver(&col, fmt.Sprintf("resolvers[%d].", i), r, entrypoints)
	}
	return col.Err()
}

func validateEntrypoints(col *apperr.Collector, eps []Entrypoint, byName map[string]Entrypoint, resolvers map[string]bool, apiPort int) {
	if len(eps) == 0 {
		col.Add("entrypoints", "must have at least one entrypoint: Traefik would not listen anywhere")
	}
	if len(eps) > maxEntrypoints {
		col.Add("entrypoints", "must have at most %d items", maxEntrypoints)
	}
	names, ports := map[string]bool{}, map[string]string{}
	for i, e := range eps {
		f := fmt.Sprintf("entrypoints[%d].", i)
		switch {
		case !validate.Entrypoint(e.Name):
			col.Add(f+"name", "must be 1-63 letters, digits, - or _, starting with a letter or digit")
		case e.Name == APIEntrypoint:
			col.Add(f+"name", "%q is reserved for Traefik's internal API entrypoint", APIEntrypoint)
		case names[e.Name]:
			col.Add(f+"name", "%q is used by another entrypoint", e.Name)
		}
		names[e.Name] = true
		if e.Host != "" && net.ParseIP(e.Host) == nil {
			col.Add(f+"host", "must be an IP address, or empty for every interface")
		}
		// A UDP entrypoint may share its port number with a TCP one (DNS on
		// 53/tcp and 53/udp): the sockets differ.
		portKey := strconv.Itoa(e.Port) + "/" + map[bool]string{true: "udp", false: "tcp"}[e.Protocol == ProtocolUDP]
		switch other, dup := ports[portKey]; {
		case e.Port < 1 || e.Port > 65535:
			col.Add(f+"port", "must be between 1 and 65535")
		case e.Port == apiPort && e.Protocol != ProtocolUDP:
			col.Add(f+"port", "port %d is taken by Traefik's internal API entrypoint", apiPort)
		case dup:
			col.Add(f+"port", "port %d is used by entrypoint %q", e.Port, other)
		default:
			ports[portKey] = e.Name
		}
		switch e.Protocol {
		case ProtocolHTTP:
		case ProtocolTCP, ProtocolUDP:
			if e.TLS {
				col.Add(f+"tls", "a %s entrypoint has no TLS of its own (a tcp service terminates or passes TLS on its router)", e.Protocol)
			}
			if e.RedirectTo != "" {
				col.Add(f+"redirectTo", "a %s entrypoint cannot redirect HTTP requests", e.Protocol)
			}
		default:
			col.Add(f+"protocol", "must be one of: http (or empty), tcp, udp")
		}
		if e.Resolver != "" {
			switch {
			case !resolvers[e.Resolver]:
				col.Add(f+"resolver", "unknown resolver %q", e.Resolver)
			case !e.TLS:
				col.Add(f+"resolver", "a certificate resolver needs tls enabled")
			}
		}
		if e.RedirectTo != "" && !e.Stream() {
			target, ok := byName[e.RedirectTo]
			switch {
			case target.Stream():
				col.Add(f+"redirectTo", "entrypoint %q is a %s entrypoint", e.RedirectTo, target.Protocol)
			case e.RedirectTo == e.Name:
				col.Add(f+"redirectTo", "an entrypoint cannot redirect to itself")
			case !ok:
				col.Add(f+"redirectTo", "unknown entrypoint %q", e.RedirectTo)
			case target.RedirectTo != "":
				col.Add(f+"redirectTo", "entrypoint %q redirects too; point to the final one", e.RedirectTo)
			}
		}
	}
}

func validateResolver(col *apperr.Collector, f string, r Resolver, entrypoints map[string]Entrypoint) {
	// No e-mail yet is allowed: the resolver stays inactive (left out of the
	// static configuration) so the rest of the configuration can be saved.
	if r.Email != "" {
		if err := CheckEmail(r.Email); err != nil {
			col.Add(f+"email", "%v", err)
		}
	}
	switch r.Challenge {
	case ChallengeTLSALPN:
	case ChallengeHTTP:
		switch e, ok := entrypoints[r.HTTPEntrypoint]; {
		case r.HTTPEntrypoint == "":
			col.Add(f+"httpEntrypoint", "is required for the HTTP challenge (the entrypoint on port 80)")
		case !ok:
			col.Add(f+"httpEntrypoint", "unknown entrypoint %q", r.HTTPEntrypoint)
		case e.TLS || e.Stream():
			col.Add(f+"httpEntrypoint", "must be a plain HTTP entrypoint (the one on port 80)")
		}
	case ChallengeDNS:
		if r.DNSProvider == "" {
			col.Add(f+"dnsProvider", "is required for the DNS challenge")
		} else if _, ok := LookupProvider(r.DNSProvider); !ok {
			col.Add(f+"dnsProvider", "unknown DNS provider %q (see /api/proxy/managed/dns-providers)", r.DNSProvider)
		}
		if len(r.DNSResolvers) > maxDNSResolvers {
			col.Add(f+"dnsResolvers", "must have at most %d items", maxDNSResolvers)
		}
		for j, s := range r.DNSResolvers {
			if err := checkDNSResolver(s); err != nil {
				col.Add(fmt.Sprintf("%sdnsResolvers[%d]", f, j), "%v", err)
			}
		}
		if r.PropagationDelaySeconds < 0 || r.PropagationDelaySeconds > maxPropagationDelay {
			col.Add(f+"propagationDelaySeconds", "must be between 0 and %d", maxPropagationDelay)
		}
	default:
		col.Add(f+"challenge", "must be one of: tlsalpn, http, dns")
	}
}

// CheckEmail accepts a bare address (no display name) whose domain is a
// public-looking name: Let's Encrypt refuses the rest at registration time.
func CheckEmail(s string) error {
	if s == "" {
		return fmt.Errorf("is required: ACME needs a contact e-mail address")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return fmt.Errorf("must be a valid e-mail address like you@your-domain.com")
	}
	domain := strings.ToLower(s[strings.LastIndexByte(s, '@')+1:])
	if !strings.Contains(domain, ".") || validate.Hostname(domain, false) != nil {
		return fmt.Errorf("must be a valid e-mail address like you@your-domain.com")
	}
	for _, bad := range []string{"example.com", "example.org", "example.net"} {
		if domain == bad || strings.HasSuffix(domain, "."+bad) {
			return fmt.Errorf("%s addresses are refused by Let's Encrypt", bad)
		}
	}
	return nil
}

// checkDNSResolver accepts host:port or a bare IP (port 53 is added by normalizeDNSResolver).
func checkDNSResolver(s string) error {
	if ip := net.ParseIP(s); ip != nil {
		return nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("must be an IP address or host:port, like 1.1.1.1:53")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port must be between 1 and 65535")
	}
	if net.ParseIP(host) == nil && validate.Hostname(host, false) != nil {
		return fmt.Errorf("%q is not an IP address or host name", host)
	}
	return nil
}

// dnsResolverAddress is what Traefik expects: host:port.
func dnsResolverAddress(s string) string {
	if ip := net.ParseIP(s); ip != nil {
		return net.JoinHostPort(s, "53")
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
