package dynconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
)

// A fragment is what one service contributes to the configuration, built
// on its own and kept encoded, so that after a write only the services that
// changed are built and encoded again. assemble joins the fragments into
// exactly the bytes Encode(BuildWithProblems(snapshot)) gives.
type fragment struct {
	seen      uint64     // the last assembly that used it
	owner     string     // the service's id: every entry's owner
	slug      string     // the slug it was built with
	protected bool       // the protection flag it was built with
	domain    domainPart // what it took from domains
	// marked: its routers are told apart (anyTLS, anyPlain) and the TLS
	// ones' tlsAt set (see markRouters).
	marked, anyTLS, anyPlain bool
	problem                  *Problem
	entries                  [numSections][]entry
}

// entry is one named object, encoded as `"name":value`. Once assembled,
// json is a slice of the assembled body (see share), which is served as
// it is: json is never written in place, only replaced. Its owner is its
// fragment's (see owner): there are several entries to a service.
type entry struct {
	name string
	json []byte
	frag *fragment // the fragment it belongs to; nil: no service's
	// tlsAt, in a router with a TLS block, is where the block's value
	// starts: it is the last field, so json is json[:tlsAt], the block and
	// "}". Zero in every other entry.
	tlsAt int
}

// The sections of "http", then of "tcp" and "udp", in the order
// encoding/json writes them.
const (
	secRouters = iota
	secServices
	secMiddlewares
	secTransports
	secTCPRouters
	secTCPServices
	secTCPMiddlewares
	secTCPTransports
	secUDPRouters
	secUDPServices
	numSections
)

// groups are the top-level keys and their sections; each group's first two
// sections are its routers and services: a group without either is left
// out, as Build drops it.
var groups = [...]struct {
	key  string
	secs []int
}{
	{`"http":`, []int{secRouters, secServices, secMiddlewares, secTransports}},
	{`"tcp":`, []int{secTCPRouters, secTCPServices, secTCPMiddlewares, secTCPTransports}},
	{`"udp":`, []int{secUDPRouters, secUDPServices}},
}

// owner is the id of the service the entry belongs to; "" for none.
func (e *entry) owner() string {
	if e.frag == nil {
		return ""
	}
	return e.frag.owner
}

var sectionKeys = [numSections]string{`"routers":`, `"services":`, `"middlewares":`, `"serversTransports":`,
	`"routers":`, `"services":`, `"middlewares":`, `"serversTransports":`, `"routers":`, `"services":`}

// entryEncoder encodes entries the way Encode does: compact, no HTML escaping.
type entryEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	tls map[string]tlsBlock // by tlsKey (see tlsBlock)
}

func newEntryEncoder() *entryEncoder {
	e := &entryEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// value encodes v alone, as Encode would inside a document.
func (e *entryEncoder) value(v any) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(e.buf.Bytes()[:e.buf.Len()-1]), nil
}

func (e *entryEncoder) encode(name string, v any) (entry, error) {
	e.buf.Reset()
	if err := e.enc.Encode(name); err != nil {
		return entry{}, err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode ends with a newline
	e.buf.WriteByte(':')
	if err := e.enc.Encode(v); err != nil {
		return entry{}, fmt.Errorf("encode %s: %w", name, err)
	}
	e.buf.Truncate(e.buf.Len() - 1)
	return entry{name: name, json: bytes.Clone(e.buf.Bytes())}, nil
}

// entries encodes every object of cfg, each section sorted by name. The
// objects of a service's fragment all belong to it (cfg.owners); the
// caller sets their fragment, which names the owner.
func (e *entryEncoder) entries(cfg Config) ([numSections][]entry, error) {
	var out [numSections][]entry
	var err error
	add := func(sec int, name string, v any) {
		if err != nil {
			return
		}
		var en entry
		if en, err = e.encode(name, v); err == nil {
			out[sec] = append(out[sec], en)
		}
	}
	if h := cfg.HTTP; h != nil {
		addAll(add, secRouters, h.Routers)
		addAll(add, secServices, h.Services)
		addAll(add, secMiddlewares, h.Middlewares)
		addAll(add, secTransports, h.ServersTransports)
	}
	if t := cfg.TCP; t != nil {
		addAll(add, secTCPRouters, t.Routers)
		addAll(add, secTCPServices, t.Services)
		addAll(add, secTCPMiddlewares, t.Middlewares)
		addAll(add, secTCPTransports, t.ServersTransports)
	}
	if u := cfg.UDP; u != nil {
		addAll(add, secUDPRouters, u.Routers)
		addAll(add, secUDPServices, u.Services)
	}
	return out, err
}

// addAll adds the objects of m in name order.
func addAll[V any](add func(sec int, name string, v any), sec int, m map[string]V) {
	for _, n := range slices.Sorted(maps.Keys(m)) {
		add(sec, n, m[n])
	}
}

// buildFragment builds one service against the snapshot's global inputs
// (entrypoints, middlewares, TLS map, domains, panel address), exactly as
// Build does inside the whole snapshot, then encodes its objects.
func buildFragment(g *Snapshot, sv ServiceSpec, slug string, enc *entryEncoder) (*fragment, error) {
	b := newBuilder(g, 1)
	f := &fragment{owner: sv.ID, slug: slug, protected: sv.Protected, domain: g.domainPartOf(&sv)}
	if err := b.service(sv, slug); err != nil {
		// A service the builder refuses is left out and reported, not an
		// error of the whole configuration (as in BuildWithProblems).
		f.problem = &Problem{Kind: "service", ID: sv.ID, Reason: err.Error()}
		return f, nil //nolint:nilerr // the refusal is carried in f.problem
	}
	var err error
	if f.entries, err = enc.entries(b.cfg); err != nil {
		return nil, err
	}
	for sec := range f.entries {
		for i := range f.entries[sec] {
			f.entries[sec][i].frag = f
		}
	}
	if err := f.markRouters(b.cfg.HTTP.Routers, enc); err != nil {
		return nil, err
	}
	if services.IsStream(sv.Kind) {
		// A tcp router's TLS block is not an HTTP router's: after a domain
		// write the fragment is built again rather than patched.
		f.marked = false
	}
	return f, nil
}

// globalEntries builds what belongs to no service (certificate-trigger and
// admin routers) for the whole snapshot s.
func globalEntries(s *Snapshot, enc *entryEncoder) ([numSections][]entry, []Problem, error) {
	b := newBuilder(s, 0)
	tlsEPs := s.tlsEntrypoints()
	b.certTriggers(tlsEPs)
	b.adminRouter(tlsEPs)
	out, err := enc.entries(b.cfg)
	return out, b.problems, err
}

// sortedSections is the previous assembly's sections sorted by name. The
// next assembly keeps the entries of the fragments still in use, in order,
// and merges in the others, instead of sorting every name again.
type sortedSections struct {
	gen  uint64 // the assembly; its fragments have seen == gen
	secs [numSections][]*entry
}

// assemble writes the configuration from the fragments (in service order)
// and the global entries. ok is false when two objects of a section share a
// name: Build resolves that by order (router suffixes, later objects
// replacing earlier ones), so the caller builds the whole snapshot instead.
// prev may be nil; next is what the following call may pass as prev. gen
// numbers this assembly: it grows by one on every call.
func assemble(frags []*fragment, global [numSections][]entry, prev *sortedSections, gen uint64) (
	body []byte, routers []*entry, next *sortedSections, ok bool) {
	next = &sortedSections{gen: gen}
	var added []*fragment
	for _, f := range frags {
		if prev == nil || f.seen != prev.gen {
			added = append(added, f)
		}
		f.seen = gen
	}
	byName := func(a, b *entry) int { return strings.Compare(a.name, b.name) }
	size := 16
	for sec := range numSections {
		var kept []*entry
		if prev != nil {
			kept = make([]*entry, 0, len(prev.secs[sec]))
			for _, e := range prev.secs[sec] {
				if e.frag != nil && e.frag.seen == gen {
					kept = append(kept, e)
				}
			}
		}
		var fresh []*entry
		for _, f := range added {
			for i := range f.entries[sec] {
				fresh = append(fresh, &f.entries[sec][i])
			}
		}
		for i := range global[sec] {
			fresh = append(fresh, &global[sec][i])
		}
		slices.SortFunc(fresh, byName)
		all := merge(kept, fresh, byName)
		for i, e := range all {
			if i > 0 && e.name == all[i-1].name {
				return nil, nil, nil, false
			}
			size += len(e.json) + 1
		}
		next.secs[sec] = all
	}
	secs := next.secs
	// Room for every entry and its comma (size) and the keys and braces
	// around them, so out is not copied while it grows.
	out := make([]byte, 0, size+256)
	out = append(out, '{')
	firstGroup := true
	for _, g := range groups {
		// Build drops a group when it has nothing to route.
		if len(secs[g.secs[0]]) == 0 && len(secs[g.secs[1]]) == 0 {
			continue
		}
		if !firstGroup {
			out = append(out, ',')
		}
		firstGroup = false
		out = append(out, g.key...)
		out = append(out, '{')
		first := true
		for _, sec := range g.secs {
			if len(secs[sec]) == 0 {
				continue // omitempty
			}
			if !first {
				out = append(out, ',')
			}
			first = false
			out = append(out, sectionKeys[sec]...)
			out = append(out, '{')
			for i, e := range secs[sec] {
				if i > 0 {
					out = append(out, ',')
				}
				out = share(out, e)
			}
			out = append(out, '}')
		}
		out = append(out, '}')
	}
	out = append(out, '}')
	return out, secs[secRouters], next, true
}

// share appends e's json to body and points e's json at those bytes, so
// that the configuration is held once, not once encoded and once more in
// its fragments. The slice is capped at its end: an append to it copies
// instead of writing into body. Should body be copied as it grows, the
// entry keeps pointing at the earlier array, whose bytes stay as written.
func share(body []byte, e *entry) []byte {
	at := len(body)
	body = append(body, e.json...)
	e.json = body[at:len(body):len(body)]
	return body
}

// merge merges two sorted lists.
func merge[T any](a, b []T, cmp func(x, y T) int) []T {
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
