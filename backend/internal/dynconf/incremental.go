package dynconf

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// rowCache keeps the enabled services as last read, in creation order, each
// as a compact record (cachedRow) with the fragment it last built. A service
// event names the one row to read again; settings and domains are read on every rebuild anyway (a domain
// write changes no service row: renaming a domain renames its services' host
// names, which are resolved against the domain row, see followDomains); any
// other event (managed mode, an entity it does not know) makes the next
// rebuild read every row and build every fragment.
//
// It also keeps which services are guarded (Deps.Guarded). A service event
// names the one service whose protections or access rules the write may
// have touched (a service's own rows), so only its answer is read again; a
// domain write touches neither; every other event, change.All included,
// drops them all.
type rowCache struct {
	mu         sync.Mutex // guards dirty, full and guardStale: events arrive on writers' goroutines
	dirty      map[string]bool
	full       bool
	guardStale bool

	// The rest belongs to the rebuild, under Service.buildMu.
	loaded  bool
	rows    []*cachedRow
	globals *Snapshot       // the global inputs the fragments were built with
	sorted  *sortedSections // the last assembly's order
	asmGen  uint64          // counts assemblies (see sortedSections)
	// slugsOK: every row's slug is still the one the slugger would give
	// (no row came, went or was renamed since they were handed out).
	slugsOK bool
	guard   func(string) bool // every service's answer as last read; nil: read it
	guardOf map[string]bool   // answers read again since, for single services
}

// cachedRow is what the cache keeps of one service between rebuilds: what
// orders and names it, what a domain write may change in its fragment (its
// domain, typed host names and HTTPS overrides, see followDomains), and the
// fragment. The rest of the row (targets, rules, headers...) is only needed
// to build the fragment again, and is then read again: 10,000 decoded rows
// would hold about 13 MB for nothing between writes.
type cachedRow struct {
	id, name  string
	createdAt time.Time
	domainID  *string
	hostnames []store.Hostname
	// entrypoints as the row lists them: which are TLS decides the global
	// routers (see Snapshot.tlsEntrypoints). Rows read together share
	// equal lists (see internEntrypoints).
	entrypoints []string
	// The service's own HTTPS overrides (nil inherits the domain's).
	httpsRedirect *bool
	hsts          *store.HSTS

	hosts []string
	base  string    // the slug before collision suffixes
	slug  string    // valid while rowCache.slugsOK
	frag  *fragment // nil: build it
	// domainStale: a domain the fragment may read changed since it was
	// built (see fragment.followDomains).
	domainStale bool
	// full is the whole row when this rebuild read it (a dirty service),
	// so its fragment is built without reading it again; dropped once built.
	full *store.Service
}

// newCachedRow caches r joined with its domain as the rebuild read it
// (nil: none, or one the rebuild did not see), whatever was preloaded: the
// rows and the domains then agree, and followDomains keeps them so. The
// returned row holds r whole (full) until its fragment is built.
func newCachedRow(r store.Service, doms domainIndex) *cachedRow {
	r.Domain = nil
	if r.DomainID != nil {
		r.Domain = doms.row[*r.DomainID]
	}
	return &cachedRow{
		id: r.ID, name: r.Name, createdAt: r.CreatedAt, domainID: r.DomainID, hostnames: r.Hostnames.V,
		entrypoints:   r.Entrypoints.V,
		httpsRedirect: r.HTTPSRedirect, hsts: r.HSTS.V,
		hosts: services.FQDNs(r), base: slugify(r.Name, "service"), full: &r,
	}
}

// domainSpec is the part of the service's spec a domain write may change
// (what fragment.followDomains reads), without reading its row again.
func (r *cachedRow) domainSpec(doms domainIndex, protected bool) ServiceSpec {
	// Entrypoints too: whether the redirect adds a plain router depends on
	// them (see Snapshot.redirectRouterOnly).
	sv := ServiceSpec{ID: r.id, Name: r.name, Hosts: r.hosts, Entrypoints: r.entrypoints,
		HTTPSRedirect: r.httpsRedirect, HSTS: r.hsts, Protected: protected}
	if r.domainID != nil {
		sv.Domain = doms.spec[*r.domainID]
	}
	return sv
}

// note records an event and bumps gen in one step, so that a rebuild which
// took the dirty set at generation g has seen every event up to g.
func (c *rowCache) note(e change.Event, gen *atomic.Uint64) {
	if e.Entity == change.Session {
		return // forward-auth sessions are not part of the configuration
	}
	named := e.ID != "" && (e.Entity == change.Service || e.Entity == change.Domain)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !named {
		c.guardStale = true
	}
	switch {
	case e.Entity == change.All:
		c.full = true // events from other replicas may have been missed
	case e.Entity == change.Service && named:
		if c.dirty == nil {
			c.dirty = map[string]bool{}
		}
		c.dirty[e.ID] = true
	case e.Entity == change.Domain && named,
		e.Entity == change.Security, e.Entity == change.Settings, e.Entity == change.Access:
		// None touches the service rows; all are read on every rebuild.
	default:
		c.full = true
	}
	gen.Add(1)
}

// pending is what changed since the last take.
type pending struct {
	dirty      map[string]bool // services to read again
	full       bool            // read every service again
	guardStale bool            // ask which services are guarded again
}

// take returns the generation and what changed since the last take.
func (c *rowCache) take(gen *atomic.Uint64) (uint64, pending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, p := gen.Load(), pending{dirty: c.dirty, full: c.full, guardStale: c.guardStale}
	c.dirty, c.full, c.guardStale = nil, false, false
	return g, p
}

// forget makes the next rebuild start from scratch (after a failed one,
// whose dirty set is lost).
func (c *rowCache) forget() {
	c.mu.Lock()
	c.full, c.guardStale = true, true
	c.mu.Unlock()
	c.loaded, c.rows, c.globals, c.sorted = false, nil, nil, nil
	c.guard, c.guardOf = nil, nil
}

// rebuild reads what changed, builds the fragments that are stale and
// assembles the configuration. Any error leaves nothing cached.
func (s *Service) rebuild(ctx context.Context, tls map[string]bool) (*cached, error) {
	// Expired services are switched off (and persisted) before reading.
	// Between rebuilds nothing can expire: the cache ends at NextExpiry.
	// Only when one is due does it take a write transaction (on PostgreSQL,
	// the writers' advisory lock).
	if err := s.DisableExpired(ctx); err != nil {
		return nil, err
	}
	gen, p := s.rows.take(&s.gen)
	c, err := s.assembleState(ctx, tls, p)
	if err != nil {
		s.rows.forget()
		return nil, err
	}
	c.gen = gen
	return c, nil
}

func (s *Service) assembleState(ctx context.Context, tls map[string]bool, p pending) (*cached, error) {
	rc := &s.rows
	g, doms, err := s.globals(ctx, tls)
	if err != nil {
		return nil, err
	}
	protected, err := s.cachedGuard(ctx, p.dirty, p.full || p.guardStale)
	if err != nil {
		return nil, err
	}
	next, hasNext, err := s.d.Services.NextExpiry(ctx)
	if err != nil {
		return nil, err
	}
	enc := newEntryEncoder()
	// A change of the global inputs changes every fragment: build them all
	// from the rows as they stream in, rather than read them again by id.
	all := p.full || !rc.loaded || rc.globals == nil || !sameGlobals(rc.globals, &g)
	if !all {
		all, err = s.updateRows(ctx, &g, doms, p.dirty, protected, enc)
		if err != nil {
			return nil, err
		}
	}
	if all {
		if err := s.loadRows(ctx, &g, doms, protected, enc); err != nil {
			return nil, err
		}
	}
	gc := g
	rc.globals = &gc

	frags := make([]*fragment, len(rc.rows))
	for i, r := range rc.rows {
		frags[i] = r.frag
	}
	global, globalProblems, err := globalEntries(withEntrypoints(g, rc.rows), enc)
	if err != nil {
		return nil, err
	}

	c := &cached{tls: tls, adminDomain: g.AdminDomain}
	if hasNext {
		c.validUntil = next
	}
	var problems []Problem
	rc.asmGen++
	body, routers, sorted, ok := assemble(frags, global, rc.sorted, rc.asmGen)
	rc.sorted = sorted
	if ok {
		for _, f := range frags {
			if f.problem != nil {
				problems = append(problems, *f.problem)
			}
		}
		problems = append(problems, globalProblems...)
		c.body, c.routerEntries = body, routers
		c.stream = map[string]string{}
		for _, sec := range [...]struct {
			proto string
			i     int
		}{{"tcp", secTCPRouters}, {"udp", secUDPRouters}} {
			for _, e := range sorted.secs[sec.i] {
				c.stream[sec.proto+"/"+e.name] = e.owner()
			}
		}
	} else {
		// Names collide across services: only the whole build knows the
		// suffixes and which object wins. It reads every row again (names
		// come from unique slugs: a collision is rare).
		if c.body, problems, c.routers, c.stream, err = s.buildWhole(ctx, g, doms, protected); err != nil {
			return nil, err
		}
	}
	for _, p := range problems {
		s.d.Logger.Warn("left out of the dynamic configuration", "kind", p.Kind, "id", p.ID, "reason", p.Reason)
	}
	c.etag = etagOf(c.body)
	return c, nil
}

// buildWhole builds and encodes the snapshot g with every enabled service,
// joined with the domains and protections the rebuild read.
func (s *Service) buildWhole(ctx context.Context, g Snapshot, doms domainIndex, protected func(string) bool) (
	[]byte, []Problem, map[string]string, map[string]string, error) {
	err := s.d.Services.EachEnabled(ctx, func(r store.Service) error {
		r.Domain = nil
		if r.DomainID != nil {
			r.Domain = doms.row[*r.DomainID]
		}
		g.Services = append(g.Services, specOf(r, services.FQDNs(r), doms.spec, protected))
		return nil
	})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cfg, problems := BuildWithProblems(g)
	body, err := Encode(cfg)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return body, problems, cfg.owners.routers, streamOwners(cfg), nil
}

// loadRows reads every enabled service and builds its fragment, one row at
// a time: what stays is the cached rows and their fragments, never every
// decoded row at once.
func (s *Service) loadRows(ctx context.Context, g *Snapshot, doms domainIndex, protected func(string) bool,
	enc *entryEncoder) error {
	rc := &s.rows
	rc.loaded, rc.rows, rc.sorted = false, nil, nil
	var rows []*cachedRow
	slugs := newSlugger()
	eps := map[string][]string{}
	err := s.d.Services.EachEnabled(ctx, func(r store.Service) error {
		c := newCachedRow(r, doms)
		c.entrypoints = internEntrypoints(eps, c.entrypoints)
		c.slug = slugs.next(c.base)
		if err := c.build(g, doms, protected, enc); err != nil {
			return err
		}
		rows = append(rows, c)
		return nil
	})
	if err != nil {
		return err
	}
	rc.rows, rc.loaded, rc.slugsOK = rows, true, true
	return nil
}

// internEntrypoints returns the list in seen equal to eps, or adds eps:
// thousands of services share a few lists.
func internEntrypoints(seen map[string][]string, eps []string) []string {
	k := strings.Join(eps, "\x00")
	if v, ok := seen[k]; ok {
		return v
	}
	seen[k] = eps
	return eps
}

// withEntrypoints returns g with one service per distinct entrypoint list
// of rows: all the global routers read of the services (which entrypoints
// are TLS), without a spec per service.
func withEntrypoints(g Snapshot, rows []*cachedRow) *Snapshot {
	seen := map[string][]string{}
	var last []string
	for i, r := range rows {
		if i > 0 && slices.Equal(r.entrypoints, last) {
			continue // neighbours mostly share their list
		}
		last = internEntrypoints(seen, r.entrypoints)
	}
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		g.Services = append(g.Services, ServiceSpec{Entrypoints: seen[k]})
	}
	return &g
}

// build builds r's fragment from its whole row, which it then drops.
func (r *cachedRow) build(g *Snapshot, doms domainIndex, protected func(string) bool, enc *entryEncoder) error {
	sv := specOf(*r.full, r.hosts, doms.spec, protected)
	f, err := buildFragment(g, sv, r.slug, enc)
	if err != nil {
		return err
	}
	r.frag, r.full, r.domainStale = f, nil, false
	return nil
}

// updateRows brings the cached rows up to date after the writes in dirty
// and the domain writes since the last rebuild, reading again only the rows
// whose fragment must be built again. again asks for every row to be read:
// a row that needed reading changed in the meantime (its event is on its
// way), and a full read is the simplest consistent answer.
func (s *Service) updateRows(ctx context.Context, g *Snapshot, doms domainIndex, dirty map[string]bool,
	protected func(string) bool, enc *entryEncoder) (again bool, err error) {
	rc := &s.rows
	if len(dirty) > 0 {
		if err := s.refreshRows(ctx, dirty, doms); err != nil {
			return false, err
		}
	}
	rc.followDomains(rc.globals.Domains, g.Domains, doms)
	if !rc.slugsOK {
		slugs := newSlugger()
		for _, r := range rc.rows {
			r.slug = slugs.next(r.base)
		}
		rc.slugsOK = true
	}
	var read []*cachedRow
	for _, r := range rc.rows {
		ok, err := r.follow(g, doms, protected, enc)
		switch {
		case err != nil:
			return false, err
		case ok:
		case r.full == nil:
			read = append(read, r)
		default:
			if err := r.build(g, doms, protected, enc); err != nil {
				return false, err
			}
		}
	}
	if len(read) == 0 {
		return false, nil
	}
	return s.readAndBuild(ctx, read, g, doms, protected, enc)
}

// readAndBuild reads the rows of read again and builds their fragments.
// again: one is gone or moved (see updateRows).
func (s *Service) readAndBuild(ctx context.Context, read []*cachedRow, g *Snapshot, doms domainIndex,
	protected func(string) bool, enc *entryEncoder) (again bool, err error) {
	ids := make([]string, len(read))
	for i, r := range read {
		ids[i] = r.id
	}
	rows, err := s.d.Services.EnabledByID(ctx, ids)
	if err != nil {
		return false, err
	}
	byID := make(map[string]store.Service, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, r := range read {
		f, ok := byID[r.id]
		if !ok {
			return true, nil
		}
		n := newCachedRow(f, doms)
		if n.base != r.base || !n.createdAt.Equal(r.createdAt) {
			return true, nil
		}
		n.slug = r.slug
		*r = *n
		if err := r.build(g, doms, protected, enc); err != nil {
			return false, err
		}
	}
	return false, nil
}

// follow reports whether r's cached fragment still holds, brought up to
// the domains first when one it reads changed; false: it must be built
// again from the whole row.
func (r *cachedRow) follow(g *Snapshot, doms domainIndex, protected func(string) bool, enc *entryEncoder) (bool, error) {
	f, p := r.frag, protected(r.id)
	if f == nil || f.slug != r.slug || f.protected != p {
		return false, nil
	}
	stale := r.domainStale
	r.domainStale = false
	if !stale {
		return true, nil
	}
	sv := r.domainSpec(doms, p)
	nf, err := f.followDomains(g, &sv, enc)
	if err != nil || nf == nil {
		return false, err
	}
	r.frag = nf
	return true, nil
}

// cachedGuard answers which services are guarded from the last answer for
// every service and those read again since for single services: all asks
// about every service again, else only the dirty ones are asked about.
func (s *Service) cachedGuard(ctx context.Context, dirty map[string]bool, all bool) (func(string) bool, error) {
	rc := &s.rows
	if all || rc.guard == nil {
		g, err := s.guarded(ctx, nil)
		if err != nil {
			return nil, err
		}
		rc.guard, rc.guardOf = g, nil
	} else if len(dirty) > 0 {
		ids := slices.Sorted(maps.Keys(dirty))
		g, err := s.guarded(ctx, ids)
		if err != nil {
			return nil, err
		}
		if rc.guardOf == nil {
			rc.guardOf = make(map[string]bool, len(ids))
		}
		for _, id := range ids {
			rc.guardOf[id] = g(id)
		}
	}
	every, some := rc.guard, rc.guardOf
	return func(id string) bool {
		if p, ok := some[id]; ok {
			return p
		}
		return every(id)
	}, nil
}

// refreshRows reads the named services again: changed ones keep their place
// (updates never change the creation time), disabled or deleted ones go, new
// or re-enabled ones are inserted in creation order, as ListEnabled sorts.
func (s *Service) refreshRows(ctx context.Context, dirty map[string]bool, doms domainIndex) error {
	rc := &s.rows
	ids := slices.Sorted(maps.Keys(dirty))
	rows, err := s.d.Services.EnabledByID(ctx, ids)
	if err != nil {
		return err
	}
	fresh := make(map[string]store.Service, len(rows))
	for _, r := range rows {
		fresh[r.ID] = r
	}
	kept := rc.rows[:0:0]
	for _, r := range rc.rows {
		if !dirty[r.id] {
			kept = append(kept, r)
			continue
		}
		f, ok := fresh[r.id]
		if !ok {
			rc.slugsOK = false // gone: later rows of the same base move up
			continue
		}
		n := newCachedRow(f, doms)
		if n.base == r.base {
			n.slug = r.slug // same place, same base: same slug
		} else {
			rc.slugsOK = false
		}
		kept = append(kept, n)
		delete(fresh, r.id)
	}
	for _, id := range ids {
		f, ok := fresh[id]
		if !ok {
			continue
		}
		i := sort.Search(len(kept), func(i int) bool { return rowAfter(kept[i], f) })
		kept = slices.Insert(kept, i, newCachedRow(f, doms))
		rc.slugsOK = false
	}
	rc.rows = kept
	return nil
}

// rowAfter reports whether a sorts after b in ListEnabled's order
// (created_at, then id).
func rowAfter(a *cachedRow, b store.Service) bool {
	if !a.createdAt.Equal(b.CreatedAt) {
		return a.createdAt.After(b.CreatedAt)
	}
	return a.id > b.ID
}

// sameGlobals reports whether two snapshots agree on everything a service's
// fragment depends on besides the service itself and domains (which
// followDomains and fragment.followDomains follow).
func sameGlobals(a, b *Snapshot) bool {
	return slices.Equal(a.DefaultEntrypoints, b.DefaultEntrypoints) &&
		slices.Equal(a.GlobalMiddlewares, b.GlobalMiddlewares) &&
		maps.Equal(a.EntrypointTLS, b.EntrypointTLS) && a.AuthBase == b.AuthBase
}
