package traefikfile

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// streamSection is the tcp or udp section's parts.
type streamSection struct {
	proto                                      string // "tcp" or "udp"
	routers, services, middlewares, transports obj
}

// readStream reads the tcp or udp section v.
func readStream(proto string, v any) (*streamSection, error) {
	m, err := asObj(v, proto)
	if err != nil {
		return nil, err
	}
	s := &streamSection{proto: proto}
	for _, p := range []struct {
		key string
		dst *obj
	}{{"routers", &s.routers}, {"services", &s.services}, {"middlewares", &s.middlewares}, {"serversTransports", &s.transports}} {
		*p.dst = obj{}
		v, ok, err := field(m, p.key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", proto, err)
		}
		if ok {
			if *p.dst, err = asObj(v, path(proto, p.key)); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// convert turns every router of the section into a tcp or udp service, or
// a skipped entry saying why the panel cannot express it.
func (s *streamSection) convert(taken map[string]bool) ([]document.Service, []document.Skipped) {
	var out []document.Service
	var skipped []document.Skipped
	for _, name := range sortedKeys(s.routers) {
		src := s.proto + " router " + name
		sv, notes, err := s.router(name)
		if err != nil {
			skipped = append(skipped, document.Skipped{Source: src, Reason: err.Error()})
			continue
		}
		sv.Name = name
		if len(sv.Name) > maxNameLen {
			sv.Name = sv.Name[:maxNameLen]
		}
		if taken[strings.ToLower(sv.Name)] {
			sv.Name = strings.TrimSpace(sv.Name[:min(len(sv.Name), maxNameLen-6)]) + " (" + s.proto + ")"
		}
		if taken[strings.ToLower(sv.Name)] {
			skipped = append(skipped, document.Skipped{Source: src, Reason: "another imported service has its name"})
			continue
		}
		taken[strings.ToLower(sv.Name)] = true
		out = append(out, sv)
		for _, n := range notes {
			skipped = append(skipped, document.Skipped{Source: src, Reason: n})
		}
	}
	return out, skipped
}

// router reads one router and what it uses.
func (s *streamSection) router(name string) (document.Service, []string, error) {
	at := path(s.proto, "routers", name)
	m, err := asObj(s.routers[name], at)
	if err != nil {
		return document.Service{}, nil, err
	}
	sv := document.Service{Hostnames: []store.Hostname{}, Rules: []store.Rule{}, Middlewares: []string{},
		Headers: map[string]string{}, Kind: s.proto, Enabled: true, PassHostHeader: true,
		Expiry: document.Expiry{Type: store.ExpiryNever}, Protections: []document.Protection{}}
	var notes []string
	v, ok, err := field(m, "entryPoints")
	if err != nil {
		return sv, nil, fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return sv, nil, errors.New("it names no entrypoint (it listens on every one); a Gatehouse tcp or udp service names its own")
	}
	if sv.Entrypoints, err = asStringList(v, at+".entryPoints"); err != nil {
		return sv, nil, err
	}
	if len(sv.Entrypoints) == 0 || len(sv.Entrypoints) > 8 {
		return sv, nil, errors.New("a Gatehouse tcp or udp service has 1 to 8 entrypoints")
	}
	for _, ep := range sv.Entrypoints {
		if !validate.Entrypoint(ep) {
			return sv, nil, fmt.Errorf("entrypoint %q is not a name Gatehouse accepts", ep)
		}
	}
	svcName, err := stringField(m, "service", at)
	if err != nil {
		return sv, nil, err
	}
	var transport string
	sv.Targets, transport, notes, err = s.targets(svcName, 1, 0)
	if err != nil {
		return sv, nil, err
	}
	if s.proto == store.KindUDP {
		return sv, notes, nil
	}
	tcp := &store.TCP{AllowList: []string{}}
	sv.TCP = tcp
	rule, err := stringField(m, "rule", at)
	if err != nil {
		return sv, nil, err
	}
	hosts, err := sniHosts(rule)
	if err != nil {
		return sv, nil, err
	}
	for _, h := range hosts {
		sv.Hostnames = append(sv.Hostnames, store.Hostname{Type: store.HostCustom, Value: h})
	}
	tcp.TLS = store.TLSNone
	if tv, ok, err := field(m, "tls"); err != nil {
		return sv, nil, fmt.Errorf("%s: %w", at, err)
	} else if ok {
		tm, err := asObj(tv, at+".tls")
		if err != nil {
			return sv, nil, err
		}
		tcp.TLS = store.TLSTerminate
		if pv, ok, _ := field(tm, "passthrough"); ok {
			if pass, err := asBool(pv, at+".tls.passthrough"); err != nil {
				return sv, nil, err
			} else if pass {
				tcp.TLS = store.TLSPassthrough
			}
		}
		if r, _ := stringField(tm, "certResolver", at+".tls"); r != "" && tcp.TLS == store.TLSTerminate {
			notes = append(notes, ResolverReason(r))
		}
		if o, _ := stringField(tm, "options", at+".tls"); o != "" {
			notes = append(notes, fmt.Sprintf("TLS options %q are not imported: Traefik's default TLS options apply", o))
		}
	}
	if tcp.TLS == store.TLSNone && len(hosts) > 0 {
		return sv, nil, errors.New("HostSNI of a host name without tls: Traefik never matches it (the name comes from the TLS handshake)")
	}
	if mv, ok, err := field(m, "middlewares"); err != nil {
		return sv, nil, fmt.Errorf("%s: %w", at, err)
	} else if ok {
		refs, err := asStringList(mv, at+".middlewares")
		if err != nil {
			return sv, nil, err
		}
		for _, ref := range refs {
			if err := s.middleware(ref, tcp); err != nil {
				return sv, nil, err
			}
		}
	}
	if transport != "" {
		if tcp.ProxyProtocol, err = s.proxyProtocol(transport); err != nil {
			return sv, nil, err
		}
	}
	return sv, notes, nil
}

// stringField reads an optional single value ("" when absent).
func stringField(m obj, name, at string) (string, error) {
	v, ok, err := field(m, name)
	if err != nil {
		return "", fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return "", nil
	}
	return asString(v, at+"."+name)
}

// sniHosts reads HostSNI(`*`) (no hosts) or HostSNI(`a`) joined by ||,
// optionally in parentheses: what a Gatehouse tcp service can express.
func sniHosts(rule string) ([]string, error) {
	r := strings.TrimSpace(rule)
	if r == "HostSNI(`*`)" {
		return nil, nil
	}
	if strings.HasPrefix(r, "(") && strings.HasSuffix(r, ")") {
		r = strings.TrimSpace(r[1 : len(r)-1])
	}
	var hosts []string
	for _, part := range strings.Split(r, "||") {
		part = strings.TrimSpace(part)
		h, ok := strings.CutPrefix(part, "HostSNI(`")
		if ok {
			h, ok = strings.CutSuffix(h, "`)")
		}
		if !ok || strings.ContainsAny(h, "`,") {
			return nil, fmt.Errorf("rule %q: Gatehouse expresses HostSNI(`*`) or HostSNI of host names joined by ||", rule)
		}
		h = validate.NormalizeHostname(h)
		if err := validate.Hostname(h, false); err != nil {
			return nil, fmt.Errorf("rule %q: host %q: %w", rule, h, err)
		}
		hosts = append(hosts, h)
	}
	return hosts, nil
}

// targets reads the servers of service name (a load balancer, or a
// weighted service over load balancers in this file), each with weight; the
// servers transport of the load balancers (one for all).
func (s *streamSection) targets(name string, weight int, depth int) ([]store.Target, string, []string, error) {
	at := path(s.proto, "services", name)
	v, ok := s.services[name]
	if !ok || v == nil {
		return nil, "", nil, fmt.Errorf("its service %q is not defined in this file", name)
	}
	m, err := asObj(v, at)
	if err != nil {
		return nil, "", nil, err
	}
	if wv, ok, _ := field(m, "weighted"); ok && depth == 0 {
		return s.weighted(wv, at)
	}
	lbv, ok, err := field(m, "loadBalancer")
	if err != nil || !ok {
		return nil, "", nil, fmt.Errorf("its service %q is not a load balancer (or weighted over load balancers)", name)
	}
	lb, err := asObj(lbv, at+".loadBalancer")
	if err != nil {
		return nil, "", nil, err
	}
	var notes []string
	transport, err := stringField(lb, "serversTransport", at+".loadBalancer")
	if err != nil {
		return nil, "", nil, err
	}
	if pv, ok, _ := field(lb, "proxyProtocol"); ok && s.proto == store.KindTCP {
		// Before Traefik 3.5.2 the PROXY protocol was an option of the load
		// balancer; it stands for a transport of its own here.
		pm, err := asObj(pv, at+".loadBalancer.proxyProtocol")
		if err != nil {
			return nil, "", nil, err
		}
		n, _ := intField(pm, "version", at+".loadBalancer.proxyProtocol")
		if n < 1 || n > 2 {
			n = 2
		}
		transport = "\x00v" + strconv.FormatInt(n, 10)
	}
	if _, ok, _ := field(lb, "healthCheck"); ok {
		notes = append(notes, "the service's health check is not imported: Traefik then sends connections to every server")
	}
	sv, ok, err := field(lb, "servers")
	if err != nil || !ok {
		return nil, "", nil, fmt.Errorf("its service %q has no servers", name)
	}
	list, isList := sv.([]any)
	if !isList || len(list) == 0 {
		return nil, "", nil, fmt.Errorf("its service %q has no servers", name)
	}
	var out []store.Target
	for i, e := range list {
		sat := fmt.Sprintf("%s.loadBalancer.servers[%d]", at, i)
		em, err := asObj(e, sat)
		if err != nil {
			return nil, "", nil, err
		}
		addr, err := stringField(em, "address", sat)
		if err != nil {
			return nil, "", nil, err
		}
		host, port, err := net.SplitHostPort(addr)
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil || n < 1 || n > 65535 || validate.TargetHost(host) != nil {
			return nil, "", nil, fmt.Errorf("%s: address %q is not host:port", sat, addr)
		}
		if tv, ok, _ := field(em, "tls"); ok {
			if b, _ := asBool(tv, sat+".tls"); b {
				return nil, "", nil, fmt.Errorf("%s: TLS to the server is not something a Gatehouse %s service does", sat, s.proto)
			}
		}
		t := store.Target{Scheme: s.proto, Host: host, Port: n}
		if weight != 1 {
			t.Weight = weight
		}
		out = append(out, t)
	}
	if len(out) > maxTargets {
		return nil, "", nil, fmt.Errorf("its service %q has more than %d servers", name, maxTargets)
	}
	return out, transport, notes, nil
}

// weighted reads a weighted service over load balancers of this file.
func (s *streamSection) weighted(v any, at string) ([]store.Target, string, []string, error) {
	wm, err := asObj(v, at+".weighted")
	if err != nil {
		return nil, "", nil, err
	}
	lv, ok, _ := field(wm, "services")
	list, isList := lv.([]any)
	if !ok || !isList || len(list) == 0 {
		return nil, "", nil, fmt.Errorf("%s.weighted: no services", at)
	}
	var out []store.Target
	var notes []string
	transport := ""
	for i, e := range list {
		eat := fmt.Sprintf("%s.weighted.services[%d]", at, i)
		em, err := asObj(e, eat)
		if err != nil {
			return nil, "", nil, err
		}
		child, err := stringField(em, "name", eat)
		if err != nil {
			return nil, "", nil, err
		}
		w, err := intField(em, "weight", eat)
		if err != nil {
			return nil, "", nil, err
		}
		if w == 0 {
			w = 1
		}
		if w < 0 || w > maxWeight {
			return nil, "", nil, fmt.Errorf("%s: weight %d is outside 1-%d", eat, w, maxWeight)
		}
		ts, tr, ns, err := s.targets(child, int(w), 1)
		if err != nil {
			return nil, "", nil, err
		}
		if i > 0 && tr != transport {
			return nil, "", nil, fmt.Errorf("%s: its services use different servers transports", at)
		}
		transport = tr
		out = append(out, ts...)
		notes = append(notes, ns...)
	}
	if len(out) > maxTargets {
		return nil, "", nil, fmt.Errorf("%s: more than %d servers", at, maxTargets)
	}
	return out, transport, notes, nil
}

func intField(m obj, name, at string) (int64, error) {
	v, ok, err := field(m, name)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return 0, nil
	}
	return asInt(v, at+"."+name)
}

// proxyProtocol reads the PROXY protocol version of a servers transport
// (tcp.serversTransports.<name>.proxyProtocol.version); other options of
// the transport cannot come over.
func (s *streamSection) proxyProtocol(name string) (int, error) {
	if v, ok := strings.CutPrefix(name, "\x00v"); ok {
		n, _ := strconv.Atoi(v)
		return n, nil
	}
	at := path(s.proto, "serversTransports", name)
	v, ok := s.transports[name]
	if !ok || v == nil {
		return 0, fmt.Errorf("its servers transport %q is not defined in this file", name)
	}
	m, err := asObj(v, at)
	if err != nil {
		return 0, err
	}
	for _, k := range sortedKeys(m) {
		if !strings.EqualFold(k, "proxyProtocol") {
			return 0, fmt.Errorf("%s: option %q of the servers transport is not something a Gatehouse tcp service sets", at, k)
		}
	}
	pv, ok, _ := field(m, "proxyProtocol")
	if !ok {
		return 0, nil
	}
	pm, err := asObj(pv, at+".proxyProtocol")
	if err != nil {
		return 0, err
	}
	n, err := intField(pm, "version", at+".proxyProtocol")
	if err != nil {
		return 0, err
	}
	if n == 0 {
		n = 2 // Traefik's default version
	}
	if n < 1 || n > 2 {
		return 0, fmt.Errorf("%s.proxyProtocol: version %d is not 1 or 2", at, n)
	}
	return int(n), nil
}

// middleware folds a tcp middleware of this file into the options: an
// ipAllowList becomes the allow list, an inFlightConn the connection limit.
func (s *streamSection) middleware(ref string, tcp *store.TCP) error {
	name, prov, hasProv := strings.Cut(ref, "@")
	if hasProv && prov != "file" {
		return fmt.Errorf("middleware %q comes from another provider; Gatehouse cannot know what it does", ref)
	}
	at := path(s.proto, "middlewares", name)
	v, ok := s.middlewares[name]
	if !ok || v == nil {
		return fmt.Errorf("its middleware %q is not defined in this file", ref)
	}
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	if lv, ok, _ := field(m, "ipAllowList"); ok {
		lm, err := asObj(lv, at+".ipAllowList")
		if err != nil {
			return err
		}
		rv, ok, _ := field(lm, "sourceRange")
		if !ok {
			return fmt.Errorf("%s.ipAllowList: no sourceRange", at)
		}
		ranges, err := asStringList(rv, at+".ipAllowList.sourceRange")
		if err != nil {
			return err
		}
		if len(tcp.AllowList) > 0 {
			return fmt.Errorf("two allow lists on one router: a connection must pass both, which one Gatehouse list cannot say")
		}
		for _, r := range ranges {
			n, ok := services.NormalizeCIDR(r)
			if !ok {
				return fmt.Errorf("%s.ipAllowList: %q is not an address or CIDR range", at, r)
			}
			tcp.AllowList = append(tcp.AllowList, n)
		}
		return nil
	}
	if fv, ok, _ := field(m, "inFlightConn"); ok {
		fm, err := asObj(fv, at+".inFlightConn")
		if err != nil {
			return err
		}
		n, err := intField(fm, "amount", at+".inFlightConn")
		if err != nil {
			return err
		}
		if n < 1 || n > 1_000_000 {
			return fmt.Errorf("%s.inFlightConn: amount %d is outside 1-1000000", at, n)
		}
		tcp.MaxConnections = int(n)
		return nil
	}
	return fmt.Errorf("middleware %q is neither an ipAllowList nor an inFlightConn", ref)
}
