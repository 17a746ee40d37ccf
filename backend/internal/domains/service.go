// Package domains stores base domains: the certificate resolver, the wildcard
// flag, extra certificate configs, and the single default domain.
package domains

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

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
	d.HTTPSRedirect, d.HSTS = req.HTTPS.Redirect, store.NewJSON(req.HTTPS.HSTS)
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
		var total int64
		if err := tx.Model(&store.Service{}).Where("domain_id = ?", id).Count(&total).Error; err != nil {
			return fmt.Errorf("check domain use: %w", err)
		}
		if total > 0 {
			var names []string
			if err := tx.Model(&store.Service{}).Where("domain_id = ?", id).Order("name").Limit(5).Pluck("name", &names).Error; err != nil {
				return fmt.Errorf("list services of domain: %w", err)
			}
			return apperr.Conflict("", "domain is used by services: %s; move or delete them first", joinNames(names, int(total)))
		}
		return tx.Where("id = ?", id).Delete(&store.Domain{}).Error
	})
	if err != nil {
		return err
	}
	s.bus.Publish(change.Event{Entity: change.Domain, Kind: change.Deleted, ID: id})
	return nil
}
