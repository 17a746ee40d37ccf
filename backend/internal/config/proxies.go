package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// defaultTraefikAddresses is loopback (a Traefik on the same host, `make
// run`) and, in managed mode, the host of PANEL_PROXY_API_URL: the panel
// manages that Traefik, which reaches the panel from that host.
func defaultTraefikAddresses(c Config) string {
	d := "loopback"
	if c.Managed && c.ProxyAPIURL != "" {
		if u, err := url.Parse(c.ProxyAPIURL); err == nil && u.Hostname() != "" {
			d += "," + u.Hostname()
		}
	}
	return d
}

// parseTraefikAddresses reads PANEL_TRAEFIK_ADDRESSES: addresses, CIDRs,
// "loopback", "private" or host names (resolved while the panel runs, as a
// container's address changes when it is created again), separated by
// commas or spaces.
func parseTraefikAddresses(s string) ([]netip.Prefix, []string, error) {
	var prefixes []netip.Prefix
	var hosts []string
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 {
		return nil, nil, fmt.Errorf("must name at least one address (the default is loopback)")
	}
	for _, f := range fields {
		if p, err := rules.ParseTrusted(f); err == nil {
			prefixes = append(prefixes, p...)
			continue
		}
		h := strings.ToLower(f)
		last := h[strings.LastIndexByte(h, '.')+1:]
		if strings.ContainsAny(h, ":/") || validate.TargetHost(h) != nil || strings.Trim(last, "0123456789") == "" {
			return nil, nil, fmt.Errorf("%q is not an address, a CIDR, loopback, private or a host name", f)
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return prefixes, hosts, nil
}

// ClientHops are the X-Forwarded-For entries the panel's own routes step
// over, right to left, after a request from one of PANEL_TRAEFIK_ADDRESSES:
// those addresses, the proxies in front of Traefik (PANEL_TRUSTED_PROXIES)
// and, with replicas, loopback (Traefik's loopback entrypoint appends its
// own 127.0.0.1 after the client's address; see ForwardAuthProxies).
func (c Config) ClientHops() []netip.Prefix {
	return append(slices.Clip(c.ForwardAuthProxies()), c.TraefikAddresses...)
}

// parseMetricsAddresses reads PANEL_METRICS_ADDRESSES: addresses, CIDRs,
// "loopback" or "private", or "none" for no address (the token only).
func parseMetricsAddresses(s string) ([]netip.Prefix, error) {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return nil, nil
	}
	p, err := rules.ParseTrusted(s)
	if err != nil {
		return nil, fmt.Errorf("%w (addresses, CIDRs, loopback, private or none)", err)
	}
	return p, nil
}
