package services

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Bounds of a TCP or UDP service.
const (
	maxStreamEntrypoints = 8
	maxAllowList         = 100
	maxConnections       = 1_000_000
)

// IsStream reports whether kind routes connections (tcp) or datagrams
// (udp) rather than HTTP requests.
func IsStream(kind string) bool { return kind == store.KindTCP || kind == store.KindUDP }

// checkStream checks what a tcp or udp service adds, and refuses the HTTP
// options it cannot carry (Traefik's TCP and UDP routers have no rules,
// headers, HTTP middlewares or maintenance page). The SNI host names of a
// tcp service are its hostnames, checked as every service's are: they reach
// HostSNI(`...`) through the same validate.Hostname.
func (r *Request) checkStream(c *apperr.Collector) {
	switch n := len(r.Entrypoints); {
	case n == 0:
		c.Add("entrypoints", "must name the entrypoint (or entrypoints) of a %s service: the defaults are for HTTP", r.Kind)
	case n > maxStreamEntrypoints:
		c.Add("entrypoints", "must have at most %d items", maxStreamEntrypoints)
	}
	if len(r.Rules) > 0 {
		c.Add("rules", "apply to HTTP services only")
	}
	if len(r.Headers) > 0 {
		c.Add("headers", "apply to HTTP services only")
	}
	if len(r.Middlewares) > 0 {
		c.Add("middlewares", "apply to HTTP services only (a tcp service has its allow list and connection limit)")
	}
	if r.Maintenance.Enabled {
		c.Add("maintenance.enabled", "is for HTTP services only: a %s service has no page to show", r.Kind)
	}
	if r.LoadBalancer.HealthCheck != nil {
		c.Add("loadBalancer.healthCheck", "applies to HTTP services only")
	}
	if r.LoadBalancer.Sticky != nil {
		c.Add("loadBalancer.sticky", "applies to HTTP services only")
	}
	if r.Kind == store.KindUDP {
		if len(r.Hostnames) > 0 {
			c.Add("hostnames", "must be empty for a udp service: UDP carries no host name, the entrypoint is the service's own")
		}
		return
	}
	if r.TCP == nil {
		r.TCP = &store.TCP{}
	}
	checkTCP(c, r.TCP, len(r.Hostnames) > 0)
}

// checkTCP checks a tcp service's options; sni says it has host names.
func checkTCP(c *apperr.Collector, t *store.TCP, sni bool) {
	t.TLS = strings.ToLower(strings.TrimSpace(t.TLS))
	if t.TLS == "" {
		t.TLS = store.TLSNone
		if sni {
			t.TLS = store.TLSPassthrough
		}
	}
	switch t.TLS {
	case store.TLSNone:
		if sni {
			c.Add("tcp.tls", "must be passthrough or terminate with hostnames: HostSNI reads the name from the TLS handshake (plain TCP takes every connection of its entrypoints, without hostnames)")
		}
	case store.TLSPassthrough, store.TLSTerminate:
	default:
		c.Add("tcp.tls", "must be one of: none, passthrough, terminate")
	}
	if t.ProxyProtocol < 0 || t.ProxyProtocol > 2 {
		c.Add("tcp.proxyProtocol", "must be 0 (off), 1 or 2")
	}
	if t.MaxConnections < 0 || t.MaxConnections > maxConnections {
		c.Add("tcp.maxConnections", "must be between 0 (no limit) and %d", maxConnections)
	}
	if len(t.AllowList) > maxAllowList {
		c.Add("tcp.allowList", "must have at most %d items", maxAllowList)
		return
	}
	if t.AllowList == nil {
		t.AllowList = []string{}
	}
	seen := map[string]int{}
	for i, v := range t.AllowList {
		f := fmt.Sprintf("tcp.allowList[%d]", i)
		n, ok := NormalizeCIDR(v)
		if !ok {
			c.Add(f, "must be an IP address or a CIDR range such as 192.0.2.0/24")
			continue
		}
		if j, dup := seen[n]; dup {
			c.Add(f, "is the same range as tcp.allowList[%d]", j)
		}
		seen[n] = i
		t.AllowList[i] = n
	}
}

// NormalizeCIDR returns an address or CIDR range in its canonical form (a
// range with its host bits cleared), or false. Only this form reaches
// Traefik's sourceRange.
func NormalizeCIDR(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) > 64 {
		return "", false
	}
	if p, err := netip.ParsePrefix(v); err == nil {
		return p.Masked().String(), true
	}
	if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
		return a.String(), true
	}
	return "", false
}

// StreamRefusal says why a tcp or udp service takes no protection or
// restricting access rule, and what restricts its clients instead. The
// configuration builder leaves such a service out of Traefik's
// configuration (fail closed), so the API refuses the combination when it
// is written.
func StreamRefusal(kind string) string {
	if kind == store.KindUDP {
		return "protections and access rules apply to HTTP services; a UDP service cannot restrict its clients in Traefik: limit who reaches its entrypoint with a firewall"
	}
	return "protections and access rules apply to HTTP services; a TCP service restricts clients with its allow list (tcp.allowList)"
}
