// Package sso lets administrators sign in to the panel with the OpenID
// provider configured for services: the settings (who may sign in, with
// which role; whether passwords still work) and the sign-in flow, which
// ends in an ordinary admin session.
package sso

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Paths of the sign-in flow. CallbackPath is the redirect URL registered at
// the provider, after the panel's public URL.
const (
	StartPath    = "/api/admin/sso/start"
	CallbackPath = "/api/admin/sso/callback"
)

// Provider is the OpenID provider the services' single sign-on configures
// (forwardauth.Service, which stores its settings).
type Provider interface {
	// RelyingParty answers oidc.ErrNotConfigured while the provider is off.
	RelyingParty(ctx context.Context, callbackPath string) (*oidc.Flow, error)
	// PortalRelyingParty is the same after the portal's address.
	PortalRelyingParty(ctx context.Context, callbackPath string) (*oidc.Flow, error)
	SSOConfigured(ctx context.Context) (bool, error)
	// SignIns: sign-ins in progress travel sealed in the browser's cookie,
	// and a completed one is recorded so its cookie works once.
	SignIns() *oidc.SignIns
}

// Admins signs an identity in as an administrator (admin.Service).
type Admins interface {
	SignInExternal(ctx context.Context, ext admin.External, client admin.Client) (admin.User, string, error)
	SignInPortalExternal(ctx context.Context, ext admin.PortalExternal, client admin.Client) (admin.PortalExternalResult, error)
	SetPortalSessionCookie(c echo.Context, token string, remember bool)
}

// MaxFailures refused SSO sign-ins from one address within FailureWindow
// block that address's next ones until the window moves on.
const (
	MaxFailures   = 20
	FailureWindow = 15 * time.Minute
)

// Service holds the settings and runs the sign-in flow.
type Service struct {
	db       *gorm.DB
	now      func() time.Time
	log      *slog.Logger
	provider Provider
	admins   Admins
	panelURL func(ctx context.Context) (string, error)
	limiter  *ratelimit.Limiter
	portal   func(ctx context.Context) (PortalOptions, error)
	people   PortalPeople
}

// Deps are the Service's dependencies. Provider and Admins may be nil
// for the settings alone (the command line).
type Deps struct {
	DB       *gorm.DB
	Now      func() time.Time
	Logger   *slog.Logger
	Provider Provider
	Admins   Admins
	PanelURL func(ctx context.Context) (string, error)
	// Portal reads the portal's "Sign in with …" settings; nil: never offered.
	Portal func(ctx context.Context) (PortalOptions, error)
	// People hears of the people a portal sign-in changed.
	People PortalPeople
}

// NewService returns the service.
func NewService(o Deps) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.PanelURL == nil {
		o.PanelURL = func(context.Context) (string, error) { return "", nil }
	}
	return &Service{
		db: o.DB, now: o.Now, log: o.Logger, provider: o.Provider, admins: o.Admins, panelURL: o.PanelURL,
		portal: o.Portal, people: o.People,
		limiter: ratelimit.Shared(o.DB, "adminsso", MaxFailures, FailureWindow, o.Now, ratelimit.WithLogger(o.Logger)),
	}
}

func (s *Service) load(ctx context.Context) (doc, error) {
	d := defaults()
	if _, err := store.GetConfig(ctx, s.db, store.KeyAdminSSO, &d); err != nil {
		return doc{}, err
	}
	if d.Rules == nil {
		d.Rules = []Rule{}
	}
	return d, nil
}

func (s *Service) providerConfigured(ctx context.Context) (bool, error) {
	if s.provider == nil {
		return false, nil
	}
	return s.provider.SSOConfigured(ctx)
}

// Get returns the settings.
func (s *Service) Get(ctx context.Context) (Response, error) {
	d, err := s.load(ctx)
	if err != nil {
		return Response{}, err
	}
	ok, err := s.providerConfigured(ctx)
	if err != nil {
		return Response{}, err
	}
	panel, err := s.panelURL(ctx)
	if err != nil {
		return Response{}, err
	}
	out := Response{Enabled: d.Enabled, Rules: d.Rules, CreateAdmins: d.CreateAdmins,
		LocalPasswords: d.LocalPasswords, ProviderConfigured: ok}
	if panel != "" {
		out.RedirectURL = strings.TrimRight(panel, "/") + CallbackPath
	}
	return out, nil
}

// Put validates and stores the settings.
func (s *Service) Put(ctx context.Context, req Request) (Response, error) {
	ok, err := s.providerConfigured(ctx)
	if err != nil {
		return Response{}, err
	}
	d, err := req.normalize(ok)
	if err != nil {
		return Response{}, err
	}
	if err := store.PutConfig(ctx, s.db, store.KeyAdminSSO, d); err != nil {
		return Response{}, fmt.Errorf("store panel sign-in settings: %w", err)
	}
	return s.Get(ctx)
}

// SignIn says how administrators may sign in. SSO counts only while the
// provider is configured too.
func (s *Service) SignIn(ctx context.Context) (SignIn, error) {
	d, err := s.load(ctx)
	if err != nil {
		return SignIn{}, err
	}
	ok := false
	if d.Enabled {
		if ok, err = s.providerConfigured(ctx); err != nil {
			return SignIn{}, err
		}
	}
	return SignIn{SSO: ok, LocalPasswords: d.LocalPasswords}, nil
}

// LocalPasswords reports whether password sign-in is allowed
// (admin.Deps.LocalPasswords).
func (s *Service) LocalPasswords(ctx context.Context) (bool, error) {
	d, err := s.load(ctx)
	return d.LocalPasswords, err
}

// EnableLocalPasswords turns password sign-in back on: the command line's
// way back in when the provider fails.
func (s *Service) EnableLocalPasswords(ctx context.Context) error {
	d, err := s.load(ctx)
	if err != nil {
		return err
	}
	d.LocalPasswords = true
	return store.PutConfig(ctx, s.db, store.KeyAdminSSO, d)
}
