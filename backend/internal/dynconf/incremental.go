package dynconf

import (
	"context"
	"maps"
	"reflect"
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
// again; settings and protections are read on every rebuild anyway; any
// other event (domains, managed mode, an entity it does not know) makes the
// next rebuild read every row and build every fragment.
type rowCache struct {
	mu    sync.Mutex // guards dirty and full: events arrive on writers' goroutines
	dirty map[string]bool
	full  bool

	// The rest belongs to the rebuild, under Service.buildMu.
	loaded  bool
	rows    []*cachedRow
	globals *Snapshot       // the global inputs the fragments were built with
	sorted  *sortedSections // the last assembly's order
	asmGen  uint64          // counts assemblies (see sortedSections)
	// slugsOK: every row's slug is still the one the slugger would give
	// (no row came, went or was renamed since they were handed out).
	slugsOK bool
}

type cachedRow struct {
	row   store.Service
	hosts []string
	base  string    // the slug before collision suffixes
	slug  string    // valid while rowCache.slugsOK
	frag  *fragment // nil: build it
}

func newCachedRow(r store.Service) *cachedRow {
	return &cachedRow{row: r, hosts: services.FQDNs(r), base: slugify(r.Name, "service")}
}

// note records an event and bumps gen in one step, so that a rebuild which
// took the dirty set at generation g has seen every event up to g.
func (c *rowCache) note(e change.Event, gen *atomic.Uint64) {
	if e.Entity == change.Session {
		return // forward-auth sessions are not part of the configuration
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case e.Entity == change.All:
		c.full = true // events from other replicas may have been missed
	case e.Entity == change.Service && e.ID != "":
		if c.dirty == nil {
			c.dirty = map[string]bool{}
		}
		c.dirty[e.ID] = true
	case e.Entity == change.Security, e.Entity == change.Settings, e.Entity == change.Access:
		// None touches the service rows; all are read on every rebuild.
	default:
		c.full = true
	}
	gen.Add(1)
}

// take returns the generation and what changed since the last take.
func (c *rowCache) take(gen *atomic.Uint64) (uint64, map[string]bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, dirty, full := gen.Load(), c.dirty, c.full
	c.dirty, c.full = nil, false
	return g, dirty, full
}

// forget makes the next rebuild start from scratch (after a failed one,
// whose dirty set is lost).
func (c *rowCache) forget() {
	c.mu.Lock()
	c.full = true
	c.mu.Unlock()
	c.loaded, c.rows, c.globals, c.sorted = false, nil, nil, nil
}

// rebuild reads what changed, builds the fragments that are stale and
// assembles the configuration. Any error leaves nothing cached.
func (s *Service) rebuild(ctx context.Context, tls map[string]bool) (*cached, error) {
	// Expired services are switched off (and persisted) before reading.
	// Between rebuilds nothing can expire: the cache ends at NextExpiry.
	if _, err := s.d.Services.DisableExpired(ctx); err != nil {
		return nil, err
	}
	gen, dirty, full := s.rows.take(&s.gen)
	c, err := s.assembleState(ctx, tls, dirty, full)
	if err != nil {
		s.rows.forget()
		return nil, err
	}
	c.gen = gen
	return c, nil
}

func (s *Service) assembleState(ctx context.Context, tls map[string]bool, dirty map[string]bool, full bool) (*cached, error) {
	rc := &s.rows
	g, byID, protected, err := s.globals(ctx, tls)
	if err != nil {
		return nil, err
	}
	next, hasNext, err := s.d.Services.NextExpiry(ctx)
	if err != nil {
		return nil, err
	}
	// Rows carry their domain (host names): other domains mean other rows.
	if full || !rc.loaded || rc.globals == nil || !reflect.DeepEqual(rc.globals.Domains, g.Domains) {
		rows, err := s.d.Services.ListEnabled(ctx)
		if err != nil {
			return nil, err
		}
		rc.rows = make([]*cachedRow, len(rows))
		for i, r := range rows {
			rc.rows[i] = newCachedRow(r)
		}
		rc.loaded, rc.slugsOK = true, false
	} else if len(dirty) > 0 {
		if err := s.refreshRows(ctx, dirty); err != nil {
			return nil, err
		}
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
		g.Services[i] = specOf(r.row, r.hosts, byID, protected)
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
		slug := r.slug
		if f := r.frag; f == nil || f.slug != slug || f.protected != g.Services[i].Protected {
			if r.frag, err = buildFragment(&g, g.Services[i], slug, enc); err != nil {
				return nil, err
			}
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

// refreshRows reads the named services again: changed ones keep their place
// (updates never change the creation time), disabled or deleted ones go, new
// or re-enabled ones are inserted in creation order, as ListEnabled sorts.
func (s *Service) refreshRows(ctx context.Context, dirty map[string]bool) error {
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
		n := newCachedRow(f)
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
		kept = slices.Insert(kept, i, newCachedRow(f))
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
// fragment depends on besides the service itself.
func sameGlobals(a, b *Snapshot) bool {
	return slices.Equal(a.DefaultEntrypoints, b.DefaultEntrypoints) &&
		slices.Equal(a.GlobalMiddlewares, b.GlobalMiddlewares) &&
		maps.Equal(a.EntrypointTLS, b.EntrypointTLS) && a.AuthBase == b.AuthBase &&
		reflect.DeepEqual(a.Domains, b.Domains)
}
