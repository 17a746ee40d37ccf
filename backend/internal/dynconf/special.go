package dynconf

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// certTriggers adds, per domain, one router for its wildcard certificate and
// one per extra certificate config. They match only TriggerPath, bind only to
// TLS entrypoints and have the lowest priority, so they never take real
// traffic; their TLS block makes Traefik obtain the certificate before any
// real request arrives. The panel answers them with a blank page.
func (b *builder) certTriggers(tlsEPs []string) {
	doms := make([]DomainSpec, len(b.s.Domains))
	copy(doms, b.s.Domains)
	sort.SliceStable(doms, func(i, j int) bool { return doms[i].Domain < doms[j].Domain })
	slugs := newSlugger()
	added := false
	for _, d := range doms {
		if !d.Wildcard && len(d.CertConfigs) == 0 {
			continue
		}
		if len(tlsEPs) == 0 || b.s.AuthBase == "" {
			b.problems = append(b.problems, Problem{Kind: "domain", ID: d.ID,
				Reason: "no certificate-trigger routers: no TLS entrypoint or no panel address"})
			continue
		}
		base := Prefix + "cert-" + slugs.next(slugify(d.Domain, "domain"))
		if d.Wildcard {
			if err := b.trigger(base, tlsEPs, d.Domain, d.CertResolver, Domain{Main: d.Domain, SANs: []string{"*." + d.Domain}}); err != nil {
				b.problems = append(b.problems, Problem{Kind: "domain", ID: d.ID, Reason: err.Error()})
			} else {
				added = true
			}
		}
		for i, cc := range d.CertConfigs {
			res := cc.Resolver
			if res == "" {
				res = d.CertResolver
			}
			err := b.trigger(base+"-"+strconv.Itoa(i+1), tlsEPs, ruleHostOf(cc.Main, cc.SANs), res, Domain{Main: cc.Main, SANs: cc.SANs})
			if err != nil {
				b.problems = append(b.problems, Problem{Kind: "domain", ID: d.ID, Reason: fmt.Sprintf("certConfigs[%d]: %v", i, err)})
			} else {
				added = true
			}
		}
	}
	if added {
		b.cfg.HTTP.Services[triggerServiceName] = &TraefikService{LoadBalancer: &ServersLoadBalancer{
			Servers: []Server{{URL: b.s.AuthBase}}, PassHostHeader: ptr(true),
		}}
		b.cfg.HTTP.Middlewares[triggerPathMW] = &Middleware{ReplacePath: &ReplacePath{Path: CertTriggerPath}}
	}
}

func (b *builder) trigger(name string, eps []string, host, resolver string, dom Domain) error {
	if resolver == "" {
		return fmt.Errorf("no certificate resolver")
	}
	hr, err := hostRule([]string{host})
	if err != nil {
		return err
	}
	for _, n := range append([]string{dom.Main}, dom.SANs...) {
		if _, err := quote(n); err != nil || n == "" {
			return fmt.Errorf("invalid certificate name %q", n)
		}
	}
	pr, _ := matcher("PathPrefix", TriggerPath)
	b.cfg.HTTP.Routers[b.claimRouter(name)] = &Router{
		EntryPoints: eps, Middlewares: []string{triggerPathMW}, Service: triggerServiceName,
		Rule: hr + " && " + pr, Priority: 1,
		TLS: &RouterTLSConfig{CertResolver: resolver, Domains: []Domain{dom}},
	}
	return nil
}

// ruleHostOf picks a concrete host name for a certificate's trigger rule:
// the first non-wildcard name, else the main name without its "*.".
func ruleHostOf(main string, sans []string) string {
	for _, n := range append([]string{main}, sans...) {
		if !strings.HasPrefix(n, "*.") {
			return n
		}
	}
	return strings.TrimPrefix(main, "*.")
}

// adminRouter exposes the panel itself on the admin domain in managed mode,
// on TLS entrypoints only, with no authentication layer of Traefik's own.
//
// The router used to sit behind basicAuth with the administrators' password
// hashes. That locks out administrators who have no password (SSO only) or
// sign in with a passkey, and a second layer buys nothing here:
//   - a forward-auth check against the admin session would have to let the
//     login page, the SPA's assets (every non-/api path is the same public
//     bundle) and every public /api route through, so it could only gate the
//     non-public /api routes, which the panel's own session guard already
//     refuses without a session (the same cookie, the same check; a test
//     walks the route table to prove it). It would cost a round trip per
//     request and a second allow-list to keep in step with the first;
//   - password sign-in is limited per username and address and per address;
//   - the machine endpoints (this configuration, the wrapper's) refuse any
//     request that comes through the public domain;
//   - the router is only emitted once an administrator exists, so first-run
//     setup cannot be claimed from the internet.
func (b *builder) adminRouter(tlsEPs []string) {
	b.panelRouter(tlsEPs, "admin", b.s.AdminDomain)
	// The sign-in portal is the panel too, on its own host: the panel
	// answers there only the portal's routes (package httpapi).
	if b.s.PortalDomain != b.s.AdminDomain {
		b.panelRouter(tlsEPs, "portal", b.s.PortalDomain)
	}
}

// panelRouter routes host to the panel on every TLS entrypoint, as the
// routers named Prefix+kind+"-"+entrypoint.
func (b *builder) panelRouter(tlsEPs []string, kind, host string) {
	s := b.s
	if !s.Managed || host == "" {
		return
	}
	fail := func(reason string) {
		b.problems = append(b.problems, Problem{Kind: kind, ID: host, Reason: reason})
	}
	hr, err := hostRule([]string{host})
	switch {
	case err != nil:
		fail(err.Error())
		return
	case s.PanelURL == "" && s.PanelService == "":
		fail("no " + kind + " router: the panel's internal address is unknown")
		return
	case len(tlsEPs) == 0:
		fail("no " + kind + " router: no TLS entrypoint")
		return
	case !s.HasAdmin:
		fail("no " + kind + " router: no administrator exists yet (create one with PANEL_ADMIN_USER)")
		return
	}
	service, middlewares := s.PanelService, s.PanelMiddlewares
	if service == "" {
		middlewares = nil
		service = panelServiceName
		b.cfg.HTTP.Services[panelServiceName] = &TraefikService{LoadBalancer: &ServersLoadBalancer{
			Servers: []Server{{URL: s.PanelURL}}, PassHostHeader: ptr(true),
		}}
	}
	tls := tlsFor([]string{host}, s.domainOf(host))
	for _, ep := range tlsEPs {
		b.cfg.HTTP.Routers[b.claimRouter(Prefix+kind+"-"+ep)] = &Router{
			EntryPoints: []string{ep}, Service: service, Middlewares: middlewares,
			Rule: hr, TLS: tls,
		}
	}
}

// domainOf returns the most specific domain host is, or sits under.
func (s *Snapshot) domainOf(host string) *DomainSpec {
	var best *DomainSpec
	for i := range s.Domains {
		d := &s.Domains[i]
		if (host == d.Domain || strings.HasSuffix(host, "."+d.Domain)) && (best == nil || len(d.Domain) > len(best.Domain)) {
			best = d
		}
	}
	return best
}

// certDomain is the domain whose certificates serve hosts: the service's
// own, else (custom host names only) the domain every host sits under.
func (s *Snapshot) certDomain(own *DomainSpec, hosts []string) *DomainSpec {
	if own != nil || len(hosts) == 0 {
		return own
	}
	d := s.domainOf(hosts[0])
	for _, h := range hosts[1:] {
		if s.domainOf(h) != d {
			return nil
		}
	}
	return d
}

func ptr[T any](v T) *T { return &v }
