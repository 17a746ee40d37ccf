package forwardauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
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
	oc, _, err := s.oauthConfig(ctx, pol)
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
	val, err := s.SealSignIn(FlowService, state, l)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the panel is on https; a plain-HTTP panel needs the cookie too
		Name: stateCookie, Value: val, Path: "/api/auth/sso", MaxAge: int(SignInTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(pol.panelURL, "https://"),
	})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, oc.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(l.Verifier)))
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

// ErrSSOOff is returned while the OpenID provider is not configured or
// single sign-on is switched off.
var ErrSSOOff = errors.New("single sign-on is not configured")

// oauthConfig discovers the provider and builds the OAuth client.
func (s *Service) oauthConfig(ctx context.Context, pol *policy) (*oauth2.Config, *oidc.Provider, error) {
	return s.oauthClient(ctx, pol.panelURL, contract.SSOCallbackPath)
}

// oauthClient discovers the provider and builds an OAuth client whose
// redirect URL is panelURL + callbackPath.
func (s *Service) oauthClient(ctx context.Context, panelURL, callbackPath string) (*oauth2.Config, *oidc.Provider, error) {
	d, err := s.loadSSO(ctx)
	if err != nil {
		return nil, nil, err
	}
	if !d.Enabled || d.Issuer == "" || d.ClientID == "" || panelURL == "" {
		return nil, nil, ErrSSOOff
	}
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, s.client), 10*time.Second)
	defer cancel()
	prov, err := s.sso.provider(dctx, d.Issuer)
	if err != nil {
		return nil, nil, err
	}
	secret, err := s.sso.clientSecret(d.ClientSecret, s.secrets)
	if err != nil {
		return nil, nil, fmt.Errorf("SSO client secret: %w", err)
	}
	return &oauth2.Config{
		ClientID: d.ClientID, ClientSecret: secret, Endpoint: prov.Endpoint(),
		RedirectURL: panelURL + callbackPath, Scopes: d.Scopes,
	}, prov, nil
}

func (s *Service) providerError(c echo.Context, err error) error {
	if errors.Is(err, ErrSSOOff) {
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
	if ck == nil || !s.OpenSignIn(FlowService, state, ck.Value, &l) {
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
	oc, prov, err := s.oauthConfig(ctx, pol)
	if err != nil {
		return s.providerError(c, err)
	}
	id, err := s.redeemCode(ctx, oc, prov, c.QueryParam("code"), &l)
	if err != nil {
		s.log.Warn("single sign-on failed", "err", err)
		return endUser(c, http.StatusBadRequest, apperr.CodeInvalidRequest, "Sign-in failed",
			"The sign-in could not be completed. Open the service again to retry.")
	}
	// The provider completed the sign-in: only now is anything written.
	if first, err := s.UseSignIn(ctx, FlowService, state); err != nil || !first {
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
	exch, err := s.sso.addExchange(ctx, &exchange{serviceID: sp.id, host: strings.ToLower(u.Hostname()), id: id})
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set(ExchangeParam, exch)
	u.RawQuery = q.Encode()
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, u.String())
}

// redeemCode exchanges the code and validates the ID token.
func (s *Service) redeemCode(ctx context.Context, oc *oauth2.Config, prov *oidc.Provider, code string, l *login) (identity, error) {
	if code == "" {
		return identity{}, errors.New("no code in the callback")
	}
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, s.client), 15*time.Second)
	defer cancel()
	tok, err := oc.Exchange(ctx, code, oauth2.VerifierOption(l.Verifier))
	if err != nil {
		return identity{}, fmt.Errorf("exchange code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return identity{}, errors.New("the provider returned no ID token")
	}
	idt, err := prov.Verifier(&oidc.Config{ClientID: oc.ClientID}).Verify(ctx, raw)
	if err != nil {
		return identity{}, fmt.Errorf("verify ID token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(l.Nonce)) != 1 {
		return identity{}, errors.New("ID token nonce does not match")
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return identity{}, fmt.Errorf("read ID token claims: %w", err)
	}
	d, err := s.loadSSO(ctx)
	if err != nil {
		return identity{}, err
	}
	if _, ok := claims[d.GroupsClaim]; !ok && prov.UserInfoEndpoint() != "" {
		// Many providers put groups only in the userinfo answer.
		if ui, err := prov.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err == nil {
			extra := map[string]any{}
			if ui.Claims(&extra) == nil && (ui.Subject == "" || ui.Subject == idt.Subject) {
				for k, v := range extra {
					if _, ok := claims[k]; !ok {
						claims[k] = v
					}
				}
			}
		}
	}
	str := func(k string) string { v, _ := claims[k].(string); return v }
	id := identity{user: str("preferred_username"), email: str("email"), name: str("name"), groups: groupsOf(claims[d.GroupsClaim]),
		issuer: idt.Issuer, subject: idt.Subject, preferred: str("preferred_username")}
	// Some providers send email_verified as a string.
	switch v := claims["email_verified"].(type) {
	case bool:
		id.emailVerified = v
	case string:
		id.emailVerified = v == "true"
	}
	if id.user == "" {
		id.user = id.verifiedEmail() // an unverified address could be anyone's: never the user's name
	}
	if id.user == "" {
		id.user = idt.Subject
	}
	if id.name == "" {
		id.name = id.user
	}
	return id, nil
}

func groupsOf(v any) []string {
	switch g := v.(type) {
	case string:
		return cleanList(strings.Split(g, ","))
	case []any:
		out := make([]string, 0, len(g))
		for _, x := range g {
			if s, ok := x.(string); ok {
				out = append(out, strings.ReplaceAll(s, ",", " "))
			}
		}
		return cleanList(out)
	}
	return []string{}
}

// redeemExchange ends the sign-in hop on the service's host: it redeems the
// one-time token, opens a session and answers 302 to the clean URL with the
// host-only cookie (Traefik passes non-2xx answers, headers included, to the browser).
func (s *Service) redeemExchange(c echo.Context, f fwdRequest, sp *servicePolicy, now time.Time) error {
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
	if !sp.sso.allows(e.id) {
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
	var sessionToken string
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		sessionToken, err = s.sessions.create(tx, &row)
		return err
	})
	if err != nil {
		return err
	}
	s.sessions.remember(row)
	setCookie(c, f, sessionToken, row.ExpiresAt, now)
	return c.Redirect(redirectStatus(f.method), clean)
}
