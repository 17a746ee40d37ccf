package dynconf

import (
	"reflect"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// After a domain write only the fragments that read the domain are looked
// at again. A service's fragment reads domains in three places and nowhere
// else: its host names (a subdomain or apex host name is resolved against
// its own domain), the HTTPS defaults its own settings may inherit (which
// middlewares it gets and which of them its routers list), and the TLS block
// of its TLS routers (its own domain's certificates, or for custom host
// names those of the domain they sit under). When only the TLS block
// changed, as after a change of certificate resolver, wildcard flag or
// certificate configs, the block is replaced in the encoded routers; when
// the HTTPS defaults changed, the middleware lists of the routers are, and
// the two middlewares they add come and go; when the host names changed, the
// fragment is built again.

// domainPart is what a service's fragment takes from domains besides its
// host names.
type domainPart struct {
	redirect bool
	hsts     store.HSTS
	tls      *RouterTLSConfig // the block of its TLS routers, if it has any
}

// domainPartOf computes sv's domain part as builder.service does.
func (s *Snapshot) domainPartOf(sv *ServiceSpec) domainPart {
	redirect, hsts := sv.https()
	hosts := dedupe(sv.Hosts)
	return domainPart{redirect: redirect, hsts: hsts, tls: tlsFor(hosts, s.certDomain(sv.Domain, hosts))}
}

// followDomains returns f, built for sv before a domain write, brought up
// to date: f itself with its TLS block replaced in place, or a copy with the
// HTTPS middlewares the domain's new defaults give (see withHTTPS). nil:
// build it again.
func (f *fragment) followDomains(g *Snapshot, sv *ServiceSpec, enc *entryEncoder) (*fragment, error) {
	if f.problem != nil || !f.marked {
		return nil, nil
	}
	now := g.domainPartOf(sv)
	if now.redirect != f.domain.redirect && g.redirectRouterOnly(sv) {
		return nil, nil // the redirect decides whether a plain router exists
	}
	nf := f
	if !f.sameHTTPS(now) {
		if nf = f.withHTTPS(now, enc); nf == nil {
			return nil, nil
		}
	}
	nf.domain.redirect, nf.domain.hsts = now.redirect, now.hsts
	if nf.domain.tls == nil || equalTLS(now.tls, nf.domain.tls) {
		return nf, nil
	}
	return nf, nf.setTLS(now.tls, enc)
}

// redirectRouterOnly reports whether sv listens on TLS entrypoints only, so
// that its plain router exists only while its HTTPS redirect is on.
func (s *Snapshot) redirectRouterOnly(sv *ServiceSpec) bool {
	eps := sv.Entrypoints
	if len(eps) == 0 {
		eps = s.DefaultEntrypoints
	}
	return slices.ContainsFunc(eps, s.isTLS) && !slices.ContainsFunc(eps, func(ep string) bool { return !s.isTLS(ep) })
}

// changedDomains compares the domains a rebuild read with those the cached
// fragments were built against: the ids of those added, removed or
// changed, and every name they had or have.
func changedDomains(was, now []DomainSpec) (ids map[string]bool, names []string) {
	before := make(map[string]*DomainSpec, len(was))
	for i := range was {
		before[was[i].ID] = &was[i]
	}
	for i := range now {
		d := &now[i]
		old, ok := before[d.ID]
		delete(before, d.ID)
		if ok && reflect.DeepEqual(*old, *d) {
			continue
		}
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[d.ID] = true
		names = append(names, d.Domain)
		if ok && old.Domain != d.Domain {
			names = append(names, old.Domain)
		}
	}
	for id, d := range before {
		if ids == nil {
			ids = map[string]bool{}
		}
		ids[id] = true
		names = append(names, d.Domain)
	}
	return ids, names
}

// followDomains brings the cached rows up to the domains just read: the
// rows of a changed domain take its new row (their host names follow a
// rename; a changed host name means a new fragment), and every row whose
// fragment may read a changed domain (its own, or the one a custom host
// name sits under) is marked to have its domain part checked.
func (c *rowCache) followDomains(was, now []DomainSpec, doms domainIndex) {
	ids, names := changedDomains(was, now)
	if len(ids) == 0 {
		return
	}
	for _, r := range c.rows {
		if id := r.domainID; id != nil && ids[*id] {
			row := store.Service{Hostnames: store.JSON[[]store.Hostname]{V: r.hostnames}, Domain: doms.row[*id]}
			if hosts := services.FQDNs(row); !slices.Equal(hosts, r.hosts) {
				r.hosts, r.frag = hosts, nil
			}
			r.domainStale = true
			continue
		}
		if underAny(r.hosts, names) {
			r.domainStale = true
		}
	}
}

// underAny reports whether a host is one of names or sits under one.
func underAny(hosts, names []string) bool {
	for _, h := range hosts {
		for _, n := range names {
			if h == n || (strings.HasSuffix(h, n) && len(h) > len(n) && h[len(h)-len(n)-1] == '.') {
				return true
			}
		}
	}
	return false
}
