package dynconf

import (
	"fmt"
	"net"
	"slices"
	"strconv"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Bounds the builder checks again (the API checks them first).
const (
	maxStreamTargets = 32
	maxAllowRanges   = 100
	maxConns         = 1_000_000
)

// newStreamSections gives the builder empty tcp and udp sections.
func (b *builder) newStreamSections() {
	b.cfg.TCP = &TCPConfig{Routers: map[string]*TCPRouter{}, Services: map[string]*TCPService{},
		Middlewares: map[string]*TCPMiddleware{}, ServersTransports: map[string]*TCPServersTransport{}}
	b.cfg.UDP = &UDPConfig{Routers: map[string]*UDPRouter{}, Services: map[string]*UDPService{}}
	b.cfg.tcpOwners = owners{map[string]string{}, map[string]string{}, map[string]string{}, map[string]string{}}
	b.cfg.udpOwners = owners{map[string]string{}, map[string]string{}, nil, nil}
}

// dropEmptyStream removes the tcp and udp sections (and their empty maps)
// as Build drops "http": Traefik reads a section without routers or
// services as nothing.
func (c *Config) dropEmptyStream() {
	if t := c.TCP; t != nil {
		if len(t.Middlewares) == 0 {
			t.Middlewares = nil
		}
		if len(t.ServersTransports) == 0 {
			t.ServersTransports = nil
		}
		if len(t.Routers) == 0 && len(t.Services) == 0 {
			c.TCP = nil
		}
	}
	if u := c.UDP; u != nil && len(u.Routers) == 0 && len(u.Services) == 0 {
		c.UDP = nil
	}
}

// streamService emits a tcp or udp service, or nothing and an error.
//
// Names: the service is gatehouse-<slug> (with weights that differ, a
// weighted service over gatehouse-<slug>_<n>, one per target: Traefik's TCP
// and UDP servers carry no weight), its routers gatehouse-<slug>-<entrypoint>.
func (b *builder) streamService(sv ServiceSpec, slug string) error {
	if sv.Protected {
		// Forward-auth answers HTTP requests: a TCP or UDP router cannot ask
		// it, so a service that should be guarded is not routed at all.
		return fmt.Errorf("has protections or access rules, which a %s router cannot apply (they answer HTTP requests); remove them, or use the tcp allow list", sv.Kind)
	}
	eps := dedupe(sv.Entrypoints)
	if len(eps) == 0 {
		return fmt.Errorf("no entrypoints (a %s service names its own)", sv.Kind)
	}
	for _, ep := range eps {
		if !memo(b.validEP, ep, validEntrypoint) {
			return fmt.Errorf("invalid entrypoint %q", ep)
		}
	}
	addrs, weights, err := streamTargets(sv.Targets)
	if err != nil {
		return err
	}
	name := Prefix + slug
	if sv.Kind == store.KindUDP {
		for n, lb := range splitByWeight(name, addrs, weights, "") {
			b.cfg.UDP.Services[n] = &UDPService{LoadBalancer: lb.lb, Weighted: lb.wrr}
			b.cfg.udpOwners.services[n] = sv.ID
		}
		for _, ep := range eps {
			rn := claim(b.cfg.UDP.Routers, name+"-"+ep)
			b.cfg.UDP.Routers[rn] = &UDPRouter{EntryPoints: []string{ep}, Service: name}
			b.cfg.udpOwners.routers[rn] = sv.ID
		}
		return nil
	}

	opt := sv.TCP
	hosts := dedupe(sv.Hosts)
	rule, err := sniRule(hosts)
	if err != nil {
		return err
	}
	var tls *TCPRouterTLS
	switch opt.TLS {
	case store.TLSPassthrough:
		if len(hosts) == 0 {
			return fmt.Errorf("TLS passthrough without hostnames: use plain TCP, or name the hosts")
		}
		tls = &TCPRouterTLS{Passthrough: true}
	case store.TLSTerminate:
		t := tlsFor(hosts, b.s.certDomain(sv.Domain, hosts))
		tls = &TCPRouterTLS{CertResolver: t.CertResolver, Domains: t.Domains, Options: t.Options}
	case store.TLSNone, "":
		if len(hosts) > 0 {
			return fmt.Errorf("hostnames need TLS (HostSNI reads the TLS handshake)")
		}
	default:
		return fmt.Errorf("invalid TLS mode %q", opt.TLS)
	}
	var mws []string
	if len(opt.AllowList) > 0 {
		if len(opt.AllowList) > maxAllowRanges {
			return fmt.Errorf("allow list: more than %d ranges", maxAllowRanges)
		}
		ranges := make([]string, len(opt.AllowList))
		for i, v := range opt.AllowList {
			n, ok := services.NormalizeCIDR(v)
			if !ok || n != v {
				return fmt.Errorf("allow list: invalid range %q", v)
			}
			ranges[i] = n
		}
		mn := Prefix + "allow-" + slug
		b.cfg.TCP.Middlewares[mn] = &TCPMiddleware{IPAllowList: &TCPIPAllowList{SourceRange: ranges}}
		b.cfg.tcpOwners.middlewares[mn] = sv.ID
		mws = append(mws, mn)
	}
	if opt.MaxConnections != 0 {
		if opt.MaxConnections < 0 || opt.MaxConnections > maxConns {
			return fmt.Errorf("invalid connection limit %d", opt.MaxConnections)
		}
		// After the allow list, so that refused clients hold no slot.
		mn := Prefix + "conns-" + slug
		b.cfg.TCP.Middlewares[mn] = &TCPMiddleware{InFlightConn: &TCPInFlightConn{Amount: int64(opt.MaxConnections)}}
		b.cfg.tcpOwners.middlewares[mn] = sv.ID
		mws = append(mws, mn)
	}
	transport := ""
	switch opt.ProxyProtocol {
	case 0:
	case 1, 2:
		transport = name
		b.cfg.TCP.ServersTransports[name] = &TCPServersTransport{ProxyProtocol: &ProxyProtocol{Version: opt.ProxyProtocol}}
		b.cfg.tcpOwners.transports[name] = sv.ID
	default:
		return fmt.Errorf("invalid PROXY protocol version %d", opt.ProxyProtocol)
	}
	for n, lb := range splitByWeight(name, addrs, weights, transport) {
		b.cfg.TCP.Services[n] = &TCPService{LoadBalancer: lb.lb, Weighted: lb.wrr}
		b.cfg.tcpOwners.services[n] = sv.ID
	}
	for _, ep := range eps {
		rn := claim(b.cfg.TCP.Routers, name+"-"+ep)
		b.cfg.TCP.Routers[rn] = &TCPRouter{EntryPoints: []string{ep}, Middlewares: mws, Service: name, Rule: rule, TLS: tls}
		b.cfg.tcpOwners.routers[rn] = sv.ID
	}
	return nil
}

// claim returns name, or name-2, -3, ... if routers already has it.
func claim[V any](routers map[string]V, name string) string {
	n := name
	for i := 2; ; i++ {
		if _, taken := routers[n]; !taken {
			return n
		}
		n = name + "-" + strconv.Itoa(i)
	}
}

// sniRule is HostSNI(`*`) without hosts, else HostSNI(`a`) or
// (HostSNI(`a`) || HostSNI(`b`)); every host is checked as an HTTP router's.
func sniRule(hosts []string) (string, error) {
	if len(hosts) == 0 {
		return "HostSNI(`*`)", nil
	}
	parts := make([]string, 0, len(hosts))
	for _, h := range hosts {
		if err := validate.Hostname(h, false); err != nil {
			return "", fmt.Errorf("host %q: %w", h, err)
		}
		m, err := matcher("HostSNI", h)
		if err != nil {
			return "", err
		}
		parts = append(parts, m)
	}
	return orGroup(parts), nil
}

// streamTargets renders host:port for each target (IPv6 in brackets) with
// its weight (0 is 1).
func streamTargets(ts []store.Target) ([]string, []int, error) {
	if len(ts) == 0 {
		return nil, nil, fmt.Errorf("no targets")
	}
	if len(ts) > maxStreamTargets {
		return nil, nil, fmt.Errorf("more than %d targets", maxStreamTargets)
	}
	addrs := make([]string, len(ts))
	weights := make([]int, len(ts))
	for i, t := range ts {
		host := trimBrackets(t.Host)
		if err := validate.TargetHost(host); err != nil || t.Port < 1 || t.Port > 65535 {
			return nil, nil, fmt.Errorf("targets[%d]: invalid host or port", i)
		}
		if t.Weight < 0 || t.Weight > 1000 {
			return nil, nil, fmt.Errorf("targets[%d]: invalid weight", i)
		}
		addrs[i] = net.JoinHostPort(host, strconv.Itoa(t.Port))
		weights[i] = max(t.Weight, 1)
	}
	return addrs, weights, nil
}

func trimBrackets(h string) string {
	if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
		return h[1 : len(h)-1]
	}
	return h
}

type streamLB struct {
	lb  *StreamLoadBalancer
	wrr *StreamWeighted
}

// splitByWeight is the services for addrs: one load balancer named name
// when the weights are all equal, else a weighted service named name over
// one load balancer per target (name_1, name_2, ...: "_" is never in a
// slug, so no other service has the name).
func splitByWeight(name string, addrs []string, weights []int, transport string) map[string]streamLB {
	equal := !slices.ContainsFunc(weights, func(w int) bool { return w != weights[0] })
	if equal {
		lb := &StreamLoadBalancer{ServersTransport: transport}
		for _, a := range addrs {
			lb.Servers = append(lb.Servers, StreamServer{Address: a})
		}
		return map[string]streamLB{name: {lb: lb}}
	}
	out := make(map[string]streamLB, len(addrs)+1)
	wrr := &StreamWeighted{}
	for i, a := range addrs {
		n := name + "_" + strconv.Itoa(i+1)
		out[n] = streamLB{lb: &StreamLoadBalancer{Servers: []StreamServer{{Address: a}}, ServersTransport: transport}}
		w := weights[i]
		wrr.Services = append(wrr.Services, WRRService{Name: n, Weight: &w})
	}
	out[name] = streamLB{wrr: wrr}
	return out
}
