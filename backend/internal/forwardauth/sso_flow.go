package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// stateCookie binds a sign-in to the browser that started it (login CSRF).
const stateCookie = "gatehouse_sso_state"

// endUser answers the sign-in flow's errors: these pages are for people.
func endUser(c echo.Context, status int, code apperr.Code, title, msg string) error {
	return refuse(c, true, status, code, page{Title: title, Message: msg})
}

// ssoStart is GET /api/auth/sso/start?service=<id>&rd=<url>: it checks the
// return address against the service's hostnames and sends the browser to
// the OpenID provider with state, nonce and a PKCE challenge.
func (s *Service) ssoStart(c echo.Context) error {
	ctx := c.Request().Context()
	pol, err := s.policy.get(ctx)
	if err != nil {
		return err
	}
	sp := pol.services[c.QueryParam("service")]
	if sp == nil || !sp.live(s.now()) || sp.sso == nil {
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in is not available",
			"This service does not use single sign-on.")
	}
	scheme, err := s.schemes.Scheme(ctx, sp.entrypoints)
	if err != nil {
		return err
	}
	rd, ok := returnURL(c.QueryParam("rd"), sp, scheme)
	if !ok {
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in is not available",
			"The return address is not one of this service's addresses.")
	}
	if blocked, wait := s.limiter.Blocked("ip:" + c.RealIP()); blocked {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return endUser(c, http.StatusTooManyRequests, apperr.CodeRateLimited, "Too many attempts",
			"Too many refused sign-ins from your address. Wait a few minutes and try again.")
	}
	flow, err := s.flow(ctx, pol.panelURL, contract.SSOCallbackPath)
	if err != nil {
		return s.providerError(c, err)
	}
	state, err := bearer.New()
	if err != nil {
		return err
	}
	nonce, err := bearer.New()
	if err != nil {
		return err
	}
	l := &login{ServiceID: sp.id, RD: rd, Nonce: nonce, Verifier: oauth2.GenerateVerifier()}
	// Nothing shared is written: the sign-in travels sealed in the cookie.
	val, err := s.signIns.Seal(oidc.FlowService, state, l)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the panel is on https; a plain-HTTP panel needs the cookie too
		Name: stateCookie, Value: val, Path: "/api/auth/sso", MaxAge: int(oidc.SignInTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(pol.panelURL, "https://"),
	})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, flow.AuthCodeURL(state, nonce, l.Verifier))
}

// maxReturnURL bounds rd: it travels in the sign-in cookie.
const maxReturnURL = 2048

// returnURL accepts rd only when it is a URL on one of the service's hosts,
// and returns it with the scheme the service is served on and that
// scheme's default port. The exchange token travels in this URL: plain http
// would show it to the network, and another port may be anyone's listener
// on the same host. Browsers reach Traefik on ports the panel cannot see
// (published by Docker, forwarded by a router), so other ports are refused
// rather than guessed. An http address of a service served on https is
// upgraded (the token then goes to the https port of the same host); an
// https address of a service served only on plain http is refused.
func returnURL(rd string, sp *servicePolicy, scheme string) (string, bool) {
	if len(rd) > maxReturnURL {
		return "", false
	}
	u, err := url.Parse(rd)
	if err != nil || u.User != nil || u.Host == "" || u.Opaque != "" || !sp.hasHost(u.Host) {
		return "", false
	}
	switch p := u.Port(); {
	case u.Scheme == scheme && (p == "" || p == defaultPort[scheme]):
	case u.Scheme == "http" && scheme == "https":
	default:
		return "", false
	}
	u.Scheme, u.Host = scheme, strings.ToLower(validate.StripPort(u.Host))
	u.Fragment = ""
	return u.String(), true
}

var defaultPort = map[string]string{"http": "80", "https": "443"}

// flow discovers the provider and sets up a sign-in whose redirect URL is
// panelURL + callbackPath; oidc.ErrNotConfigured while single sign-on is off.
func (s *Service) flow(ctx context.Context, panelURL, callbackPath string) (*oidc.Flow, error) {
	d, err := s.loadSSO(ctx)
	if err != nil {
		return nil, err
	}
	if !d.Enabled || d.Issuer == "" || d.ClientID == "" || panelURL == "" {
		return nil, oidc.ErrNotConfigured
	}
	secret, err := s.sso.clientSecret(d.ClientSecret, s.secrets)
	if err != nil {
		return nil, fmt.Errorf("SSO client secret: %w", err)
	}
	return s.rp.Flow(ctx, oidc.Settings{Issuer: d.Issuer, ClientID: d.ClientID, ClientSecret: secret,
		Scopes: d.Scopes, GroupsClaim: d.GroupsClaim}, panelURL+callbackPath)
}

func (s *Service) providerError(c echo.Context, err error) error {
	if errors.Is(err, oidc.ErrNotConfigured) {
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Single sign-on is not set up",
			"Single sign-on is not configured on this Gatehouse. Ask its administrator.")
	}
	s.log.Warn("single sign-on provider unavailable", "err", err)
	return endUser(c, http.StatusBadGateway, apperr.CodeInternal, "Sign-in provider unavailable",
		"The sign-in provider could not be reached. Try again in a moment.")
}

// ssoCallback is GET /api/auth/sso/callback: it redeems the code (PKCE),
// validates the ID token and nonce, checks the service's users and groups,
// and sends the browser back to the service with a one-time exchange token.
func (s *Service) ssoCallback(c echo.Context) error {
	ctx := c.Request().Context()
	state := c.QueryParam("state")
	ck, _ := c.Cookie(stateCookie)
	c.SetCookie(&http.Cookie{Name: stateCookie, Value: "", Path: "/api/auth/sso", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode}) //nolint:gosec // clears the cookie: no value to protect
	var l login
	if ck == nil || !s.signIns.Open(oidc.FlowService, state, ck.Value, &l) {
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in expired",
			"This sign-in was not started in this browser, or it has expired. Open the service again to sign in.")
	}
	if e := c.QueryParam("error"); e != "" {
		return endUser(c, http.StatusForbidden, apperr.CodeForbidden, "Sign-in refused",
			"The sign-in provider refused the sign-in ("+e+").")
	}
	pol, err := s.policy.get(ctx)
	if err != nil {
		return err
	}
	flow, err := s.flow(ctx, pol.panelURL, contract.SSOCallbackPath)
	if err != nil {
		return s.providerError(c, err)
	}
	who, err := flow.Redeem(ctx, c.QueryParam("code"), l.Verifier, l.Nonce)
	if err != nil {
		s.log.Warn("single sign-on failed", "err", err)
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in failed",
			"The sign-in could not be completed. Open the service again to retry.")
	}
	// The provider completed the sign-in: only now is anything written.
	id := identityOf(who)
	if first, err := s.signIns.Use(ctx, oidc.FlowService, state); err != nil || !first {
		if err != nil {
			return err
		}
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in expired",
			"This sign-in was already used. Open the service again to sign in.")
	}
	sp := pol.services[l.ServiceID]
	if sp == nil || !sp.live(s.now()) || sp.sso == nil {
		return endUser(c, http.StatusForbidden, apperr.CodeForbidden, "Not available", "This service is not available.")
	}
	keys := []string{"ip:" + c.RealIP(), "user:" + sp.id + ":" + id.user}
	if blocked, wait := s.limiter.Blocked(keys...); blocked {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return endUser(c, http.StatusTooManyRequests, apperr.CodeRateLimited, "Too many attempts",
			"Too many refused sign-ins. Wait a few minutes and try again.")
	}
	if !sp.sso.allows(id) {
		s.limiter.Fail(keys...)
		s.failures.Fail(ctx, sp.id, sp.name)
		return endUser(c, http.StatusForbidden, apperr.CodeForbidden, "Access denied",
			"You signed in as "+id.user+", who is not allowed to use "+sp.name+".")
	}
	u, _ := url.Parse(l.RD) // validated at start
	exch, err := s.sso.addExchange(ctx, &exchange{serviceID: sp.id, kind: store.SessionSSO, host: strings.ToLower(u.Hostname()), id: id})
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set(ExchangeParam, exch)
	u.RawQuery = q.Encode()
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, u.String())
}

// redeemExchange ends the sign-in hop on the service's host: it redeems the
// one-time token, opens a session and answers 302 to the clean URL with the
// host-only cookie (Traefik passes non-2xx answers, headers included, to the browser).
func (s *Service) redeemExchange(c echo.Context, f fwdRequest, sp *servicePolicy, pol *policy, now time.Time) error {
	clean := f.proto + "://" + f.host + withoutParams(f.uri)
	ctx := c.Request().Context()
	e, err := s.sso.redeem(ctx, f.exchToken)
	if err != nil {
		return err
	}
	if e == nil || e.serviceID != sp.id || e.host != strings.ToLower(validate.StripPort(f.host)) {
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign-in link expired", Message: "This sign-in link has expired or was already used.",
			LinkURL: clean, LinkText: "Sign in again"})
	}
	if e.kind == store.SessionEmailCode {
		return s.openEmailSession(c, f, sp, e, now, clean)
	}
	if e.kind == store.SessionPeople {
		return s.openPeopleSession(c, f, sp, pol, e, now, clean)
	}
	if sp.sso == nil || !sp.sso.allows(e.id) {
		return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title: "Access denied", Message: "You signed in as " + e.id.user + ", who is not allowed to use " + sp.name + "."})
	}
	d, err := s.loadSSO(ctx)
	if err != nil {
		return err
	}
	row := store.Session{
		ServiceID: sp.id, Kind: store.SessionSSO, Subject: e.id.user, Email: e.id.verifiedEmail(), DisplayName: e.id.name,
		Groups:    store.NewJSON(e.id.groups),
		SSOIssuer: e.id.issuer, SSOSubject: e.id.subject, SSOUsername: e.id.preferred,
		ExpiresAt: capExpiry(now.Add(time.Duration(d.SessionSeconds)*time.Second), sp.expiresAt),
	}
	return s.openSession(c, f, &row, now, clean)
}

// openSession stores row, the session an exchange token opens on the
// service's host (single sign-on, e-mail code, people), sets its cookie and
// sends the browser on to clean, the address it asked for.
func (s *Service) openSession(c echo.Context, f fwdRequest, row *store.Session, now time.Time, clean string) error {
	var tok string
	err := s.db.WithContext(c.Request().Context()).Transaction(func(tx *gorm.DB) error {
		var err error
		tok, err = s.sessions.create(tx, row)
		return err
	})
	if err != nil {
		return err
	}
	s.sessions.remember(*row)
	setCookie(c, f, tok, row.ExpiresAt, now)
	return c.Redirect(redirectStatus(f.method), clean)
}
