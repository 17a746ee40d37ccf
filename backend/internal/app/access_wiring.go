package app

import (
	"context"
	"fmt"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	"github.com/gatehouse-proxy/gatehouse/internal/accesspolicy"
	"github.com/gatehouse-proxy/gatehouse/internal/accessrule"
	"github.com/gatehouse-proxy/gatehouse/internal/geoip"
)

// accessForwarder answers for the access service, which is built after the
// rule and token services it compiles into its snapshot. Its methods are
// called only while requests are served, when svc is set.
type accessForwarder struct{ svc *access.Service }

func (f *accessForwarder) AccessInfo(ctx context.Context, id string) (accesspolicy.Info, bool, error) {
	return f.svc.AccessInfo(ctx, id)
}

func (f *accessForwarder) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return f.svc.ServiceNames(ctx, ids)
}

func (f *accessForwarder) AcceptsTokens(ctx context.Context, id string) (bool, error) {
	return f.svc.AcceptsTokens(ctx, id)
}

// openGeo opens PANEL_GEOIP_DB. Without one it returns a nil interface (not
// a typed nil), which is how the rule engine knows country rules cannot be
// evaluated.
func openGeo(path string) (accessrule.Geo, error) {
	if path == "" {
		return nil, nil
	}
	db, err := geoip.Open(path)
	if err != nil {
		return nil, fmt.Errorf("PANEL_GEOIP_DB: %w", err)
	}
	return db, nil
}
