package dynconf

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
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
// the host names or the HTTPS defaults changed, the fragment is built again.

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

func equalTLS(a, b *RouterTLSConfig) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Options == b.Options && a.CertResolver == b.CertResolver &&
		slices.EqualFunc(a.Domains, b.Domains, func(x, y Domain) bool { return x.Main == y.Main && slices.Equal(x.SANs, y.SANs) })
}

// tlsKey identifies a TLS block's value (every field length-prefixed).
func tlsKey(t *RouterTLSConfig) string {
	var b strings.Builder
	field := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	field(t.Options)
	field(t.CertResolver)
	for _, d := range t.Domains {
		b.WriteString(strconv.Itoa(len(d.SANs)))
		field(d.Main)
		for _, n := range d.SANs {
			field(n)
		}
	}
	return b.String()
}

// tlsJSON encodes a TLS block, once per value for the encoder's lifetime
// (one rebuild): thousands of services share a handful of blocks.
func (e *entryEncoder) tlsJSON(t *RouterTLSConfig) ([]byte, error) {
	k := tlsKey(t)
	if j, ok := e.tls[k]; ok {
		return j, nil
	}
	j, err := e.value(t)
	if err != nil {
		return nil, err
	}
	if e.tls == nil {
		e.tls = map[string][]byte{}
	}
	e.tls[k] = j
	return j, nil
}

const tlsField = `"tls":`

// markTLS records where the TLS block starts in each of f's TLS routers
// (routers: the builder's, by name), each of which must end with
// `"tls":<f.domain.tls>}`. Without TLS routers f.domain.tls is nil: no
// block is emitted, so none can change.
func (f *fragment) markTLS(routers map[string]*Router, enc *entryEncoder) error {
	rs := f.entries[secRouters]
	var want []byte
	for i := range rs {
		r := routers[rs[i].name]
		if r == nil || r.TLS == nil {
			continue
		}
		if want == nil {
			j, err := enc.tlsJSON(f.domain.tls)
			if err != nil {
				return err
			}
			want = append(append([]byte(tlsField), j...), '}')
		}
		if !equalTLS(r.TLS, f.domain.tls) || !bytes.HasSuffix(rs[i].json, want) {
			// Not the block domainPartOf gives: never patch this fragment.
			for j := range rs {
				rs[j].tlsAt = 0
			}
			return nil
		}
		rs[i].tlsAt = len(rs[i].json) - len(want) + len(tlsField)
	}
	if want == nil {
		f.domain.tls = nil
	}
	f.tlsMarked = want != nil
	return nil
}

// setTLS replaces the TLS block of every TLS router of f with t, in place:
// the names, and so the assembled order, stay.
func (f *fragment) setTLS(t *RouterTLSConfig, enc *entryEncoder) error {
	j, err := enc.tlsJSON(t)
	if err != nil {
		return err
	}
	rs := f.entries[secRouters]
	for i := range rs {
		at := rs[i].tlsAt
		if at == 0 {
			continue
		}
		out := make([]byte, 0, at+len(j)+1)
		rs[i].json = append(append(append(out, rs[i].json[:at]...), j...), '}')
	}
	f.domain.tls = t
	return nil
}

// followDomains reports whether f, built for sv before a domain write,
// holds again once its TLS block is brought up to date, which it does in
// place. false: build it again.
func (f *fragment) followDomains(g *Snapshot, sv *ServiceSpec, enc *entryEncoder) (bool, error) {
	if f.problem != nil {
		return false, nil
	}
	now := g.domainPartOf(sv)
	switch {
	case now.redirect != f.domain.redirect || now.hsts != f.domain.hsts:
		return false, nil
	case f.domain.tls == nil || equalTLS(now.tls, f.domain.tls):
		return true, nil
	case !f.tlsMarked:
		return false, nil
	}
	return true, f.setTLS(now.tls, enc)
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
		if id := r.row.DomainID; id != nil && ids[*id] {
			r.row.Domain = doms.row[*id]
			if hosts := services.FQDNs(r.row); !slices.Equal(hosts, r.hosts) {
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
