package app

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/provider"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
)

// portalSessions hands forward-auth the portal sessions package admin
// owns (forwardauth.PortalSessions).
type portalSessions struct{ a *admin.Service }

func (p portalSessions) PortalSignIn(ctx context.Context, r *http.Request) (forwardauth.PortalSignIn, bool, error) {
	s, ok, err := p.a.PortalSignIn(ctx, r)
	if !ok || err != nil {
		return forwardauth.PortalSignIn{}, false, err
	}
	return forwardauth.PortalSignIn{PersonID: s.PersonID, SessionID: s.SessionID, SecondFactor: s.SecondFactor, At: s.ProvedAt}, true, nil
}

// portalPolicy reads the portal sessions' lifetimes from the portal
// settings.
func portalPolicy(s *settings.Service) func(ctx context.Context) (admin.PortalPolicy, error) {
	return func(ctx context.Context) (admin.PortalPolicy, error) {
		p, err := s.Portal(ctx)
		if err != nil {
			return admin.PortalPolicy{}, err
		}
		return admin.PortalPolicy{
			Idle:     time.Duration(p.IdleTimeoutSeconds) * time.Second,
			Remember: time.Duration(p.RememberMeSeconds) * time.Second,
			Absolute: time.Duration(p.AbsoluteLifetimeSeconds) * time.Second,
		}, nil
	}
}

// oidcPortal hands the OpenID provider the portal sessions package admin
// owns (provider.Portal).
type oidcPortal struct{ a *admin.Service }

func (p oidcPortal) PortalSignIn(ctx context.Context, r *http.Request) (provider.Session, bool, error) {
	s, ok, err := p.a.PortalSignIn(ctx, r)
	if !ok || err != nil {
		return provider.Session{}, false, err
	}
	return provider.Session{PersonID: s.PersonID, SessionID: s.SessionID, SecondFactor: s.SecondFactor, ProvedAt: s.ProvedAt}, true, nil
}

func (p oidcPortal) HasSecondFactor(ctx context.Context, personID string) (bool, error) {
	return p.a.HasSecondFactor(ctx, personID)
}

// portalEnders tells every owner of sessions opened from portal sessions
// that some ended: forward-auth's service sessions, the apps' tokens.
type portalEnders []admin.PortalSessionEnder

func (e portalEnders) EndPortalSessions(ctx context.Context, ids ...string) error {
	var errs []error
	for _, x := range e {
		errs = append(errs, x.EndPortalSessions(ctx, ids...))
	}
	return errors.Join(errs...)
}
