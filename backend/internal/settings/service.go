// Package settings owns the global configuration (/api/config): the admin
// panel domain, default entrypoints, global middlewares and the default
// service lifetime.
package settings

import (
	"context"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Service reads and writes the global configuration.
type Service struct {
	db     *gorm.DB
	bus    *change.Bus
	portal portalCache
}

// Deps are the Service's collaborators.
type Deps struct {
	DB  *gorm.DB
	Bus *change.Bus
}

// NewService returns the settings service.
func NewService(d Deps) *Service {
	s := &Service{db: d.DB, bus: d.Bus}
	// Another replica's change (or this one's) drops the cached portal
	// settings.
	if d.Bus != nil {
		d.Bus.Subscribe(func(e change.Event) {
			if e.Entity == change.Settings || e.Entity == change.All {
				s.portal.v.Store(nil)
			}
		})
	}
	return s
}

// Get returns the stored configuration, or the defaults.
func (s *Service) Get(ctx context.Context) (Global, error) {
	g := Defaults()
	if _, err := store.GetConfig(ctx, s.db, store.KeyGlobalConfig, &g); err != nil {
		return Global{}, err
	}
	return g, nil
}

// Put validates and stores g.
func (s *Service) Put(ctx context.Context, g Global) (Global, error) {
	if err := g.Validate(); err != nil {
		return Global{}, err
	}
	if err := store.PutConfig(ctx, s.db, store.KeyGlobalConfig, g); err != nil {
		return Global{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Settings, Kind: change.Updated})
	return g, nil
}

// SeedAdminDomain sets the admin domain from PANEL_ADMIN_DOMAIN when none is stored yet.
func (s *Service) SeedAdminDomain(ctx context.Context, domain string) error {
	if domain == "" {
		return nil
	}
	g, err := s.Get(ctx)
	if err != nil || g.AdminDomain != "" {
		return err
	}
	g.AdminDomain = domain
	_, err = s.Put(ctx, g)
	return err
}
