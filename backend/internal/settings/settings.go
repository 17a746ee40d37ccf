// Package settings owns the global configuration (/api/config): the admin
// panel domain, default entrypoints, global middlewares and the default
// service lifetime.
package settings

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/hostname"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/traefikname"
)

// Global is the global configuration document.
type Global struct {
	AdminDomain            string   `json:"adminDomain"`
	DefaultEntrypoints     []string `json:"defaultEntrypoints"`
	GlobalMiddlewares      []string `json:"globalMiddlewares"`
	DefaultLifetimeSeconds int64    `json:"defaultLifetimeSeconds"`
}

// Defaults is the configuration before anyone saved one.
func Defaults() Global {
	return Global{DefaultEntrypoints: []string{"websecure"}, GlobalMiddlewares: []string{}}
}

// Validate normalizes g and checks every field.
func (g *Global) Validate() error {
	var c apperr.Collector
	g.AdminDomain = hostname.Normalize(g.AdminDomain)
	if g.AdminDomain != "" {
		if err := hostname.Validate(g.AdminDomain, false); err != nil {
			c.Add("adminDomain", "%v", err)
		}
	}
	if g.DefaultEntrypoints == nil {
		g.DefaultEntrypoints = []string{}
	}
	if g.GlobalMiddlewares == nil {
		g.GlobalMiddlewares = []string{}
	}
	if len(g.DefaultEntrypoints) == 0 {
		c.Add("defaultEntrypoints", "must name at least one entrypoint")
	}
	traefikname.CheckList(&c, "defaultEntrypoints", g.DefaultEntrypoints, traefikname.Entrypoint, "entrypoint")
	traefikname.CheckList(&c, "globalMiddlewares", g.GlobalMiddlewares, traefikname.Middleware, "middleware")
	if g.DefaultLifetimeSeconds < 0 || g.DefaultLifetimeSeconds > 10*365*24*3600 {
		c.Add("defaultLifetimeSeconds", "must be between 0 (never) and 10 years")
	}
	return c.Err()
}

// Service reads and writes the global configuration.
type Service struct {
	db  *gorm.DB
	bus *change.Bus
}

// NewService returns the settings service.
func NewService(db *gorm.DB, bus *change.Bus) *Service { return &Service{db: db, bus: bus} }

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

// Handler serves /api/config.
type Handler struct{ svc *Service }

// NewHandler returns the settings handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(g *echo.Group) {
	g.GET("/config", h.get)
	g.PUT("/config", h.put)
}

func (h *Handler) get(c echo.Context) error {
	g, err := h.svc.Get(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *Handler) put(c echo.Context) error {
	var g Global
	if err := httpx.Bind(c, &g); err != nil {
		return err
	}
	g, err := h.svc.Put(c.Request().Context(), g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}
