package dynconf

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ServiceStore is what dynconf needs from the services feature.
type ServiceStore interface {
	ListEnabled(ctx context.Context) ([]store.Service, error)
	EachEnabled(ctx context.Context, fn func(store.Service) error) error
	EnabledByID(ctx context.Context, ids []string) ([]store.Service, error)
	DisableExpired(ctx context.Context) ([]string, error)
	NextExpiry(ctx context.Context) (time.Time, bool, error)
}

// SettingsStore reads the global configuration.
type SettingsStore interface {
	Get(ctx context.Context) (settings.Global, error)
	// PortalHost is the sign-in portal's host ("" for none), routed to
	// the panel in managed mode like the admin domain.
	PortalHost(ctx context.Context) string
}

// Deps are the Service's collaborators.
type Deps struct {
	DB       *gorm.DB
	Bus      *change.Bus
	Services ServiceStore
	Settings SettingsStore
	Now      func() time.Time
	Logger   *slog.Logger

	Managed bool // PANEL_MANAGED: emit the admin-panel router
	// Panel is where Traefik reaches the panel (forwardAuth addresses, the
	// admin router's upstream); nil knows no address.
	Panel *paneladdr.Address
	// PanelService is the admin-panel router's service when it is not the
	// panel's own URL (see Snapshot.PanelService).
	PanelService string
	// PanelMiddlewares go with PanelService (see Snapshot.PanelMiddlewares).
	PanelMiddlewares []string
	// TLSSources are asked in order which entrypoints are TLS (managed
	// static config, then Traefik's API); IsTLSByName covers the rest.
	TLSSources []EntrypointTLS
	// Guarded answers which services need the forwardAuth middleware: those
	// with a protection or with access rules that do not simply allow
	// everything. Forward-auth owns the answer; nil means none does. ids nil
	// asks about every service; otherwise only the answers for ids need
	// hold (the rebuild after a service write reads that service alone).
	Guarded func(ctx context.Context, ids []string) (func(serviceID string) bool, error)
	// TrustForwardHeader is set when proxies in front of Traefik are
	// trusted (PANEL_TRUSTED_PROXIES): Traefik then passes their
	// X-Forwarded-For entries on to verify.
	TrustForwardHeader bool

	// OnBuild, when set, is told of every configuration built, with its
	// ETag and the instant before its state was read.
	OnBuild func(etag string, at time.Time)
	// OnServe, when set, is told of every answered poll: the client's
	// address, the ETag served and 200 or 304.
	OnServe func(remote, etag string, code int)
	// ProviderToken, when set, is the bearer token Traefik's HTTP provider
	// must send (PANEL_PROVIDER_TOKEN, or managed mode's): GET
	// /api/proxy/config answers nothing else. Empty keeps it open.
	ProviderToken string
}

// Service gathers snapshots, builds and caches the encoded configuration.
// After a write it reads and builds again only what the write touched (see
// rowCache); the bytes are always those of Encode(BuildWithProblems) for the
// same state.
type Service struct {
	d Deps

	gen     atomic.Uint64 // bumped by every change event
	cur     atomic.Pointer[cached]
	buildMu sync.Mutex
	rows    rowCache // under buildMu, except its event fields
}

type cached struct {
	body        []byte
	etag        string
	tls         map[string]bool
	gen         uint64
	adminDomain string
	validUntil  time.Time // the next expiry instant; zero: none

	// Router owners: routers when the whole snapshot was built, else
	// derived once from routerEntries when first asked for.
	routers       map[string]string
	routerEntries []*entry
	ownersOnce    sync.Once
	// stream maps each tcp and udp router ("tcp/<name>", "udp/<name>") to
	// its service: there are few, so it is always a map.
	stream map[string]string
}

// owners returns the router owners (name without "@http" -> service id).
func (c *cached) owners() map[string]string {
	c.ownersOnce.Do(func() {
		if c.routers != nil {
			return
		}
		c.routers = make(map[string]string, len(c.routerEntries))
		for _, e := range c.routerEntries {
			if o := e.owner(); o != "" {
				c.routers[e.name] = o
			}
		}
	})
	return c.routers
}

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// NewService returns the dynamic-config service and subscribes it to bus.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	d.TLSSources = slices.Clone(d.TLSSources)
	s := &Service{d: d}
	d.Bus.Subscribe(func(e change.Event) { s.rows.note(e, &s.gen) })
	return s
}

// Invalidate drops the cached configuration: the next request reads and
// builds everything again.
func (s *Service) Invalidate() { s.rows.note(change.Event{}, &s.gen) }

// current returns the encoded configuration, its strong ETag and the admin
// domain it was built with. It is served from the cache unless a change
// event arrived, the next expiry instant passed, or the entrypoints' TLS map
// changed.
func (s *Service) current(ctx context.Context) ([]byte, string, string, error) {
	c, err := s.cachedConfig(ctx)
	if err != nil {
		return nil, "", "", err
	}
	return c.body, c.etag, c.adminDomain, nil
}

func (s *Service) cachedConfig(ctx context.Context) (*cached, error) {
	tls := firstTLSSource(ctx, s.d.TLSSources)
	if c := s.fresh(tls); c != nil {
		return c, nil
	}
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	if c := s.fresh(tls); c != nil {
		return c, nil
	}
	at := s.d.Now()
	c, err := s.rebuild(ctx, tls)
	if err != nil {
		return nil, err
	}
	s.cur.Store(c)
	if s.d.OnBuild != nil {
		s.d.OnBuild(c.etag, at)
	}
	return c, nil
}

func (s *Service) fresh(tls map[string]bool) *cached {
	c := s.cur.Load()
	if c == nil || c.gen != s.gen.Load() || !maps.Equal(c.tls, tls) {
		return nil
	}
	if !c.validUntil.IsZero() && !s.d.Now().Before(c.validUntil) {
		return nil
	}
	return c
}

// DisableExpired switches off services whose expiry passed (the background
// ticker calls it so the API and UI show it without waiting for a poll).
// It only writes when an expiry is due.
func (s *Service) DisableExpired(ctx context.Context) error {
	next, ok, err := s.d.Services.NextExpiry(ctx)
	if err != nil || !ok || s.d.Now().Before(next) {
		return err
	}
	_, err = s.d.Services.DisableExpired(ctx)
	return err
}

// authBase is the base of the forwardAuth addresses.
func (s *Service) authBase(adminDomain string) string { return s.d.Panel.ForwardAuth(adminDomain) }

// panelURL is the admin router's upstream.
func (s *Service) panelURL() string { return s.d.Panel.Internal() }

// Snapshot reads the panel's state for Build. tls is the entrypoint map
// from the first source that answered (nil: heuristic only).
func (s *Service) Snapshot(ctx context.Context, tls map[string]bool) (Snapshot, error) {
	rows, err := s.d.Services.ListEnabled(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	return s.snapshotOf(ctx, rows, tls)
}

func (s *Service) snapshotOf(ctx context.Context, rows []store.Service, tls map[string]bool) (Snapshot, error) {
	snap, doms, err := s.globals(ctx, tls)
	if err != nil {
		return Snapshot{}, err
	}
	isProtected, err := s.guarded(ctx, nil)
	if err != nil {
		return Snapshot{}, err
	}
	for _, r := range rows {
		snap.Services = append(snap.Services, specOf(r, services.FQDNs(r), doms.spec, isProtected))
	}
	return snap, nil
}

// guarded asks Deps.Guarded which services need forward-auth (ids: see
// Deps.Guarded).
func (s *Service) guarded(ctx context.Context, ids []string) (func(string) bool, error) {
	if s.d.Guarded == nil {
		return func(string) bool { return false }, nil
	}
	isProtected, err := s.d.Guarded(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("list guarded services: %w", err)
	}
	return isProtected, nil
}

// domainIndex finds the domains of a snapshot by id: the spec Build reads
// and the row services.FQDNs resolves a service's host names against.
type domainIndex struct {
	spec map[string]*DomainSpec
	row  map[string]*store.Domain
}

// globals reads everything of a snapshot but the services and their
// protections: settings, domains (indexed by id) and administrators.
func (s *Service) globals(ctx context.Context, tls map[string]bool) (Snapshot, domainIndex, error) {
	g, err := s.d.Settings.Get(ctx)
	if err != nil {
		return Snapshot{}, domainIndex{}, fmt.Errorf("read settings: %w", err)
	}
	db := s.d.DB.WithContext(ctx)
	var doms []store.Domain
	if err := db.Order("domain, id").Find(&doms).Error; err != nil {
		return Snapshot{}, domainIndex{}, fmt.Errorf("list domains: %w", err)
	}
	snap := Snapshot{
		DefaultEntrypoints: g.DefaultEntrypoints, GlobalMiddlewares: g.GlobalMiddlewares,
		EntrypointTLS: tls, Managed: s.d.Managed, AdminDomain: g.AdminDomain, PortalDomain: s.d.Settings.PortalHost(ctx),
		AuthBase: s.authBase(g.AdminDomain), PanelURL: s.panelURL(), PanelService: s.d.PanelService, PanelMiddlewares: s.d.PanelMiddlewares, TrustForwardHeader: s.d.TrustForwardHeader,
	}
	if s.d.Managed {
		var n int64
		if err := db.Model(&store.Person{}).Where("disabled_at IS NULL AND panel_role <> ?", store.PanelRoleNone).Count(&n).Error; err != nil {
			return Snapshot{}, domainIndex{}, fmt.Errorf("count administrators: %w", err)
		}
		snap.HasAdmin = n > 0
	}
	idx := domainIndex{spec: make(map[string]*DomainSpec, len(doms)), row: make(map[string]*store.Domain, len(doms))}
	for _, d := range doms {
		snap.Domains = append(snap.Domains, domainSpec(d))
	}
	for i := range snap.Domains {
		idx.spec[snap.Domains[i].ID] = &snap.Domains[i]
		idx.row[doms[i].ID] = &doms[i]
	}
	return snap, idx, nil
}

// specOf joins one service row (hosts: its FQDNs) with its domain and protection.
func specOf(r store.Service, hosts []string, byID map[string]*DomainSpec, isProtected func(string) bool) ServiceSpec {
	sp := ServiceSpec{
		ID: r.ID, Name: r.Name, Hosts: hosts, Targets: r.Targets.V,
		PassHostHeader: r.PassHostHeader, InsecureSkipVerify: r.InsecureSkipVerify,
		Entrypoints: r.Entrypoints.V, Rules: r.Rules.V, Middlewares: r.Middlewares.V,
		Headers: r.Headers.V, Protected: isProtected(r.ID),
		HTTPSRedirect: r.HTTPSRedirect, HSTS: r.HSTS.V, Kind: r.Kind, Redirect: r.Redirect.V,
		Maintenance: r.Maintenance, LoadBalancer: r.LoadBalancer.V, TCP: r.TCP.V,
	}
	if r.DomainID != nil {
		sp.Domain = byID[*r.DomainID]
	}
	return sp
}

func domainSpec(d store.Domain) DomainSpec {
	return DomainSpec{ID: d.ID, Domain: d.Domain, CertResolver: d.CertResolver, Wildcard: d.Wildcard, CertConfigs: d.CertConfigs.V,
		HTTPSRedirect: d.HTTPSRedirect, HSTS: d.HSTS.V}
}

// CurrentETag returns the ETag of the configuration a poll would get now,
// building it if a change made the cached one stale.
func (s *Service) CurrentETag(ctx context.Context) (string, error) {
	c, err := s.cachedConfig(ctx)
	if err != nil {
		return "", err
	}
	return c.etag, nil
}

// RouterOwners maps every emitted service router (name without "@http") to
// the panel service id that owns it. Certificate-trigger and admin routers
// belong to no service and are not listed (their names start with gh-cert-
// and gh-admin-).
// It is served from the same cache as the configuration.
func (s *Service) RouterOwners(ctx context.Context) (map[string]string, error) {
	c, err := s.cachedConfig(ctx)
	if err != nil {
		return nil, err
	}
	return maps.Clone(c.owners()), nil
}

// StreamRouterOwner returns the panel service id owning the tcp or udp
// router name (without "@http"; proto "tcp" or "udp"), or "".
func (s *Service) StreamRouterOwner(ctx context.Context) (func(proto, name string) string, error) {
	c, err := s.cachedConfig(ctx)
	if err != nil {
		return nil, err
	}
	m := c.stream
	return func(proto, name string) string { return m[proto+"/"+name] }, nil
}

// streamOwners is the stream map of cached from a whole build's owners.
func streamOwners(cfg Config) map[string]string {
	m := make(map[string]string, len(cfg.tcpOwners.routers)+len(cfg.udpOwners.routers))
	for n, id := range cfg.tcpOwners.routers {
		m["tcp/"+n] = id
	}
	for n, id := range cfg.udpOwners.routers {
		m["udp/"+n] = id
	}
	return m
}

// RouterOwner returns what RouterOwners maps, as a lookup of one router
// name (without "@http"; "" for a router no service owns). It answers from
// the cached configuration's routers, sorted by name, without building a
// map of them: the health round asks every 10 s, and at 10,000 services
// the map is 1.3 MB.
func (s *Service) RouterOwner(ctx context.Context) (func(name string) string, error) {
	c, err := s.cachedConfig(ctx)
	if err != nil {
		return nil, err
	}
	if c.routers != nil || c.routerEntries == nil {
		m := c.owners()
		return func(name string) string { return m[name] }, nil
	}
	rs := c.routerEntries
	return func(name string) string {
		i, ok := slices.BinarySearchFunc(rs, name, func(e *entry, n string) int { return strings.Compare(e.name, n) })
		if !ok {
			return ""
		}
		return rs[i].owner()
	}, nil
}
