package sso

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
)

// The portal's "Sign in with …": the same relying party as the panel's
// sign-in (state, nonce and PKCE, the attempt sealed in a cookie, each
// state used once), on the portal's host and with the portal's redirect
// URL, ending in an ordinary portal session.

// Paths of the portal's sign-in with the provider. PortalCallbackPath,
// after the portal's address, is the redirect URL to register at the
// provider.
const (
	PortalStartPath    = "/api/portal/sso/start"
	PortalCallbackPath = "/api/portal/sso/callback"
)

// portalCookie carries the portal sign-in in progress; its path keeps it
// off every other request.
const portalCookie = "gatehouse_portal_sso"

// PortalOptions are the portal's settings this flow follows.
type PortalOptions struct {
	// Enabled: the portal offers "Sign in with …".
	Enabled bool
	// CreatePeople makes a person at the first sign-in of an identity
	// that links to no one.
	CreatePeople bool
	// URL is the portal's public address (scheme, host, port): rd must be
	// on it.
	URL string
}

// PortalPeople is the directory's side of a portal sign-in (people.Service).
type PortalPeople interface {
	// PersonChanged announces a person whose link or groups changed.
	PersonChanged(id string)
}

// portalAttempt is one portal sign-in in progress, sealed into the
// browser's cookie under its OAuth state.
type portalAttempt struct {
	Nonce    string `json:"nonce"`
	Verifier string `json:"verifier"`
	// RD is where to go afterwards (checked: an address on the portal).
	RD       string `json:"rd,omitempty"`
	Remember bool   `json:"remember,omitempty"`
}

// maxRD bounds the continuation address kept in the sealed cookie.
const maxRD = 2048

// portalRD returns rd when it is an address on the portal itself (the
// portal's scheme, host and port, a path starting with one /, no
// credentials), else "": the sign-in then ends on the launcher. The
// portal's sign-in page applies the same rule.
func portalRD(rd, portalURL string) string {
	if rd == "" || len(rd) > maxRD || portalURL == "" {
		return ""
	}
	base, err := url.Parse(portalURL)
	if err != nil {
		return ""
	}
	u, err := url.Parse(rd)
	if err != nil || u.User != nil || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) ||
		!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.ContainsAny(rd, "\\\r\n\t") {
		return ""
	}
	return rd
}

// portalBack sends the browser to the portal's sign-in page, with an
// error code (a fixed word the page puts in plain words) and the
// continuation it came with; both are built here, never copied.
func portalBack(c echo.Context, code, rd string) error {
	q := url.Values{}
	if code != "" {
		q.Set("error", code)
	}
	if rd != "" {
		q.Set("rd", rd)
	}
	target := "/login"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, target)
}

func (s *Service) portalOptions(ctx context.Context) (PortalOptions, error) {
	if s.portal == nil {
		return PortalOptions{}, nil
	}
	return s.portal(ctx)
}

// portalClient is the provider's client for the portal's callback; false
// when the provider is off or cannot be reached (logged).
func (s *Service) portalClient(ctx context.Context) (*oidc.Flow, bool) {
	if s.provider == nil {
		return nil, false
	}
	client, err := s.provider.PortalRelyingParty(ctx, PortalCallbackPath)
	if err != nil {
		if !errors.Is(err, oidc.ErrNotConfigured) {
			s.log.Warn("portal sign-in with the provider: provider unavailable", "err", err)
		}
		return nil, false
	}
	return client, true
}

// portalStart is GET /api/portal/sso/start?rd=…&remember=1, on the
// portal's host: it sends the browser to the provider.
func (s *Service) portalStart(c echo.Context) error {
	ctx := c.Request().Context()
	if !route.OnPortal(ctx) {
		return apperr.NotFound("route")
	}
	opts, err := s.portalOptions(ctx)
	if err != nil {
		return err
	}
	rd := portalRD(c.QueryParam("rd"), opts.URL)
	if blocked, _ := s.limiter.Blocked(addrKey(c)); blocked {
		return portalBack(c, errRateLimited, rd)
	}
	if !opts.Enabled {
		return portalBack(c, errUnavailable, rd)
	}
	client, ok := s.portalClient(ctx)
	if !ok {
		return portalBack(c, errUnavailable, rd)
	}
	state, err := bearer.New()
	if err != nil {
		return err
	}
	nonce, err := bearer.New()
	if err != nil {
		return err
	}
	a := portalAttempt{Nonce: nonce, Verifier: oauth2.GenerateVerifier(), RD: rd, Remember: c.QueryParam("remember") == "1"}
	val, err := s.provider.SignIns().Seal(oidc.FlowPortal, state, a)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the browser used https; a plain-HTTP portal needs the cookie too
		Name: portalCookie, Value: val, Path: "/api/portal/sso", MaxAge: int(oidc.SignInTTL / time.Second),
		// Lax: the provider's redirect back is a cross-site top-level GET.
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https",
	})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, client.AuthCodeURL(state, a.Nonce, a.Verifier))
}

// portalCallback is GET /api/portal/sso/callback: the state against the
// cookie, the code with the PKCE verifier, the ID token and its nonce, the
// state used once; then the person (linked, matched by verified e-mail, or
// made), their groups from the claim, and a portal session. The browser
// goes back to the sign-in page, which moves on to rd: the session cookie
// is SameSite=Strict, so a page of the portal's own must make the next
// navigation for the browser to send it.
func (s *Service) portalCallback(c echo.Context) error {
	ctx := c.Request().Context()
	if !route.OnPortal(ctx) {
		return apperr.NotFound("route")
	}
	state := c.QueryParam("state")
	ck, _ := c.Cookie(portalCookie)
	c.SetCookie(&http.Cookie{Name: portalCookie, Value: "", Path: "/api/portal/sso", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode}) //nolint:gosec // clears the cookie: no value to protect
	var a portalAttempt
	if s.provider == nil || ck == nil || !s.provider.SignIns().Open(oidc.FlowPortal, state, ck.Value, &a) {
		return portalBack(c, errExpired, "")
	}
	if c.QueryParam("error") != "" {
		return portalBack(c, errRefused, a.RD)
	}
	if blocked, _ := s.limiter.Blocked(addrKey(c)); blocked {
		return portalBack(c, errRateLimited, a.RD)
	}
	opts, err := s.portalOptions(ctx)
	if err != nil {
		return err
	}
	if !opts.Enabled {
		return portalBack(c, errUnavailable, a.RD)
	}
	client, ok := s.portalClient(ctx)
	if !ok {
		return portalBack(c, errUnavailable, a.RD)
	}
	id, err := client.Redeem(ctx, c.QueryParam("code"), a.Verifier, a.Nonce)
	if err != nil {
		s.log.Warn("portal sign-in with the provider failed", "err", err)
		s.limiter.Fail(addrKey(c))
		return portalBack(c, errFailed, a.RD)
	}
	if first, err := s.provider.SignIns().Use(ctx, oidc.FlowPortal, state); err != nil || !first {
		if err != nil {
			return err
		}
		return portalBack(c, errExpired, a.RD)
	}
	res, err := s.admins.SignInPortalExternal(ctx, admin.PortalExternal{
		Issuer: id.Issuer, Subject: id.Subject, Username: id.Username, Email: id.VerifiedEmail(), Name: id.Name,
		Create: opts.CreatePeople, SecondFactor: id.MultiFactor(),
		Linked: func(tx *gorm.DB, personID string, created, newLink bool) error {
			return s.recordPortalLink(ctx, tx, c, personID, created, newLink, id)
		},
	}, admin.Client{Address: c.RealIP(), UserAgent: c.Request().UserAgent(), Remember: a.Remember})
	switch {
	case errors.Is(err, admin.ErrExternalUnknown):
		s.log.Info("portal sign-in with the provider refused: no person matches", "subject", id.Subject)
		s.limiter.Fail(addrKey(c))
		return portalBack(c, errNotAllowed, a.RD)
	case errors.Is(err, admin.ErrExternalDisabled):
		return portalBack(c, errDisabled, a.RD)
	case err != nil:
		return err
	}
	if s.people != nil {
		s.people.PersonChanged(res.User.ID)
	}
	s.log.Info("person signed in on the portal with the provider", "username", res.User.Username,
		"created", res.Created, "second_factor", id.MultiFactor())
	s.admins.SetPortalSessionCookie(c, res.Token, a.Remember)
	return portalBack(c, "", a.RD)
}

// recordPortalLink applies the provider's groups to the person and
// records, in the sign-in's transaction, what the sign-in changed in the
// directory: a person made or linked, and groups given or taken back.
func (s *Service) recordPortalLink(ctx context.Context, tx *gorm.DB, c echo.Context, personID string, created, newLink bool, id oidc.Identity) error {
	groups, err := people.SyncProviderGroupsTx(tx, personID, id.Groups, s.now())
	if err != nil {
		return err
	}
	var username string
	if err := tx.Table("people").Where("id = ?", personID).Pluck("username", &username).Error; err != nil {
		return err
	}
	who := &audit.ActorInfo{Kind: string(actor.KindAdmin), ID: personID, Name: username, Address: c.RealIP()}
	if newLink {
		action := "link"
		if created {
			action = audit.ActionCreate
		}
		if err := audit.Record(ctx, tx, audit.Entry{Action: action, ResourceType: "people", ResourceID: personID,
			ResourceName: username, Method: http.MethodGet, Route: PortalCallbackPath, Actor: who,
			Changes: []audit.Change{{Path: "linkedIdentity", After: id.Issuer + " " + id.Subject}}}); err != nil {
			return err
		}
	}
	if groups.Changed() {
		return audit.Record(ctx, tx, audit.Entry{Action: "provider-groups", ResourceType: "people.groups", ResourceID: personID,
			ResourceName: username, Method: http.MethodGet, Route: PortalCallbackPath, Actor: who,
			Changes: []audit.Change{{Path: "added", After: groups.Added}, {Path: "removed", After: groups.Removed}}})
	}
	return nil
}
