// Package domains stores base domains: the certificate resolver, the wildcard
// flag, extra certificate configs, and the single default domain.
package domains

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/hostname"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/traefikname"
)

// Request is the body of POST and PUT /api/domains.
type Request struct {
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	CertResolver string             `json:"certResolver"`
	Wildcard     bool               `json:"wildcard"`
	IsDefault    bool               `json:"isDefault"`
	CertConfigs  []store.CertConfig `json:"certConfigs"`
}

// Response is a domain as the API shows it.
type Response struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	CertResolver string             `json:"certResolver"`
	Wildcard     bool               `json:"wildcard"`
	IsDefault    bool               `json:"isDefault"`
	CertConfigs  []store.CertConfig `json:"certConfigs"`
	CreatedAt    time.Time          `json:"createdAt"`
	UpdatedAt    time.Time          `json:"updatedAt"`
}

func toResponse(d store.Domain) Response {
	cc := d.CertConfigs.V
	if cc == nil {
		cc = []store.CertConfig{}
	}
	return Response{ID: d.ID, Name: d.Name, Domain: d.Domain, CertResolver: d.CertResolver,
		Wildcard: d.Wildcard, IsDefault: d.IsDefault, CertConfigs: cc, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}

func (r *Request) normalize() error {
	var c apperr.Collector
	r.Name = strings.TrimSpace(r.Name)
	r.Domain = hostname.Normalize(r.Domain)
	if err := hostname.Validate(r.Domain, false); err != nil {
		c.Add("domain", "%v", err)
	}
	if r.Name == "" {
		r.Name = r.Domain
	}
	if len([]rune(r.Name)) > 100 {
		c.Add("name", "must be at most 100 characters")
	}
	r.CertResolver = strings.TrimSpace(r.CertResolver)
	if r.CertResolver != "" && !traefikname.Resolver(r.CertResolver) {
		c.Add("certResolver", "%q is not a valid resolver name", r.CertResolver)
	}
	if r.Wildcard && r.CertResolver == "" {
		c.Add("certResolver", "is required for a wildcard certificate (it needs a DNS challenge resolver)")
	}
	if len(r.CertConfigs) > 20 {
		c.Add("certConfigs", "must have at most 20 items")
	}
	if r.CertConfigs == nil {
		r.CertConfigs = []store.CertConfig{}
	}
	for i := range r.CertConfigs {
		cc := &r.CertConfigs[i]
		f := fmt.Sprintf("certConfigs[%d]", i)
		cc.Main = hostname.Normalize(cc.Main)
		if err := hostname.Validate(cc.Main, true); err != nil {
			c.Add(f+".main", "%v", err)
		}
		if cc.SANs == nil {
			cc.SANs = []string{}
		}
		for j := range cc.SANs {
			cc.SANs[j] = hostname.Normalize(cc.SANs[j])
			if err := hostname.Validate(cc.SANs[j], true); err != nil {
				c.Add(fmt.Sprintf("%s.sans[%d]", f, j), "%v", err)
			}
		}
		cc.Resolver = strings.TrimSpace(cc.Resolver)
		if cc.Resolver == "" {
			cc.Resolver = r.CertResolver
		}
		if cc.Resolver == "" {
			c.Add(f+".resolver", "is required (or set the domain's certResolver)")
		} else if !traefikname.Resolver(cc.Resolver) {
			c.Add(f+".resolver", "%q is not a valid resolver name", cc.Resolver)
		}
	}
	return c.Err()
}

// Service manages domains.
type Service struct {
	db  *gorm.DB
	bus *change.Bus
	now func() time.Time
}

// NewService returns the domains service.
func NewService(db *gorm.DB, bus *change.Bus, now func() time.Time) *Service {
	return &Service{db: db, bus: bus, now: now}
}

// List returns every domain, sorted by domain name.
func (s *Service) List(ctx context.Context) ([]Response, error) {
	var rows []store.Domain
	if err := s.db.WithContext(ctx).Order("domain").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list domains: %w", err)
	}
	out := make([]Response, len(rows))
	for i, r := range rows {
		out[i] = toResponse(r)
	}
	return out, nil
}

// Get returns one domain.
func (s *Service) Get(ctx context.Context, id string) (Response, error) {
	d, err := load(s.db.WithContext(ctx), id)
	return toResponse(d), err
}

func load(tx *gorm.DB, id string) (store.Domain, error) {
	var d store.Domain
	err := tx.Where("id = ?", id).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return d, apperr.NotFound("domain")
	}
	if err != nil {
		return d, fmt.Errorf("load domain %s: %w", id, err)
	}
	return d, nil
}

// Create stores a new domain.
func (s *Service) Create(ctx context.Context, req Request) (Response, error) {
	if err := req.normalize(); err != nil {
		return Response{}, err
	}
	now := s.now()
	d := store.Domain{ID: store.NewID(), CreatedAt: now}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return s.save(tx, &d, req, now, true)
	})
	if err != nil {
		return Response{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Domain, Kind: change.Created, ID: d.ID})
	return toResponse(d), nil
}

// Update replaces a domain; when its name changes, every service host derived
// from it is renamed in the same transaction (and checked for conflicts).
func (s *Service) Update(ctx context.Context, id string, req Request) (Response, error) {
	if err := req.normalize(); err != nil {
		return Response{}, err
	}
	var d store.Domain
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if d, err = load(tx, id); err != nil {
			return err
		}
		renamed := d.Domain != req.Domain
		if err := s.save(tx, &d, req, s.now(), false); err != nil {
			return err
		}
		if !renamed {
			return nil
		}
		var svcs []store.Service
		if err := tx.Where("domain_id = ?", id).Find(&svcs).Error; err != nil {
			return fmt.Errorf("load services of domain %s: %w", id, err)
		}
		for _, sv := range svcs {
			sv.Domain = &d
			if err := services.SyncHostnames(tx, sv); err != nil {
				if e, ok := apperr.As(err); ok && e.Code == apperr.CodeConflict {
					return apperr.Conflict("domain", "renaming would clash with another service: %s", e.Message)
				}
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Domain, Kind: change.Updated, ID: id})
	return toResponse(d), nil
}

func (s *Service) save(tx *gorm.DB, d *store.Domain, req Request, now time.Time, create bool) error {
	if req.IsDefault {
		if err := tx.Model(&store.Domain{}).Where("is_default = ? AND id <> ?", true, d.ID).
			Update("is_default", false).Error; err != nil {
			return fmt.Errorf("clear default domain: %w", err)
		}
	}
	d.Name, d.Domain, d.CertResolver = req.Name, req.Domain, req.CertResolver
	d.Wildcard, d.IsDefault = req.Wildcard, req.IsDefault
	d.CertConfigs = store.NewJSON(req.CertConfigs)
	d.UpdatedAt = now
	var err error
	if create {
		err = tx.Create(d).Error
	} else {
		err = tx.Select("*").Omit("created_at").Save(d).Error
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return apperr.Conflict("domain", "domain %s already exists", req.Domain)
	}
	if err != nil {
		return fmt.Errorf("save domain %s: %w", req.Domain, err)
	}
	return nil
}

// Delete removes a domain unless services use it.
func (s *Service) Delete(ctx context.Context, id string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := load(tx, id); err != nil {
			return err
		}
		var names []string
		if err := tx.Model(&store.Service{}).Where("domain_id = ?", id).Order("name").Limit(5).Pluck("name", &names).Error; err != nil {
			return fmt.Errorf("check domain use: %w", err)
		}
		if len(names) > 0 {
			return apperr.Conflict("", "domain is used by services: %s; move or delete them first", strings.Join(names, ", "))
		}
		return tx.Where("id = ?", id).Delete(&store.Domain{}).Error
	})
	if err != nil {
		return err
	}
	s.bus.Publish(change.Event{Entity: change.Domain, Kind: change.Deleted, ID: id})
	return nil
}

// Handler serves /api/domains.
type Handler struct{ svc *Service }

// NewHandler returns the domains handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(g *echo.Group) {
	g.GET("/domains", h.list)
	g.POST("/domains", h.create)
	g.GET("/domains/:id", h.get)
	g.PUT("/domains/:id", h.update)
	g.DELETE("/domains/:id", h.delete)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}

func (h *Handler) get(c echo.Context) error {
	d, err := h.svc.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (h *Handler) create(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, d)
}

func (h *Handler) update(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.svc.Update(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
