package forwardauth

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// PortalContinuePath is the hop on the portal's host that turns a portal
// sign-in into a session on a service's host.
const PortalContinuePath = "/api/portal/continue"

// PeopleSessionSeconds is how long a people session lasts on a service.
// It ends sooner when its portal session ends (EndPortalSessions), when the
// person is disabled or deleted, or past the service's maximum sign-in age.
const PeopleSessionSeconds = 12 * 3600

// peopleCheck is what verify makes of a people session.
type peopleCheck int

const (
	peopleNone    peopleCheck = iota // not a people session of this service
	peopleAllowed                    // admitted
	peopleStale                      // the person may, but must sign in again or add a factor
	peopleDenied                     // signed in, not allowed
)

// checkPeopleSession classifies sess for sp against the directory snapshot.
func checkPeopleSession(sess *session, sp *servicePolicy, pol *policy, now time.Time) (peopleCheck, *personEntry) {
	if sess == nil || sp.people == nil || sess.kind != store.SessionPeople || sess.serviceID != sp.id || !now.Before(sess.expiresAt) {
		return peopleNone, nil
	}
	pe := pol.people[sess.personID]
	switch {
	case pe == nil || !pe.enabled:
		return peopleNone, nil // deleted or disabled: as if signed out
	case !sp.people.allows(pe):
		return peopleDenied, pe
	case !sp.people.fresh(sess.secondFactor, sess.signedInAt, now):
		return peopleStale, pe
	}
	return peopleAllowed, pe
}

// allowPerson answers 200 with the person's identity headers.
func allowPerson(c echo.Context, pe *personEntry) error {
	return allow(c, pe.hUser, pe.hEmail, pe.hName, pe.hGrp)
}

// refusePerson is the page for a signed-in person the service is not for.
func refusePerson(c echo.Context, f fwdRequest, sp *servicePolicy, pe *personEntry) error {
	return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
		Title: "Access denied",
		Message: "You are signed in as " + pe.username + ", but " + sp.name + " is only for " + sp.people.forWhom +
			". Ask its administrator if you need it.",
		LinkURL: f.proto + "://" + f.host + contract.SignOutPath, LinkText: "Sign out",
	})
}

// peopleRedirect sends a browser to the portal's continue hop, or says
// that no portal is configured (fail closed).
func (s *Service) peopleRedirect(c echo.Context, f fwdRequest, sp *servicePolicy, pol *policy) error {
	if pol.portalURL == "" || s.portal == nil {
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title:   "Sign-in is not set up",
			Message: sp.name + " needs you to sign in, but the sign-in portal is not configured. Tell the administrator."})
	}
	original := f.proto + "://" + f.host + withoutParams(f.uri)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(redirectStatus(f.method), pol.portalURL+PortalContinuePath+"?rd="+url.QueryEscape(original))
}

// verifyAppPassword checks Authorization: Basic username:app-password for
// a people protection. done reports an answer was written; a failure
// leaves the header to basic auth when the service also has it.
func (s *Service) verifyAppPassword(c echo.Context, f fwdRequest, sp *servicePolicy, pol *policy, o *outcome) (bool, error) {
	key := "app:" + basicKey(sp.id, f.authorization)
	if res := s.basic.get(key); res != nil && res.people == sp.people {
		if pe := pol.people[res.personID]; sp.people.allows(pe) {
			o.basis, o.identity = accesslog.ByBasicAuth, pe.username
			return true, allowPerson(c, pe)
		}
	}
	user, pass, ok := parseBasic(f.authorization)
	if !ok || len(user) > 256 || len(pass) > 256 {
		return false, nil
	}
	o.basis = accesslog.ByBasicAuth
	keys := [2]string{"ip:" + f.ipKey(), "user:" + sp.id + ":" + user}
	if blocked, wait := s.limiter.Blocked(keys[:]...); blocked {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return true, refuse(c, f.browser, http.StatusTooManyRequests, apperr.CodeRateLimited, page{
			Title: "Too many attempts", Message: "Too many failed sign-in attempts. Wait a few minutes and try again."})
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	defer cancel()
	id, ok, err := s.appPasswords.CheckAppPassword(ctx, user, pass)
	if err != nil {
		return true, err
	}
	pe := pol.people[id]
	if !ok || pe == nil || !pe.enabled {
		if sp.basic != nil {
			return false, nil // basic auth counts the failure
		}
		o.reason = accesslog.WrongPassword
		s.limiter.Fail(keys[:]...)
		s.failures.Fail(c.Request().Context(), sp.id, sp.name)
		c.Response().Header()["Www-Authenticate"] = []string{`Basic realm="` + realm(sp.name) + `", charset="UTF-8"`}
		return true, refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign in to continue", Message: "Wrong username or app password."})
	}
	s.limiter.Reset(keys[1])
	o.identity = pe.username
	if !sp.people.allows(pe) || sp.people.secondFactor {
		// An app password is one factor: a service asking for a second
		// one never opens with it.
		return true, refusePerson(c, f, sp, pe)
	}
	s.basic.put(key, &basicResult{people: sp.people, personID: id, hUser: pe.hUser})
	return true, allowPerson(c, pe)
}

// PortalSignInPath is the portal's sign-in page; its rd parameter is where
// it sends the person afterwards (an address on the portal).
const PortalSignInPath = "/login"

// justSignedIn is how recent a portal sign-in is taken to be the answer to
// this hop's own request to sign in again.
const justSignedIn = time.Minute

// portalContinue is GET /api/portal/continue?rd=<url> on the portal's
// host: a person signed in on the portal, strongly and recently enough for
// the service behind rd, is sent back there with a one-time exchange token;
// anyone else goes to the portal's sign-in page first.
func (s *Service) portalContinue(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	defer cancel()
	pol, err := s.policy.get(ctx)
	if err != nil {
		return err
	}
	rd := c.QueryParam("rd")
	sp := serviceForURL(pol, rd)
	if sp == nil || !sp.live(s.now()) || sp.people == nil {
		return refuse(c, true, http.StatusBadRequest, apperr.CodeInvalidRequest, page{
			Title: "Nothing to open", Message: "This address does not lead to a service you can sign in to."})
	}
	scheme, err := s.schemes.Scheme(ctx, sp.entrypoints)
	if err != nil {
		return err
	}
	back, ok := returnURL(rd, sp, scheme)
	if !ok {
		return refuse(c, true, http.StatusBadRequest, apperr.CodeInvalidRequest, page{
			Title: "Nothing to open", Message: "This address does not lead to a service you can sign in to."})
	}
	if s.portal == nil || pol.portalURL == "" {
		return refuse(c, true, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign-in is not set up", Message: "The sign-in portal is not configured. Tell the administrator."})
	}
	in, signedIn, err := s.portal.PortalSignIn(ctx, c.Request())
	if err != nil {
		return err
	}
	now := s.now()
	pe := pol.people[in.PersonID]
	if signedIn && pe != nil && pe.enabled && sp.people.allows(pe) && sp.people.secondFactor && !in.SecondFactor &&
		now.Sub(in.At) < justSignedIn {
		// They have just signed in again and still without a second
		// factor: they have none to give. Sending them back would loop.
		return refuse(c, true, http.StatusForbidden, apperr.CodeForbidden, page{
			Title:   "A second factor is needed",
			Message: sp.name + " asks for a second factor (a passkey or an authenticator app) and your account has none yet. Add one on your account page, then open " + sp.name + " again.",
			LinkURL: pol.portalURL + "/account", LinkText: "Open my account",
		})
	}
	if !signedIn || pe == nil || !pe.enabled || (sp.people.allows(pe) && !sp.people.fresh(in.SecondFactor, in.At, now)) {
		// The portal's sign-in page comes back to this hop; a person
		// already signed in goes straight back unless asked to sign in
		// again or add a factor.
		loc := pol.portalURL + PortalSignInPath + "?rd=" + url.QueryEscape(pol.portalURL+PortalContinuePath+"?rd="+url.QueryEscape(back))
		// The portal asks for a factor (stepup) or a fresh sign-in (reauth)
		// before sending the person back here, so this never loops.
		switch {
		case signedIn && sp.people.secondFactor && !in.SecondFactor:
			loc += "&stepup=1"
		case signedIn:
			loc += "&reauth=1"
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Redirect(http.StatusFound, loc)
	}
	if !sp.people.allows(pe) {
		u, _ := url.Parse(back)
		return refusePerson(c, fwdRequest{browser: true, proto: u.Scheme, host: u.Host}, sp, pe)
	}
	u, _ := url.Parse(back)
	tok, err := s.sso.addExchange(ctx, &exchange{serviceID: sp.id, kind: store.SessionPeople, host: strings.ToLower(u.Hostname()),
		id: identity{user: pe.username}, personID: pe.id, portalSessionID: in.SessionID, secondFactor: in.SecondFactor, signedInAt: in.At})
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set(ExchangeParam, tok)
	u.RawQuery = q.Encode()
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, u.String())
}

// serviceForURL finds the service serving rd's host (nil when none does).
func serviceForURL(pol *policy, rd string) *servicePolicy {
	if rd == "" || len(rd) > maxReturnURL {
		return nil
	}
	u, err := url.Parse(rd)
	if err != nil || u.Host == "" {
		return nil
	}
	host := strings.ToLower(validate.StripPort(u.Host))
	for _, sp := range pol.services {
		if sp.people != nil && sp.hasHost(host) {
			return sp
		}
	}
	return nil
}

// openPeopleSession ends the portal hop on the service's host: the person
// must still be enabled and allowed; the session remembers the portal
// session it came from.
func (s *Service) openPeopleSession(c echo.Context, f fwdRequest, sp *servicePolicy, pol *policy, e *exchange, now time.Time, clean string) error {
	pe := pol.people[e.personID]
	if sp.people == nil || pe == nil || !pe.enabled {
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign-in link expired", Message: "This sign-in link has expired or was already used.",
			LinkURL: clean, LinkText: "Sign in again"})
	}
	if !sp.people.allows(pe) {
		return refusePerson(c, f, sp, pe)
	}
	at := e.signedInAt
	row := store.Session{
		ServiceID: sp.id, Kind: store.SessionPeople, Subject: pe.username, Email: pe.email, DisplayName: pe.name,
		PersonID: pe.id, PortalSessionID: e.portalSessionID, SecondFactor: e.secondFactor, SignedInAt: &at,
		ExpiresAt: capExpiry(now.Add(PeopleSessionSeconds*time.Second), sp.expiresAt),
	}
	return s.openSession(c, f, &row, now, clean)
}
