// Package runtime shows what Traefik is actually doing: read-only views of its
// API (routers, services, middlewares, entrypoints, certificates) and of its
// Prometheus metrics, attributed to the panel's services. Every view degrades
// to a 200 answer saying Traefik is not configured or not reachable.
package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ServiceLister walks the panel's enabled services (services.Service).
type ServiceLister interface {
	// EachEnabledOf calls fn with every enabled service, one row at a
	// time, reading only the columns cols (and id and domain_id): the
	// health round runs every few seconds, and holding every decoded row
	// at once would cost 13 MB at 10,000 services each time, decoding
	// every column of each four times what it reads.
	EachEnabledOf(ctx context.Context, cols []string, fn func(store.Service) error) error
}

// panelServiceColumns are the columns a panelService is made of.
var panelServiceColumns = []string{"name", "hostnames", "entrypoints", "middlewares", "targets"}

// DomainLister lists the panel's domains (domains.Service).
type DomainLister interface {
	List(ctx context.Context) ([]domains.Response, error)
}

// SettingsGetter reads the global settings (settings.Service).
type SettingsGetter interface {
	Get(ctx context.Context) (settings.Global, error)
}

// RouterOwners answers which panel service owns a router the panel emits
// (name without @http; "" for none) (dynconf.Service).
type RouterOwners interface {
	RouterOwner(ctx context.Context) (func(name string) string, error)
}

// ManagedResolvers lists the certificate resolvers of the stored
// managed-mode configuration (managed.Service).
type ManagedResolvers interface {
	ResolverNames(ctx context.Context) ([]string, error)
}

// Deps are the runtime views' inputs. Client and Scraper are nil when Traefik's
// API or metrics are not configured; Owners is nil until wired.
type Deps struct {
	Client   *Client
	Scraper  *Scraper
	Services ServiceLister
	Domains  DomainLister
	Settings SettingsGetter
	Owners   RouterOwners
	Managed  ManagedResolvers // nil outside managed mode
	// DB is not read: managed mode's resolvers come from Managed. It stays
	// until the benchmarks that still set it no longer do.
	DB           *gorm.DB
	Now          func() time.Time
	ProbeTimeout time.Duration
}

// Service builds the runtime views.
type Service struct{ d Deps }

// DefaultProbeTimeout bounds one direct TCP probe of a backend.
const DefaultProbeTimeout = time.Second

// NewService returns the runtime views service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.ProbeTimeout <= 0 {
		d.ProbeTimeout = DefaultProbeTimeout
	}
	return &Service{d: d}
}

// Status opens every view: whether Traefik's API is configured, whether it
// answered, and why not.
type Status struct {
	Configured bool   `json:"configured"`
	Reachable  bool   `json:"reachable"`
	Error      string `json:"error"`
}

func (s *Service) status(err error) Status {
	switch {
	case s.d.Client == nil:
		return Status{Error: "Traefik's API is not configured: set PANEL_PROXY_API_URL (for example http://traefik:8080)"}
	case err != nil:
		return Status{Configured: true, Error: err.Error()}
	}
	return Status{Configured: true, Reachable: true}
}

// fetchRaw returns the runtime configuration, or the status explaining why not.
func (s *Service) fetchRaw(ctx context.Context) (*rawData, Status) {
	if s.d.Client == nil {
		return nil, s.status(nil)
	}
	raw, err := s.d.Client.rawData(ctx)
	if err != nil {
		return nil, s.status(err)
	}
	return raw, s.status(nil)
}

// StreamOwners answers which panel service owns a tcp or udp router the
// panel emits (dynconf.Service); optional beside RouterOwners.
type StreamOwners interface {
	StreamRouterOwner(ctx context.Context) (func(proto, name string) string, error)
}

// ownership attributes Traefik's runtime objects to panel services.
type ownership struct {
	routers func(string) string // router name without @http -> service id ("": none)
	// stream: a tcp or udp router's name without @http -> service id.
	stream   func(proto, name string) string
	services map[string]string // qualified Traefik service name -> service id
	known    bool              // RouterOwners answered
}

func (s *Service) ownership(ctx context.Context, raw *rawData) (ownership, error) {
	o := ownership{routers: func(string) string { return "" }, services: map[string]string{},
		stream: func(string, string) string { return "" }}
	if s.d.Owners == nil {
		return o, nil
	}
	m, err := s.d.Owners.RouterOwner(ctx)
	if err != nil {
		return o, fmt.Errorf("router owners: %w", err)
	}
	o.routers, o.known = m, true
	if so, ok := s.d.Owners.(StreamOwners); ok {
		if o.stream, err = so.StreamRouterOwner(ctx); err != nil {
			return o, fmt.Errorf("router owners: %w", err)
		}
	}
	if raw != nil {
		for name, r := range raw.Routers {
			if id := o.router(name, r); id != "" && r.Service != "" {
				o.services[qualify(r.Service, provider(name))] = id
			}
		}
	}
	return o, nil
}

// streamRouter returns the owner of proto's ("tcp" or "udp") routers: the
// panel's own come from its HTTP provider, under the names it emitted.
func (o ownership) streamRouter(proto string) func(string, rawRouter) string {
	return func(name string, _ rawRouter) string {
		if provider(name) != "http" || o.stream == nil {
			return ""
		}
		return o.stream(proto, bareName(name))
	}
}

// router returns the panel service owning router name, or "". Traefik copies
// a router that names no entrypoint onto each TLS entrypoint as "<ep>-<name>",
// so that prefix is looked through as well.
func (o ownership) router(name string, r rawRouter) string {
	if provider(name) != "http" {
		return ""
	}
	n := bareName(name)
	if id := o.routers(n); id != "" {
		return id
	}
	for _, ep := range append(append([]string(nil), r.Using...), r.EntryPoints...) {
		if rest, ok := strings.CutPrefix(n, ep+"-"); ok {
			if id := o.routers(rest); id != "" {
				return id
			}
		}
	}
	return ""
}

// panelService is what the views need to know about one enabled service.
type panelService struct {
	id          string
	name        string
	hosts       []string
	entrypoints []string // empty: the global defaults, or every entrypoint
	middlewares []string
	targets     []store.Target
}

// panelServicesInTraefik lists the enabled panel services and, by panel
// service id, the sorted names of the Traefik services its routers use.
func (s *Service) panelServicesInTraefik(ctx context.Context, raw *rawData) ([]panelService, map[string][]string, error) {
	own, err := s.ownership(ctx, raw)
	if err != nil {
		return nil, nil, err
	}
	panel, err := s.panelServices(ctx)
	if err != nil {
		return nil, nil, err
	}
	byService := map[string][]string{}
	for name, id := range own.services {
		byService[id] = append(byService[id], name)
	}
	for _, names := range byService {
		sort.Strings(names)
	}
	return panel, byService, nil
}

func (s *Service) panelServices(ctx context.Context) ([]panelService, error) {
	ps, _, err := s.panelServicesWithGlobals(ctx)
	return ps, err
}

// panelServicesWithGlobals also returns the global middlewares every
// service's routers carry.
func (s *Service) panelServicesWithGlobals(ctx context.Context) ([]panelService, []string, error) {
	if s.d.Services == nil {
		return nil, nil, nil
	}
	var defaults, globals []string
	if s.d.Settings != nil {
		g, err := s.d.Settings.Get(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("read settings: %w", err)
		}
		defaults, globals = g.DefaultEntrypoints, g.GlobalMiddlewares
	}
	var out []panelService
	err := s.d.Services.EachEnabledOf(ctx, panelServiceColumns, func(r store.Service) error {
		eps := r.Entrypoints.V
		if len(eps) == 0 {
			eps = defaults
		}
		out = append(out, panelService{
			id: r.ID, name: r.Name, hosts: services.FQDNs(r), entrypoints: eps,
			middlewares: r.Middlewares.V, targets: r.Targets.V,
		})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, globals, nil
}
