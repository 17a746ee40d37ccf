package dynconf

import (
	"context"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// rowCache keeps the enabled services as last read, in creation order, each
// with the fragment it last built. A service event names the one row to read
// again; settings and domains are read on every rebuild anyway (a domain
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

type cachedRow struct {
	row   store.Service
	hosts []string
	base  string    // the slug before collision suffixes
	slug  string    // valid while rowCache.slugsOK
	frag  *fragment // nil: build it
	// domainStale: a domain the fragment may read changed since it was
	// built (see fragment.followDomains).
	domainStale bool
}

// newCachedRow caches r joined with its domain as the rebuild read it
// (nil: none, or one the rebuild did not see), whatever was preloaded: the
// rows and the domains then agree, and followDomains keeps them so.
func newCachedRow(r store.Service, doms domainIndex) *cachedRow {
	r.Domain = nil
	if r.DomainID != nil {
		r.Domain = doms.row[*r.DomainID]
	}
	return &cachedRow{row: r, hosts: services.FQDNs(r), base: slugify(r.Name, "service")}
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
	dirty, full := p.dirty, p.full
	g, doms, err := s.globals(ctx, tls)
	if err != nil {
		return nil, err
	}
	protected, err := s.cachedGuard(ctx, dirty, full || p.guardStale)
	if err != nil {
		return nil, err
	}
	next, hasNext, err := s.d.Services.NextExpiry(ctx)
	if err != nil {
		return nil, err
	}
	if full || !rc.loaded || rc.globals == nil {
		rows, err := s.d.Services.ListEnabled(ctx)
		if err != nil {
			return nil, err
		}
		rc.rows = make([]*cachedRow, len(rows))
		for i, r := range rows {
			rc.rows[i] = newCachedRow(r, doms)
		}
		rc.loaded, rc.slugsOK = true, false
	} else {
		if len(dirty) > 0 {
			if err := s.refreshRows(ctx, dirty, doms); err != nil {
				return nil, err
			}
		}
		rc.followDomains(rc.globals.Domains, g.Domains, doms)
	}
	if rc.globals == nil || !sameGlobals(rc.globals, &g) {
		for _, r := range rc.rows {
			r.frag = nil
		}
	}
	gc := g
	rc.globals = &gc

	g.Services = make([]ServiceSpec, len(rc.rows))
	for i, r := range rc.rows {
		g.Services[i] = specOf(r.row, r.hosts, doms.spec, protected)
	}
	enc := newEntryEncoder()
	if !rc.slugsOK {
		slugs := newSlugger()
		for _, r := range rc.rows {
			r.slug = slugs.next(r.base)
		}
		rc.slugsOK = true
	}
	frags := make([]*fragment, len(rc.rows))
	for i, r := range rc.rows {
		if r.frag, err = fragmentOf(&g, r, &g.Services[i], enc); err != nil {
			return nil, err
		}
		frags[i] = r.frag
	}
	global, globalProblems, err := globalEntries(&g, enc)
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
	} else {
		// Names collide across services: only the whole build knows the
		// suffixes and which object wins.
		cfg, p := BuildWithProblems(g)
		if c.body, err = Encode(cfg); err != nil {
			return nil, err
		}
		problems, c.routers = p, cfg.owners.routers
	}
	for _, p := range problems {
		s.d.Logger.Warn("left out of the dynamic configuration", "kind", p.Kind, "id", p.ID, "reason", p.Reason)
	}
	c.etag = etagOf(c.body)
	return c, nil
}

// fragmentOf returns r's fragment (sv: r joined with its domain and
// protection): the cached one if it still holds, else a new one.
func fragmentOf(g *Snapshot, r *cachedRow, sv *ServiceSpec, enc *entryEncoder) (*fragment, error) {
	stale := r.domainStale
	r.domainStale = false
	if f := r.frag; f != nil && f.slug == r.slug && f.protected == sv.Protected {
		if !stale {
			return f, nil
		}
		if nf, err := f.followDomains(g, sv, enc); nf != nil || err != nil {
			return nf, err
		}
	}
	return buildFragment(g, *sv, r.slug, enc)
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
		if !dirty[r.row.ID] {
			kept = append(kept, r)
			continue
		}
		f, ok := fresh[r.row.ID]
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
		delete(fresh, r.row.ID)
	}
	for _, id := range ids {
		f, ok := fresh[id]
		if !ok {
			continue
		}
		i := sort.Search(len(kept), func(i int) bool { return rowAfter(kept[i].row, f) })
		kept = slices.Insert(kept, i, newCachedRow(f, doms))
		rc.slugsOK = false
	}
	rc.rows = kept
	return nil
}

// rowAfter reports whether a sorts after b in ListEnabled's order
// (created_at, then id).
func rowAfter(a, b store.Service) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}

// sameGlobals reports whether two snapshots agree on everything a service's
// fragment depends on besides the service itself and domains (which
// followDomains and fragment.followDomains follow).
func sameGlobals(a, b *Snapshot) bool {
	return slices.Equal(a.DefaultEntrypoints, b.DefaultEntrypoints) &&
		slices.Equal(a.GlobalMiddlewares, b.GlobalMiddlewares) &&
		maps.Equal(a.EntrypointTLS, b.EntrypointTLS) && a.AuthBase == b.AuthBase
}
