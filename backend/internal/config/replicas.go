package config

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// parseReplicaURLs reads PANEL_REPLICA_URLS: the base URLs of every replica
// as Traefik reaches them, separated by commas. Each is an http(s) URL with
// a host and nothing after it (no path, query, fragment or credentials):
// Traefik's load balancer sends the request's own path to it.
func parseReplicaURLs(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("an empty entry: separate the URLs with single commas (for example http://gatehouse-a:8080,http://gatehouse-b:8080)")
		}
		u, err := url.Parse(f)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
			return nil, fmt.Errorf("%q must be an absolute http:// or https:// URL like http://gatehouse-a:8080", f)
		}
		if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			return nil, fmt.Errorf("%q must be a base URL: scheme, host and port only, no path, query or credentials", f)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return nil, fmt.Errorf("%q: port %q must be a number between 1 and 65535", f, p)
			}
		}
		base := u.Scheme + "://" + u.Host
		if slices.Contains(out, base) {
			return nil, fmt.Errorf("%q is listed twice", base)
		}
		out = append(out, base)
	}
	return out, nil
}

// checkReplicas checks the settings that only matter with replicas. Every
// replica serves the same static configuration to the wrapper (any
// difference would make Traefik restart whenever the wrapper switches
// replicas), so nothing in it may come from the replica's own listen
// address: PANEL_INTERNAL_URL is required.
func checkReplicas(c Config) error {
	if _, port, err := net.SplitHostPort(c.ManagedPanelAddress); err != nil {
		return fmt.Errorf("PANEL_MANAGED_PANEL_ADDRESS: %q is not [host]:port (for example 127.0.0.1:8081)", c.ManagedPanelAddress)
	} else if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("PANEL_MANAGED_PANEL_ADDRESS: port %q must be a number between 1 and 65535", port)
	}
	if !strings.HasPrefix(c.ManagedConfigDir, "/") || strings.ContainsAny(c.ManagedConfigDir, "\"\n") {
		return fmt.Errorf("PANEL_MANAGED_CONFIG_DIR: %q must be an absolute path (the wrapper's GATEHOUSE_CONFIG_DIR)", c.ManagedConfigDir)
	}
	if len(c.ReplicaURLs) == 0 {
		return nil
	}
	switch {
	case !c.Managed:
		return fmt.Errorf("PANEL_REPLICA_URLS: only used in managed mode (PANEL_MANAGED=true); with a Traefik of your own, load-balance over the replicas in its configuration")
	case len(c.ReplicaURLs) > 1 && c.PostgresURL == "":
		return fmt.Errorf("PANEL_REPLICA_URLS: several replicas need PostgreSQL (PANEL_DATABASE_URL=postgres://...); SQLite serves one process")
	case c.InternalURL == "":
		return fmt.Errorf("PANEL_REPLICA_URLS: set PANEL_INTERNAL_URL to Traefik's loopback entrypoint (http://%s)", loopback(c.ManagedPanelAddress))
	}
	return nil
}

// loopback is addr with an empty or wildcard host replaced by 127.0.0.1.
func loopback(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// ForwardAuthProxies are the proxies whose X-Forwarded-For entries
// forward-auth steps over to find the client: PANEL_TRUSTED_PROXIES and,
// with replicas, loopback. Forward-auth requests then reach a replica
// through Traefik's loopback entrypoint, whose proxy appends the address it
// saw, Traefik's own 127.0.0.1, after the client's.
func (c Config) ForwardAuthProxies() []netip.Prefix {
	if len(c.ReplicaURLs) == 0 {
		return c.TrustedProxies
	}
	return append(slices.Clip(c.TrustedProxies), netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128"))
}
