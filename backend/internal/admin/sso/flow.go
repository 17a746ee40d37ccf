package sso

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
)

// stateCookie binds a sign-in to the browser that started it (login CSRF).
const stateCookie = "gatehouse_admin_sso"

// Codes the login page shows after /login?error=. Only these fixed words
// travel in the URL; the page words them.
const (
	errUnavailable = "sso_unavailable" // not set up, or the provider could not be reached
	errExpired     = "sso_expired"     // state missing, tampered with or too old
	errRefused     = "sso_refused"     // the provider answered with an error
	errFailed      = "sso_failed"      // code exchange or ID token check failed
	errNotAllowed  = "sso_not_allowed" // no rule matches, or no administrator may be used
	errDisabled    = "sso_disabled"    // the administrator is disabled
	errRateLimited = "sso_rate_limited"
)

// back sends the browser to the login page with an error code. The target
// is a fixed path on the panel, never one the request names.
func back(c echo.Context, code string) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, "/login?error="+url.QueryEscape(code))
}

// client is the provider's client for the panel's callback; false when the
// provider is off or cannot be reached (logged: an administrator must see why).
func (s *Service) client(ctx context.Context) (*oidc.Flow, bool) {
	client, err := s.provider.RelyingParty(ctx, CallbackPath)
	if err != nil {
		if !errors.Is(err, oidc.ErrNotConfigured) {
			s.log.Warn("panel single sign-on: provider unavailable", "err", err)
		}
		return nil, false
	}
	return client, true
}

// start is GET /api/admin/sso/start: it sends the browser to the provider
// with state, nonce and a PKCE challenge.
func (s *Service) start(c echo.Context) error {
	ctx := c.Request().Context()
	if blocked, _ := s.limiter.Blocked(addrKey(c)); blocked {
		return back(c, errRateLimited)
	}
	in, err := s.SignIn(ctx)
	if err != nil {
		return err
	}
	if !in.SSO {
		return back(c, errUnavailable)
	}
	client, ok := s.client(ctx)
	if !ok {
		return back(c, errUnavailable)
	}
	state, err := bearer.New()
	if err != nil {
		return err
	}
	nonce, err := bearer.New()
	if err != nil {
		return err
	}
	a := attempt{Nonce: nonce, Verifier: oauth2.GenerateVerifier()}
	// Nothing shared is written: the attempt travels sealed in the cookie,
	// so no flood of starts can crowd out anyone's sign-in.
	val, err := s.provider.SignIns().Seal(oidc.FlowAdmin, state, a)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the browser used https; a plain-HTTP panel needs the cookie too
		Name: stateCookie, Value: val, Path: "/api/admin/sso", MaxAge: int(oidc.SignInTTL / time.Second),
		// Lax: the provider's redirect back is a cross-site top-level GET.
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https",
	})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, client.AuthCodeURL(state, a.Nonce, a.Verifier))
}

// callback is GET /api/admin/sso/callback: it checks state (against the
// cookie and the pending sign-ins), redeems the code with the PKCE verifier,
// checks the ID token and nonce, picks the role from the rules, signs the
// administrator in and sends the browser to the panel.
func (s *Service) callback(c echo.Context) error {
	ctx := c.Request().Context()
	state := c.QueryParam("state")
	ck, _ := c.Cookie(stateCookie)
	c.SetCookie(&http.Cookie{Name: stateCookie, Value: "", Path: "/api/admin/sso", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode}) //nolint:gosec // clears the cookie: no value to protect
	var a attempt
	if s.provider == nil || ck == nil || !s.provider.SignIns().Open(oidc.FlowAdmin, state, ck.Value, &a) {
		return back(c, errExpired)
	}
	if c.QueryParam("error") != "" {
		return back(c, errRefused)
	}
	if blocked, _ := s.limiter.Blocked(addrKey(c)); blocked {
		return back(c, errRateLimited)
	}
	d, err := s.load(ctx)
	if err != nil {
		return err
	}
	if !d.Enabled {
		return back(c, errUnavailable)
	}
	client, ok := s.client(ctx)
	if !ok {
		return back(c, errUnavailable)
	}
	id, err := client.Redeem(ctx, c.QueryParam("code"), a.Verifier, a.Nonce)
	if err != nil {
		s.log.Warn("panel single sign-on failed", "err", err)
		s.limiter.Fail(addrKey(c))
		return back(c, errFailed)
	}
	// The provider completed the sign-in: only now is anything written.
	if first, err := s.provider.SignIns().Use(ctx, oidc.FlowAdmin, state); err != nil || !first {
		if err != nil {
			return err
		}
		return back(c, errExpired)
	}
	// An address the provider has not verified could be anyone's: it
	// neither matches email rules nor links an administrator.
	email := ""
	if id.EmailVerified {
		email = id.Email
	}
	role, ok := roleFor(d.Rules, id.Username, email, id.Groups)
	if !ok {
		s.log.Info("panel single sign-on refused: no rule matches", "subject", id.Subject, "username", id.Username)
		s.limiter.Fail(addrKey(c))
		return back(c, errNotAllowed)
	}
	u, tok, err := s.admins.SignInExternal(ctx, admin.External{
		Issuer: id.Issuer, Subject: id.Subject, Username: id.Username, Email: email,
		Role: role, Create: d.CreateAdmins,
	}, admin.Client{Address: c.RealIP(), UserAgent: c.Request().UserAgent()})
	switch {
	case errors.Is(err, admin.ErrExternalUnknown):
		s.log.Info("panel single sign-on refused: no administrator matches", "subject", id.Subject, "username", id.Username)
		s.limiter.Fail(addrKey(c))
		return back(c, errNotAllowed)
	case errors.Is(err, admin.ErrExternalDisabled):
		return back(c, errDisabled)
	case err != nil:
		return err
	}
	s.log.Info("administrator signed in with single sign-on", "username", u.Username, "role", u.Role)
	admin.SetSessionCookie(c, tok)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, "/")
}

func addrKey(c echo.Context) string { return "ip:" + c.RealIP() }

// attempt is one sign-in in progress, sealed into the browser's cookie
// (oidc.SignIns) under its OAuth state.
type attempt struct {
	Nonce    string `json:"nonce"`
	Verifier string `json:"verifier"`
}
