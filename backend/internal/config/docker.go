package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/containers"
)

// loadDocker checks PANEL_DOCKER_HOST, reads PANEL_DOCKER_NETWORK (names
// separated by commas) and defaults PANEL_DOCKER_PUBLISHED_HOST.
func loadDocker(c *Config, networks string) error {
	if c.DockerHost == "" {
		return nil
	}
	if err := containers.CheckHost(c.DockerHost); err != nil {
		return fmt.Errorf("PANEL_DOCKER_HOST: %w", err)
	}
	for n := range strings.SplitSeq(networks, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if len(n) > 128 || strings.ContainsAny(n, " /\\:\"'`") {
			return fmt.Errorf("PANEL_DOCKER_NETWORK: %q is not a network name", n)
		}
		c.DockerNetworks = append(c.DockerNetworks, n)
	}
	if c.DockerPublishedHost == "" {
		c.DockerPublishedHost = "127.0.0.1"
		if u, err := url.Parse(c.DockerHost); err == nil && u.Scheme == "tcp" {
			c.DockerPublishedHost = u.Hostname()
		}
	}
	if _, err := netip.ParseAddr(c.DockerPublishedHost); err != nil && strings.ContainsAny(c.DockerPublishedHost, " /:@`") {
		return fmt.Errorf("PANEL_DOCKER_PUBLISHED_HOST: %q is not an address or host name", c.DockerPublishedHost)
	}
	return nil
}
