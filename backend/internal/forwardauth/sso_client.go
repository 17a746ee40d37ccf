package forwardauth

import (
	"context"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
)

// RelyingParty is the OpenID provider configured for services, set up for
// another of the panel's sign-in flows (administrators signing in to the
// panel): its redirect URL is the panel's public URL + callbackPath. It
// returns oidc.ErrNotConfigured while the provider is not configured or the
// panel's public URL is unknown.
func (s *Service) RelyingParty(ctx context.Context, callbackPath string) (*oidc.Flow, error) {
	panel, err := s.panelURL(ctx)
	if err != nil {
		return nil, err
	}
	return s.flow(ctx, strings.TrimRight(panel, "/"), callbackPath)
}

// PortalRelyingParty is the OpenID provider set up for the portal's "Sign
// in with …": its redirect URL is the portal's public URL + callbackPath.
// It returns oidc.ErrNotConfigured while the provider is not configured or
// the portal has no address.
func (s *Service) PortalRelyingParty(ctx context.Context, callbackPath string) (*oidc.Flow, error) {
	if s.portalURL == nil {
		return nil, oidc.ErrNotConfigured
	}
	portal, err := s.portalURL(ctx)
	if err != nil {
		return nil, err
	}
	return s.flow(ctx, strings.TrimRight(portal, "/"), callbackPath)
}

// SSOConfigured reports whether the OpenID provider is configured and
// switched on (without contacting it).
func (s *Service) SSOConfigured(ctx context.Context) (bool, error) {
	d, err := s.loadSSO(ctx)
	if err != nil {
		return false, err
	}
	return d.Enabled && d.Issuer != "" && d.ClientID != "", nil
}

// SignIns are the sign-ins in progress of every flow, sealed into the
// browser's cookie with a key derived from the panel's identity.
func (s *Service) SignIns() *oidc.SignIns { return s.signIns }
