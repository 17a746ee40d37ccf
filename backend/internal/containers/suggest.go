package containers

import (
	"fmt"
	"slices"
	"strconv"
)

// How a suggested target reaches the container.
const (
	// ViaNetwork: the container's address on a network Traefik shares
	// with it (PANEL_DOCKER_NETWORK names Traefik's networks).
	ViaNetwork = "network"
	// ViaPublished: a port published on the engine's host, reached at
	// PANEL_DOCKER_PUBLISHED_HOST.
	ViaPublished = "published"
	// ViaUnsharedNetwork: the container's address on a network Traefik
	// is not known to share: it works only if Traefik can route to it.
	ViaUnsharedNetwork = "unshared_network"
)

// Placement is where Traefik reaches the container, and why there.
type Placement struct {
	// Network is the network whose address is used; "" for a published port.
	Network string
	// Port is the container's own port (the binding's port); PublishedPort
	// the host's port it is published on (ViaPublished only).
	Port          int
	Host          string
	TargetPort    int
	Via           string
	Reason        string
	PublishedPort int
}

// Options are what the panel knows of Traefik's place beside the engine.
type Options struct {
	// TraefikNetworks are the networks Traefik is attached to
	// (PANEL_DOCKER_NETWORK).
	TraefikNetworks []string
	// PublishedHost is the address Traefik reaches the engine host's
	// published ports at (PANEL_DOCKER_PUBLISHED_HOST).
	PublishedHost string
}

// Place works out where Traefik reaches port of c over network (""
// chooses: a network shared with Traefik, then a published port, then any
// network with an address). port 0 chooses the container's only exposed
// TCP port. It fails, saying why, when no choice works.
func Place(c Container, network string, port int, o Options) (Placement, error) {
	if port == 0 {
		p, err := onlyPort(c)
		if err != nil {
			return Placement{}, err
		}
		port = p
	}
	if port < 1 || port > 65535 {
		return Placement{}, fmt.Errorf("port %d is not between 1 and 65535", port)
	}
	if network != "" {
		return onNetwork(c, network, port, o)
	}
	for _, n := range c.Networks {
		if n.Address != "" && slices.Contains(o.TraefikNetworks, n.Name) {
			return onNetwork(c, n.Name, port, o)
		}
	}
	if pl, ok := published(c, port, o); ok {
		return pl, nil
	}
	for _, n := range c.Networks {
		if n.Address != "" {
			return onNetwork(c, n.Name, port, o)
		}
	}
	return Placement{}, fmt.Errorf("container %s has no address on any network and does not publish port %d", c.Name, port)
}

func onNetwork(c Container, network string, port int, o Options) (Placement, error) {
	for _, n := range c.Networks {
		if n.Name != network {
			continue
		}
		if n.Address == "" {
			return Placement{}, fmt.Errorf("container %s has no address on network %s", c.Name, network)
		}
		pl := Placement{Network: network, Port: port, Host: n.Address, TargetPort: port}
		switch {
		case slices.Contains(o.TraefikNetworks, network):
			pl.Via = ViaNetwork
			pl.Reason = fmt.Sprintf("Traefik shares network %s with the container (PANEL_DOCKER_NETWORK): its address there, port %d", network, port)
		case len(o.TraefikNetworks) == 0:
			pl.Via = ViaUnsharedNetwork
			pl.Reason = fmt.Sprintf("Traefik's networks are not known (PANEL_DOCKER_NETWORK is not set): the container's address on %s, which works only if Traefik is on that network or routes to it", network)
		default:
			pl.Via = ViaUnsharedNetwork
			pl.Reason = fmt.Sprintf("Traefik is not on network %s (PANEL_DOCKER_NETWORK names %v): the address works only if Traefik routes to it", network, o.TraefikNetworks)
		}
		return pl, nil
	}
	return Placement{}, fmt.Errorf("container %s is not on network %s", c.Name, network)
}

func published(c Container, port int, o Options) (Placement, bool) {
	for _, p := range c.Ports {
		if p.Private != port || p.Public == 0 || (p.Protocol != "" && p.Protocol != "tcp") {
			continue
		}
		host := o.PublishedHost
		if p.HostIP != "" && p.HostIP != "0.0.0.0" && p.HostIP != "::" {
			host = p.HostIP // published on one address only: that one
		}
		return Placement{Port: port, Host: host, TargetPort: p.Public, PublishedPort: p.Public, Via: ViaPublished,
			Reason: fmt.Sprintf("no network shared with Traefik: port %d is published on the engine's host as %s", port,
				hostPort(host, p.Public))}, true
	}
	return Placement{}, false
}

// PublishedPlacement is the published port of port, for a binding made
// with no network.
func PublishedPlacement(c Container, port int, o Options) (Placement, error) {
	if pl, ok := published(c, port, o); ok {
		return pl, nil
	}
	return Placement{}, fmt.Errorf("container %s does not publish port %d", c.Name, port)
}

func onlyPort(c Container) (int, error) {
	var ports []int
	for _, p := range c.Ports {
		if (p.Protocol == "" || p.Protocol == "tcp") && !slices.Contains(ports, p.Private) {
			ports = append(ports, p.Private)
		}
	}
	switch len(ports) {
	case 1:
		return ports[0], nil
	case 0:
		return 0, fmt.Errorf("container %s exposes no TCP port: choose one", c.Name)
	}
	return 0, fmt.Errorf("container %s exposes several ports %v: choose one", c.Name, ports)
}

func hostPort(host string, port int) string {
	if host == "" {
		host = "?"
	}
	if slices.Contains([]byte(host), ':') {
		host = "[" + host + "]"
	}
	return host + ":" + strconv.Itoa(port)
}
