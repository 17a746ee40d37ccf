package app

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/geoip"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
)

// serviceExposures answers the services list who can open each service
// without signing in: the access-rule feature reads its rules, the access
// feature has said which services are protected.
func serviceExposures(ctx context.Context, db *gorm.DB, ids []string, prot map[string]services.Protection) (map[string]string, error) {
	exp, err := access.Exposures(ctx, db, ids, func(id string) bool { return prot[id].Any() })
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(exp))
	for id, e := range exp {
		out[id] = string(e)
	}
	return out, nil
}

// accessRestricts answers the services feature whether access rules
// restrict a service it is asked to turn into a tcp or udp one (it has
// refused protections before asking).
func accessRestricts(ctx context.Context, db *gorm.DB, id string) (bool, error) {
	return access.Restricts(ctx, db, id, false)
}

// guarded answers dynconf which services need the forwardAuth middleware:
// those forward-auth protects, and those whose access rules do not simply
// allow everyone.
func guarded(db *gorm.DB, rules *access.Service) func(ctx context.Context, ids []string) (func(string) bool, error) {
	return func(ctx context.Context, ids []string) (func(string) bool, error) {
		prot, err := forwardauth.Protections(ctx, db, ids)
		if err != nil {
			return nil, err
		}
		return rules.Guard(ctx, func(id string) bool { _, ok := prot[id]; return ok }, ids...)
	}
}

// openGeo opens PANEL_GEOIP_DB. Without one it returns a nil interface (not
// a typed nil), which is how the rule engine knows country rules cannot be
// evaluated.
func openGeo(path string) (rules.Geo, error) {
	if path == "" {
		return nil, nil
	}
	db, err := geoip.Open(path)
	if err != nil {
		return nil, fmt.Errorf("PANEL_GEOIP_DB: %w", err)
	}
	return db, nil
}
