package npm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// NPM's HSTS header (templates/_hsts.conf): one year, preload always,
// includeSubDomains when asked.
const npmHSTSMaxAge = 31536000

// maxHostnames is the most hostnames a Gatehouse service has.
const maxHostnames = 50

// converter turns the rows of one database into a document, keeping names
// and hostnames unique across it.
type converter struct {
	src      *source
	cost     int
	doc      document.Document
	skipped  []document.Skipped
	names    map[string]bool   // service names taken
	hosts    map[string]string // hostname -> the NPM host that has it
	setNames map[int64]string  // access list id -> credential set name
}

func convert(src *source, cost int) (document.Document, []document.Skipped) {
	c := &converter{
		src: src, cost: cost,
		doc: document.Document{Format: document.Format, Version: document.Version,
			Domains: []document.Domain{}, Services: []document.Service{}, CredentialSets: []document.CredentialSet{}},
		names: map[string]bool{}, hosts: map[string]string{}, setNames: map[int64]string{},
	}
	c.credentialSets()
	for _, h := range src.proxyHosts {
		c.proxyHost(h)
	}
	for _, h := range src.redirectionHosts {
		c.redirectionHost(h)
	}
	for _, h := range src.deadHosts {
		c.skip(c.label("404 host", h.id, h.domainNames),
			"not imported: Gatehouse already answers 404 for a hostname no service has")
	}
	for _, s := range src.streams {
		c.stream(s)
	}
	if c.skipped == nil {
		c.skipped = []document.Skipped{}
	}
	return c.doc, c.skipped
}

func (c *converter) skip(source, format string, args ...any) {
	c.skipped = append(c.skipped, document.Skipped{Source: source, Reason: fmt.Sprintf(format, args...)})
}

// label names an NPM host the way NPM's own list shows it: kind, id and
// first domain name.
func (c *converter) label(kind string, id int64, domainNames string) string {
	names, err := parseDomainNames(domainNames)
	if err != nil || len(names) == 0 {
		return fmt.Sprintf("%s #%d", kind, id)
	}
	return fmt.Sprintf("%s #%d (%s)", kind, id, clip(names[0], 80))
}

// parseDomainNames decodes NPM's domain_names column, a JSON list of names.
func parseDomainNames(raw string) ([]string, error) {
	var names []string
	if err := json.Unmarshal([]byte(raw), &names); err != nil {
		return nil, errors.New("its domain names are not a JSON list of names")
	}
	return names, nil
}

// hostnames turns a host's domain names into custom hostnames, reporting
// each one that cannot come over. ok is false when none can.
func (c *converter) hostnames(source string, h host) (out []store.Hostname, ok bool) {
	names, err := parseDomainNames(h.domainNames)
	if err != nil {
		c.skip(source, "not imported: %v", err)
		return nil, false
	}
	for _, raw := range names {
		n := validate.NormalizeHostname(raw)
		switch {
		case strings.HasPrefix(n, "*."):
			c.skip(source, "hostname %q not imported: Gatehouse services answer for exact hostnames, not wildcards; add each name you need", n)
			continue
		case validate.Hostname(n, false) != nil:
			c.skip(source, "hostname %q not imported: %v", raw, validate.Hostname(n, false))
			continue
		}
		if other, taken := c.hosts[n]; taken {
			c.skip(source, "hostname %q not imported: %s already has it", n, other)
			continue
		}
		out = append(out, store.Hostname{Type: store.HostCustom, Value: n})
	}
	if len(out) == 0 {
		c.skip(source, "not imported: it has no hostname Gatehouse can serve")
		return nil, false
	}
	if len(out) > maxHostnames {
		c.skip(source, "not imported: it has %d hostnames and a Gatehouse service has at most %d", len(out), maxHostnames)
		return nil, false
	}
	for _, hn := range out {
		c.hosts[hn.Value] = source
	}
	return out, true
}

// serviceName is the first hostname, made unique.
func (c *converter) serviceName(first string) string {
	name := first
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s (%d)", first, i)
	}
	c.names[name] = true
	return name
}

func newService(name string, hostnames []store.Hostname, enabled bool) document.Service {
	return document.Service{
		Name: name, Hostnames: hostnames, Targets: []store.Target{},
		Entrypoints: []string{}, Rules: []store.Rule{}, Middlewares: []string{}, Headers: map[string]string{},
		// nginx sends the request's Host on (NPM's proxy.conf sets Host $host).
		PassHostHeader: true,
		Kind:           store.KindProxy,
		Enabled:        enabled,
		Expiry:         document.Expiry{Type: store.ExpiryNever},
		Protections:    []document.Protection{},
	}
}

// https applies NPM's "Force SSL" and HSTS, which NPM only honours on a
// host with a certificate (templates/_forced_ssl.conf, _hsts.conf), and
// notes the certificate, which does not come over.
func (c *converter) https(source string, h host, sv *document.Service) {
	if h.certificateID <= 0 {
		return
	}
	cert, known := c.src.certificates[h.certificateID]
	switch {
	case known && cert.provider == "letsencrypt":
		c.skip(source, "its Let's Encrypt certificate #%d is not imported: Traefik obtains its own through ACME for the service's hostnames", h.certificateID)
	default:
		c.skip(source, "its custom certificate #%d%s is not imported: Traefik obtains certificates through ACME; to serve this one instead, add it to Traefik's TLS configuration",
			h.certificateID, quoted(cert.niceName))
	}
	if !h.sslForced {
		return
	}
	yes := true
	sv.HTTPSRedirect = &yes
	if h.hstsEnabled {
		sv.HSTS = &store.HSTS{MaxAge: npmHSTSMaxAge, IncludeSubdomains: h.hstsSubdomains, Preload: h.hstsSubdomains}
		if !h.hstsSubdomains {
			c.skip(source, "HSTS comes over without NPM's preload flag: Gatehouse sends preload only with includeSubDomains, as the preload list requires")
		}
	}
}

// clip shortens s to at most n bytes for a message, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", s)
}

// common notes what every host kind may have and Gatehouse does not do.
func (c *converter) common(source string, h host) {
	if h.blockExploits {
		c.skip(source, "\"Block common exploits\" is not imported: it is a set of nginx rules with no Traefik counterpart")
	}
	if strings.TrimSpace(h.advancedConfig) != "" {
		c.skip(source, "its custom nginx configuration is not imported: nginx directives mean nothing to Traefik; add what you need as middlewares or headers")
	}
}

func (c *converter) proxyHost(h proxyHost) {
	source := c.label("proxy host", h.id, h.domainNames)
	scheme := strings.ToLower(strings.TrimSpace(h.forwardScheme))
	target := strings.Trim(strings.TrimSpace(h.forwardHost), "[]")
	switch {
	case scheme != "http" && scheme != "https":
		c.skip(source, "not imported: its forward scheme %q is neither http nor https", h.forwardScheme)
		return
	case validate.TargetHost(target) != nil:
		c.skip(source, "not imported: its forward host %q is not an IP address or host name", h.forwardHost)
		return
	case h.forwardPort < 1 || h.forwardPort > 65535:
		c.skip(source, "not imported: its forward port %d is not between 1 and 65535", h.forwardPort)
		return
	}
	hostnames, ok := c.hostnames(source, h.host)
	if !ok {
		return
	}
	sv := newService(c.serviceName(hostnames[0].Value), hostnames, h.enabled)
	sv.Targets = []store.Target{{Scheme: scheme, Host: target, Port: int(h.forwardPort)}}
	// nginx does not verify an upstream's certificate unless told to
	// (proxy_ssl_verify is off by default), and NPM never tells it to.
	sv.InsecureSkipVerify = scheme == "https"
	// allow_websocket_upgrade needs nothing: Traefik passes WebSocket
	// upgrades through on every router.
	c.https(source, h.host, &sv)
	c.common(source, h.host)
	if h.cachingEnabled {
		c.skip(source, "\"Cache assets\" is not imported: Gatehouse does not cache responses")
	}
	if paths := locationPaths(h.locations); len(paths) > 0 {
		c.skip(source, "its custom locations (%s) are not imported: a Gatehouse service sends every path to its own targets; make a service on another hostname for each if needed",
			strings.Join(paths, ", "))
	}
	if h.accessListID > 0 {
		c.protect(source, h.accessListID, &sv)
	}
	c.doc.Services = append(c.doc.Services, sv)
}

// locationPaths lists the paths of NPM's custom locations (a JSON list of
// objects with a path); a value that is not such a list counts as one
// unnamed location unless it is empty.
func locationPaths(raw string) []string {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" || raw == "[]" {
		return nil
	}
	var locs []struct {
		Path any `json:"path"`
	}
	if err := json.Unmarshal([]byte(raw), &locs); err != nil {
		return []string{"unreadable"}
	}
	var out []string
	for _, l := range locs {
		p, _ := l.Path.(string)
		if p == "" {
			p = "?"
		}
		out = append(out, clip(p, 80))
	}
	return out
}

func (c *converter) redirectionHost(h redirectionHost) {
	source := c.label("redirection host", h.id, h.domainNames)
	scheme := strings.ToLower(strings.TrimSpace(h.forwardScheme))
	switch scheme {
	case "http", "https":
	case "$scheme", "auto", "":
		c.skip(source, "NPM redirected to the request's own scheme; a Gatehouse redirect has one target URL, so https:// is used: change it in the service if %s only speaks http",
			h.forwardDomainName)
		scheme = "https"
	default:
		c.skip(source, "not imported: its forward scheme %q is neither http nor https", h.forwardScheme)
		return
	}
	target := scheme + "://" + strings.TrimSpace(h.forwardDomainName)
	if err := validate.RedirectURL(target, h.preservePath); err != nil {
		c.skip(source, "not imported: its target %q %v", target, err)
		return
	}
	hostnames, ok := c.hostnames(source, h.host)
	if !ok {
		return
	}
	sv := newService(c.serviceName(hostnames[0].Value), hostnames, h.enabled)
	sv.Kind = store.KindRedirect
	// 301 and 308 are NPM's permanent choices; 300, 302, 303 and 307 are not.
	sv.Redirect = &store.Redirect{URL: target, Permanent: h.forwardHTTPCode == 301 || h.forwardHTTPCode == 308,
		KeepPath: h.preservePath}
	c.https(source, h.host, &sv)
	c.common(source, h.host)
	c.doc.Services = append(c.doc.Services, sv)
}
