package forwardauth

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Helpers other features are wired to (in app) instead of reading or
// writing access's tables themselves. They take the caller's database
// handle so they join its transaction.

// EndServiceSessions deletes the forward-auth sessions of the given services
// inside tx. The cached copies go when the change bus reports the service
// disabled or deleted.
func EndServiceSessions(tx *gorm.DB, serviceIDs ...string) error {
	if len(serviceIDs) == 0 {
		return nil
	}
	if err := tx.Where("service_id IN ?", serviceIDs).Delete(&store.Session{}).Error; err != nil {
		return fmt.Errorf("end sessions of services %v: %w", serviceIDs, err)
	}
	return nil
}

// ServiceProtections maps service id to the protections enabled on it: one
// service, or every service when serviceID is "".
func ServiceProtections(ctx context.Context, db *gorm.DB, serviceID string) (map[string]services.Protection, error) {
	if serviceID == "" {
		return Protections(ctx, db, nil)
	}
	return Protections(ctx, db, []string{serviceID})
}

// Protections is ServiceProtections for the services in ids, or for every
// service when ids is nil.
func Protections(ctx context.Context, db *gorm.DB, ids []string) (map[string]services.Protection, error) {
	var rows []store.SecurityConfig
	q := db.WithContext(ctx).Where("enabled = ?", true)
	if ids != nil {
		q = q.Where("service_id IN ?", ids)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load protections: %w", err)
	}
	out := map[string]services.Protection{}
	for _, r := range rows {
		p := out[r.ServiceID]
		switch r.Type {
		case store.SecurityBasicAuth:
			p.BasicAuth = true
		case store.SecuritySSO:
			p.SSO = true
		case store.SecuritySharedLinks:
			p.SharedLinks = true
		case store.SecurityTokens:
			p.Tokens = true
		case store.SecurityEmailCode:
			p.EmailCode = true
		case store.SecurityPeople:
			p.People = true
		}
		out[r.ServiceID] = p
	}
	return out, nil
}
