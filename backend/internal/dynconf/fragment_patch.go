package dynconf

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// A fragment's encoded routers are patched, not built again, when only what
// they take from a domain changed: the TLS block (the last field of a
// router) and the middleware list (the field after its one entrypoint).
// markRouters locates the first when the fragment is built and checks it is
// where it should be; withHTTPS checks the second holds what the fragment
// was built with before replacing it. Whatever is not where it should be
// makes the fragment be built again instead.

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

// tlsBlock is one TLS block value and its encoding.
type tlsBlock struct {
	v    *RouterTLSConfig
	json []byte
}

// tlsBlock returns t's value, shared by every fragment of the rebuild that
// has it, and its encoding, both once per value for the encoder's lifetime
// (one rebuild): thousands of services share a handful of blocks.
func (e *entryEncoder) tlsBlock(t *RouterTLSConfig) (tlsBlock, error) {
	k := tlsKey(t)
	if b, ok := e.tls[k]; ok {
		return b, nil
	}
	j, err := e.value(t)
	if err != nil {
		return tlsBlock{}, err
	}
	if e.tls == nil {
		e.tls = map[string]tlsBlock{}
	}
	e.tls[k] = tlsBlock{t, j}
	return e.tls[k], nil
}

const tlsField = `"tls":`

// markRouters tells f's TLS routers from its plain ones (routers: the
// builder's, by name) and records where the TLS block starts in each TLS
// router, each of which must end with `"tls":<f.domain.tls>}`. Without TLS
// routers f.domain.tls is nil: no block is emitted, so none can change.
func (f *fragment) markRouters(routers map[string]*Router, enc *entryEncoder) error {
	rs := f.entries[secRouters]
	var want []byte
	for i := range rs {
		r := routers[rs[i].name]
		if r == nil || r.TLS == nil {
			f.anyPlain = true
			continue
		}
		if want == nil {
			b, err := enc.tlsBlock(f.domain.tls)
			if err != nil {
				return err
			}
			f.domain.tls = b.v
			want = append(append([]byte(tlsField), b.json...), '}')
		}
		if !equalTLS(r.TLS, f.domain.tls) || !bytes.HasSuffix(rs[i].json, want) {
			// Not the block domainPartOf gives: never patch this fragment.
			for j := range rs {
				rs[j].tlsAt = 0
			}
			return nil
		}
		rs[i].tlsAt = len(rs[i].json) - len(want) + len(tlsField)
		f.anyTLS = true
	}
	if want == nil {
		f.domain.tls = nil
	}
	f.marked = true
	return nil
}

// setTLS replaces the TLS block of every TLS router of f with t, in place:
// the names, and so the assembled order, stay.
func (f *fragment) setTLS(t *RouterTLSConfig, enc *entryEncoder) error {
	b, err := enc.tlsBlock(t)
	if err != nil {
		return err
	}
	rs := f.entries[secRouters]
	for i := range rs {
		at := rs[i].tlsAt
		if at == 0 {
			continue
		}
		out := make([]byte, 0, at+len(b.json)+1)
		rs[i].json = append(append(append(out, rs[i].json[:at]...), b.json...), '}')
	}
	f.domain.tls = b.v
	return nil
}

// httpsOn says which of the two middlewares of the HTTPS settings d the
// builder gives f's service: the redirect when it listens on plain HTTP and
// on TLS, HSTS when on TLS (as builder.service decides).
func (f *fragment) httpsOn(d domainPart) (redirect, hsts bool) {
	return d.redirect && f.anyTLS && f.anyPlain, d.hsts.MaxAge > 0 && f.anyTLS
}

// sameHTTPS reports whether f's bytes stay the same under HTTPS settings d.
func (f *fragment) sameHTTPS(d domainPart) bool {
	r0, h0 := f.httpsOn(f.domain)
	r1, h1 := f.httpsOn(d)
	return r0 == r1 && h0 == h1 && (!h1 || f.domain.hsts == d.hsts)
}

// withHTTPS returns a copy of f (marked) for the HTTPS settings d: the redirect and HSTS middlewares as d gives them and
// every router's middleware list to match. nil when f's bytes are not what
// it was built with; build it again then.
func (f *fragment) withHTTPS(d domainPart, enc *entryEncoder) *fragment {
	redirectMW, hstsMW := Prefix+"https-"+f.slug, Prefix+"hsts-"+f.slug
	r0, h0 := f.httpsOn(f.domain)
	r1, h1 := f.httpsOn(d)
	mws, ok := f.chain(hstsMW, h0)
	if !ok {
		return nil
	}
	chain := func(tls, redirect, hsts bool) []string { // builder.service's
		switch {
		case tls && hsts:
			return append([]string{hstsMW}, mws...)
		case !tls && redirect:
			return []string{redirectMW}
		}
		return mws
	}
	nf := *f
	nf.seen, nf.domain.redirect, nf.domain.hsts = 0, d.redirect, d.hsts
	// Sized as they end up (the middlewares lose or gain at most two):
	// after a write to a domain, thousands of fragments are copied.
	nf.entries = [numSections][]entry{
		secRouters:     make([]entry, 0, len(f.entries[secRouters])),
		secMiddlewares: make([]entry, 0, len(f.entries[secMiddlewares])+2),
		secServices:    slices.Clone(f.entries[secServices]),
		secTransports:  slices.Clone(f.entries[secTransports]),
	}
	for _, e := range f.entries[secRouters] {
		tls := e.tlsAt > 0
		was, now := middlewaresField(chain(tls, r0, h0), enc), middlewaresField(chain(tls, r1, h1), enc)
		at := afterEntrypoints(e.json)
		if at < 0 || !bytes.HasPrefix(e.json[at:], was) || !bytes.HasPrefix(e.json[at+len(was):], []byte(`,"service":`)) {
			return nil
		}
		j := make([]byte, 0, len(e.json)-len(was)+len(now))
		e.json = append(append(append(j, e.json[:at]...), now...), e.json[at+len(was):]...)
		if tls {
			e.tlsAt += len(now) - len(was)
		}
		nf.entries[secRouters] = append(nf.entries[secRouters], e)
	}
	var hadRedirect, hadHSTS bool
	for _, e := range f.entries[secMiddlewares] {
		switch e.name {
		case redirectMW:
			hadRedirect = true
		case hstsMW:
			hadHSTS = true
		default:
			nf.entries[secMiddlewares] = append(nf.entries[secMiddlewares], e)
		}
	}
	if hadRedirect != r0 || hadHSTS != h0 {
		return nil
	}
	add := func(name string, mw *Middleware) bool {
		e, err := enc.encode(name, mw)
		nf.entries[secMiddlewares] = append(nf.entries[secMiddlewares], e)
		return err == nil
	}
	if r1 && !add(redirectMW, httpsRedirect()) || h1 && !add(hstsMW, hstsHeaders(d.hsts)) {
		return nil
	}
	if mws := nf.entries[secMiddlewares]; cap(mws) > len(mws) {
		nf.entries[secMiddlewares] = slices.Clone(mws)
	}
	for sec := range nf.entries {
		for i := range nf.entries[sec] {
			nf.entries[sec][i].frag = &nf
		}
	}
	return &nf
}

// chain reads the middleware list every router of f has before the HTTPS
// settings add theirs (hsts: its TLS routers start with hstsMW) from its
// first TLS router. Middleware names hold no quotes, commas or brackets:
// the builder checks them. withHTTPS checks what it read against every
// router.
func (f *fragment) chain(hstsMW string, hsts bool) ([]string, bool) {
	const field = `,"middlewares":[`
	for _, e := range f.entries[secRouters] {
		if e.tlsAt == 0 {
			continue
		}
		at := afterEntrypoints(e.json)
		if at < 0 {
			return nil, false
		}
		var names []string
		if rest := e.json[at:]; bytes.HasPrefix(rest, []byte(field)) {
			end := bytes.IndexByte(rest, ']')
			if end < 0 {
				return nil, false
			}
			for _, q := range strings.Split(string(rest[len(field):end]), ",") {
				if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
					return nil, false
				}
				names = append(names, q[1:len(q)-1])
			}
		}
		if hsts {
			if len(names) == 0 || names[0] != hstsMW {
				return nil, false
			}
			names = names[1:]
		}
		return names, true
	}
	return nil, false // withHTTPS runs only with TLS routers
}

// afterEntrypoints is where the field after a router's entrypoints starts
// (`"name":{"entryPoints":["web"]` and then the middlewares, or the
// service), or -1. Entrypoint names hold no quotes: the builder checks them.
func afterEntrypoints(j []byte) int {
	const open = `{"entryPoints":["`
	i := bytes.Index(j, []byte(open))
	if i < 0 {
		return -1
	}
	k := bytes.Index(j[i+len(open):], []byte(`"]`))
	if k < 0 {
		return -1
	}
	return i + len(open) + k + 2
}

// middlewaresField encodes a router's middleware list as it follows its
// entrypoints: `,"middlewares":[...]`, or nothing when empty (omitempty).
func middlewaresField(names []string, enc *entryEncoder) []byte {
	if len(names) == 0 {
		return nil
	}
	out := append(make([]byte, 0, 64), `,"middlewares":[`...)
	for i, n := range names {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, n, enc)
	}
	return append(out, ']')
}

// appendJSONString appends s encoded as encoding/json with HTML escaping
// off encodes it: printable ASCII but for quotes and backslashes as it is,
// anything else through encoding/json itself.
func appendJSONString(out []byte, s string, enc *entryEncoder) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			j, err := enc.value(s)
			if err != nil { // a string always encodes
				panic(err)
			}
			return append(out, j...)
		}
	}
	return append(append(append(out, '"'), s...), '"')
}
