package containers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"
)

// Container is what the panel reads of one container: nothing more than
// the list call answers (no environment, no mounts, no command).
type Container struct {
	ID       string
	Name     string
	Image    string
	State    string // running, exited, created, paused, …
	Health   string // healthy, unhealthy, starting, or "" without a health check
	Networks []Network
	Ports    []Port
	Labels   map[string]string
}

// Network is the container's address on one network ("" when it has none).
type Network struct {
	Name    string
	Address string
}

// Port is a port the container exposes; Public is 0 when it is not
// published on the engine's host.
type Port struct {
	Private  int
	Public   int
	HostIP   string
	Protocol string
}

// Running reports whether the container runs.
func (c Container) Running() bool { return c.State == "running" }

// Event is one container event of the engine: something happened to the
// container Name.
type Event struct {
	Name   string
	Action string
}

// Engine is the part of the Docker Engine API the panel asks: the list of
// containers and their events. Nothing else is called: no create, no
// exec, no logs, no image or volume call.
type Engine interface {
	// List returns the running containers, or every container with all.
	List(ctx context.Context, all bool) ([]Container, error)
	// Events calls fn with each container event until ctx ends or the
	// stream breaks, and says why it stopped.
	Events(ctx context.Context, fn func(Event)) error
}

// CheckHost refuses a PANEL_DOCKER_HOST that is neither a unix socket
// (unix:///path) nor tcp://host:port.
func CheckHost(host string) error {
	u, err := url.Parse(host)
	if err != nil {
		return fmt.Errorf("%q is not a URL (unix:///var/run/docker.sock or tcp://host:2375)", host)
	}
	switch u.Scheme {
	case "unix":
		if !strings.HasPrefix(u.Path, "/") || u.Host != "" {
			return fmt.Errorf("%q: a unix socket is unix:///absolute/path", host)
		}
	case "tcp":
		if u.Hostname() == "" || u.Port() == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("%q: a TCP engine is tcp://host:port", host)
		}
	default:
		return fmt.Errorf("%q: the scheme must be unix or tcp", host)
	}
	return nil
}

// dockerEngine asks a Docker Engine API (Docker, or podman's compatible
// service) through the official Go SDK.
type dockerEngine struct{ cli *client.Client }

// NewEngine connects to the engine at host (see CheckHost). The client
// negotiates the API version on its first call (podman 4.3 serves 1.41;
// this client needs 1.40 or newer).
func NewEngine(host string) (Engine, error) {
	if err := CheckHost(host); err != nil {
		return nil, err
	}
	cli, err := client.New(client.WithHost(host))
	if err != nil {
		return nil, fmt.Errorf("docker client: %w", err)
	}
	return dockerEngine{cli: cli}, nil
}

func (e dockerEngine) List(ctx context.Context, all bool) ([]Container, error) {
	res, err := e.cli.ContainerList(ctx, client.ContainerListOptions{All: all})
	if err != nil {
		return nil, fmt.Errorf("list containers: %w", err)
	}
	out := make([]Container, 0, len(res.Items))
	for _, s := range res.Items {
		c := fromSummary(s)
		if len(c.Ports) == 0 {
			// The list shows only published ports on some engines
			// (podman): the exposed ones are in the container's
			// configuration.
			if err := e.exposed(ctx, &c); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Container) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// exposed adds the ports c's configuration exposes.
func (e dockerEngine) exposed(ctx context.Context, c *Container) error {
	res, err := e.cli.ContainerInspect(ctx, c.ID, client.ContainerInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		return nil // removed since the list
	}
	if err != nil {
		return fmt.Errorf("inspect container %s: %w", c.Name, err)
	}
	if res.Container.Config == nil {
		return nil
	}
	for p := range res.Container.Config.ExposedPorts {
		c.Ports = append(c.Ports, Port{Private: int(p.Num()), Protocol: string(p.Proto())})
	}
	c.Ports = sortPorts(c.Ports)
	return nil
}

func fromSummary(s container.Summary) Container {
	c := Container{ID: s.ID, Image: s.Image, State: string(s.State), Labels: s.Labels}
	if len(s.Names) > 0 {
		c.Name = strings.TrimPrefix(s.Names[0], "/")
	}
	if s.Health != nil {
		c.Health = string(s.Health.Status)
	} else {
		c.Health = healthFromStatus(s.Status)
	}
	if s.NetworkSettings != nil {
		for name, ep := range s.NetworkSettings.Networks {
			n := Network{Name: name}
			if ep != nil && ep.IPAddress.IsValid() {
				n.Address = ep.IPAddress.String()
			}
			c.Networks = append(c.Networks, n)
		}
		slices.SortFunc(c.Networks, func(a, b Network) int { return strings.Compare(a.Name, b.Name) })
	}
	for _, p := range s.Ports {
		port := Port{Private: int(p.PrivatePort), Public: int(p.PublicPort), Protocol: p.Type}
		if p.IP.IsValid() {
			port.HostIP = p.IP.String()
		}
		c.Ports = append(c.Ports, port)
	}
	c.Ports = sortPorts(c.Ports)
	if c.Labels == nil {
		c.Labels = map[string]string{}
	}
	return c
}

func sortPorts(ports []Port) []Port {
	slices.SortFunc(ports, func(a, b Port) int {
		if a.Private != b.Private {
			return a.Private - b.Private
		}
		return a.Public - b.Public
	})
	return slices.CompactFunc(ports, func(a, b Port) bool { return a == b })
}

// healthFromStatus reads the health an engine without the list's Health
// field (API < 1.52, podman) writes in the status text: "Up 3 minutes
// (healthy)".
func healthFromStatus(status string) string {
	for _, h := range []string{"unhealthy", "healthy", "starting"} {
		if strings.Contains(status, "("+h+")") {
			return h
		}
	}
	return ""
}

func (e dockerEngine) Events(ctx context.Context, fn func(Event)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f := make(client.Filters).Add("type", "container")
	res := e.cli.Events(ctx, client.EventsListOptions{Filters: f})
	for {
		select {
		case m := <-res.Messages:
			fn(Event{Name: m.Actor.Attributes["name"], Action: string(m.Action)})
		case err := <-res.Err:
			if err == nil {
				err = errors.New("event stream closed")
			}
			return fmt.Errorf("container events: %w", err)
		}
	}
}
