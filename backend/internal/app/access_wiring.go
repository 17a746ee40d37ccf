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

// accessForwarder answers for the access service, which is built after the
// rule and token services it compiles into its snapshot. Its methods are
// called only while requests are served, when svc is set.
type accessForwarder struct{ svc *forwardauth.Service }

func (f *accessForwarder) AccessInfo(ctx context.Context, id string) (access.Info, bool, error) {
	return f.svc.AccessInfo(ctx, id)
}

func (f *accessForwarder) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return f.svc.ServiceNames(ctx, ids)
}

func (f *accessForwarder) AcceptsTokens(ctx context.Context, id string) (bool, error) {
	return f.svc.AcceptsTokens(ctx, id)
}

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
