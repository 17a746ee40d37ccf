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
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// dbTimeout bounds each piece of database work verify does (a policy
// rebuild, a session look-up, a sign-in redemption): a database that stops
// answering turns into refusals within seconds, never into requests that
// hang while Traefik waits. Answers from memory need no database.
const dbTimeout = 5 * time.Second

// withDBTimeout gives c's request a context bounded by dbTimeout, for the
// rarer paths that write (a shared link's first use, an exchange, a sign-out).
func withDBTimeout(c echo.Context) context.CancelFunc {
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	c.SetRequest(c.Request().WithContext(ctx))
	return cancel
}

// verify is GET /api/auth/verify?service=<id>, called by Traefik's forwardAuth
// on every request to a protected service. Any error it returns becomes a
// 500, so a failure never lets a request through.
func (s *Service) verify(c echo.Context) error {
	f, ok := parseForwarded(c.Request(), s.trusted)
	if !ok {
		return apperr.InvalidRequest("verify needs the service parameter and the X-Forwarded-Method, " +
			"X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-Uri headers (sent by Traefik's forwardAuth)")
	}
	o := outcome{rule: -1, start: time.Now()}
	sp, err := s.decide(c, &f, &o)
	if err == nil && sp != nil {
		s.record(c, &f, sp, &o)
	}
	return err
}

// decide answers one verify request: the service must be live, then its
// rules (global first) allow, deny or ask for identity, then one of its
// protections must vouch for the request.
func (s *Service) decide(c echo.Context, f *fwdRequest, o *outcome) (*servicePolicy, error) {
	pol, err := s.policy.get(c.Request().Context())
	if err != nil {
		return nil, err
	}
	now := s.now()
	o.at = now
	sp := pol.services[f.serviceID]
	if sp == nil || !sp.live(now) {
		o.basis = accesslog.ByUnavailable
		return sp, refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title: "Not available", Message: "This service is not available."})
	}
	if sp.protected && isSignOut(f.uri) {
		o.basis = accesslog.BySession
		defer withDBTimeout(c)()
		return sp, s.signOut(c, *f, sp)
	}
	action := rules.Authenticate
	var identified *personEntry // the person of a live people session
	switch {
	case sp.rules != nil:
		req := rules.Request{Method: f.method, URI: f.uri, Addr: f.addr, Header: f.header}
		if sp.people != nil && f.token != "" {
			// Identity conditions see the person of a live people session.
			sess, err := s.sessions.lookup(c.Request().Context(), f.token)
			if err != nil {
				return sp, err
			}
			if chk, pe := checkPeopleSession(sess, sp, pol, now); chk == peopleAllowed {
				req.Identity, identified = pe.identity(sess.secondFactor), pe
			}
		}
		d := sp.rules.Decide(&req)
		action, o.rule, o.basis = d.Action, d.Index, ruleBasis(d.Scope)
		if d.NeedsIdentity && sp.people != nil {
			// No live people session yet: the protection sends a browser
			// to the portal (or refuses the person it does not admit);
			// once back with a session, the rules see who it is.
			return sp, s.authenticate(c, f, sp, pol, now, o)
		}
		if d.NeedsIdentity {
			// A rule naming people or groups met a request without a
			// person: basic auth, machine tokens and shared links cannot
			// tell who it is, so none of them may open it.
			return sp, refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
				Title: "Sign-in required", Message: "This address of " + sp.name + " is open only to signed-in people."})
		}
	case !sp.protected:
		action, o.basis = rules.Allow, accesslog.ByNoProtection
	}
	switch action {
	case rules.Allow:
		if identified != nil {
			// The upstream learns who it is, as when the protection admits.
			return sp, allowPerson(c, identified)
		}
		c.Response().WriteHeader(http.StatusOK)
		return sp, nil
	case rules.Deny:
		return sp, refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title: "Access denied", Message: "This address of " + sp.name + " is not open to you."})
	}
	return sp, s.authenticate(c, f, sp, pol, now, o)
}

// authenticate lets the request through when one of the service's
// protections vouches for it: a session, a shared link, a machine token or
// basic auth.
func (s *Service) authenticate(c echo.Context, f *fwdRequest, sp *servicePolicy, pol *policy, now time.Time, o *outcome) error {
	if f.exchToken != "" && (sp.sso != nil || sp.emailCode != nil || sp.people != nil) {
		o.basis = accesslog.BySession
		defer withDBTimeout(c)()
		return s.redeemExchange(c, *f, sp, pol, now)
	}
	sess, err := s.sessions.lookup(c.Request().Context(), f.token)
	if err != nil {
		return err
	}
	var deniedPerson *personEntry
	switch chk, pe := checkPeopleSession(sess, sp, pol, now); chk {
	case peopleAllowed:
		o.basis, o.identity = accesslog.BySession, pe.username
		if f.linkToken != "" || f.exchToken != "" {
			return c.Redirect(redirectStatus(f.method), f.proto+"://"+f.host+withoutParams(f.uri))
		}
		s.sessions.touch(sess, now)
		return allowPerson(c, pe)
	case peopleDenied:
		deniedPerson = pe
	}
	var denied *session
	if sess != nil && sess.serviceID == sp.id && now.Before(sess.expiresAt) {
		switch {
		case sess.kind == store.SessionSSO && sp.sso != nil && sess.sso != nil && sp.sso.allows(*sess.sso),
			sess.kind == store.SessionSharedLink && sp.links,
			sess.kind == store.SessionEmailCode && sp.emailCode != nil && sp.emailCode.allow.allows(sess.email):
			o.basis, o.identity = accesslog.BySession, sess.user
			if sess.kind == store.SessionSharedLink {
				o.basis = accesslog.ByLinkSession
			}
			if f.linkToken != "" || f.exchToken != "" {
				// Already signed in: drop the token from the address bar, leave the link unused.
				return c.Redirect(redirectStatus(f.method), f.proto+"://"+f.host+withoutParams(f.uri))
			}
			s.sessions.touch(sess, now)
			user, email, name, groups := sess.headers()
			return allow(c, user, email, name, groups)
		case sess.kind == store.SessionSSO && sp.sso != nil:
			denied = sess
		}
	}
	if f.linkToken != "" && sp.links {
		o.basis = accesslog.ByLink
		defer withDBTimeout(c)()
		return s.useLink(c, *f, sp, now)
	}
	if sp.tokens {
		if v, fromBasic, ok := machineToken(f, sp); ok {
			if done, err := s.verifyToken(c, f, sp, pol, v, fromBasic, now, o); done || err != nil {
				return err
			}
		}
	}
	if sp.people != nil && s.appPasswords != nil && f.authorization != "" {
		if done, err := s.verifyAppPassword(c, *f, sp, pol, o); done || err != nil {
			return err
		}
	}
	if sp.basic != nil && f.authorization != "" {
		if done, err := s.verifyBasic(c, *f, sp, o); done || err != nil {
			return err
		}
	}
	if deniedPerson != nil {
		o.basis, o.identity = accesslog.BySession, deniedPerson.username
		return refusePerson(c, *f, sp, deniedPerson)
	}
	if denied != nil {
		o.basis, o.identity = accesslog.BySession, denied.user
		return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title:   "Access denied",
			Message: "You are signed in as " + denied.user + ", who is not allowed to use " + sp.name + ".",
			LinkURL: f.proto + "://" + f.host + contract.SignOutPath, LinkText: "Sign out",
		})
	}
	if f.authorization == "" && f.token == "" && f.linkToken == "" {
		o.reason = accesslog.MissingCredentials
	}
	return s.unauthenticated(c, *f, sp, pol)
}

// allow answers 200 with the identity headers. The slices are shared,
// read-only, and built once per session, so this allocates nothing.
func allow(c echo.Context, user, email, name, groups []string) error {
	h := c.Response().Header()
	h[contract.HeaderUser], h[contract.HeaderEmail], h[contract.HeaderName], h[contract.HeaderGroups] = user, email, name, groups
	c.Response().WriteHeader(http.StatusOK)
	return nil
}

// verifyBasic checks an Authorization: Basic header. done reports that an
// answer was written (allowed, refused or rate limited); a header that is
// not basic auth leaves the decision to the caller.
func (s *Service) verifyBasic(c echo.Context, f fwdRequest, sp *servicePolicy, o *outcome) (done bool, err error) {
	o.basis = accesslog.ByBasicAuth
	key := basicKey(sp.id, f.authorization)
	// A result counts only for the policy snapshot that produced it: any
	// change to protections or credential sets makes every result stale.
	if res := s.basic.get(key); res != nil && res.bp == sp.basic {
		o.identity = res.hUser[0]
		return true, allow(c, res.hUser, nil, nil, nil)
	}
	user, pass, ok := parseBasic(f.authorization)
	if !ok {
		return false, nil
	}
	keys := [2]string{"ip:" + f.ipKey(), "user:" + sp.id + ":" + user}
	if blocked, wait := s.limiter.Blocked(keys[:]...); blocked {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return true, refuse(c, f.browser, http.StatusTooManyRequests, apperr.CodeRateLimited, page{
			Title: "Too many attempts", Message: "Too many failed sign-in attempts. Wait a few minutes and try again."})
	}
	if !s.checkBasic(sp.basic, user, pass) {
		o.reason = accesslog.WrongPassword
		s.limiter.Fail(keys[:]...)
		s.failures.Fail(c.Request().Context(), sp.id, sp.name)
		c.Response().Header()["Www-Authenticate"] = sp.challenge
		return true, refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign in to continue", Message: "Wrong username or password.",
			LinkURL: f.proto + "://" + f.host + withoutParams(f.uri), LinkText: "Try again"})
	}
	s.limiter.Reset(keys[1])
	res := &basicResult{bp: sp.basic, hUser: []string{headerSafe(user)}}
	s.basic.put(key, res)
	o.identity = res.hUser[0]
	return true, allow(c, res.hUser, nil, nil, nil)
}

// unauthenticated sends browsers to single sign-on when the service has it,
// and answers 401 otherwise (with a basic-auth challenge when accepted).
func (s *Service) unauthenticated(c echo.Context, f fwdRequest, sp *servicePolicy, pol *policy) error {
	original := f.proto + "://" + f.host + withoutParams(f.uri)
	if f.browser && sp.sso != nil && pol.panelURL != "" {
		loc := pol.panelURL + "/api/auth/sso/start?service=" + url.QueryEscape(sp.id) + "&rd=" + url.QueryEscape(original)
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Redirect(redirectStatus(f.method), loc)
	}
	if f.browser && sp.emailCode != nil && pol.panelURL != "" {
		return emailCodeRedirect(c, f, sp, pol.panelURL)
	}
	if f.browser && sp.people != nil {
		return s.peopleRedirect(c, f, sp, pol)
	}
	p := page{Title: "Sign in to continue", LinkURL: original, LinkText: "Try again"}
	if sp.challenge != nil {
		c.Response().Header()["Www-Authenticate"] = sp.challenge
	}
	switch {
	case sp.basic != nil:
		p.Message = sp.name + " needs the username and password you were given."
	case sp.people != nil:
		p.Message = sp.name + " needs you to sign in: open it in a browser, or use an app password."
		p.LinkURL = ""
		if sp.challenge == nil && s.appPasswords != nil {
			c.Response().Header()["Www-Authenticate"] = []string{`Basic realm="` + realm(sp.name) + `", charset="UTF-8"`}
		}
	case sp.sso != nil:
		p.Message = sp.name + " needs single sign-on, but the panel's public address is not configured."
		p.LinkURL = ""
	case sp.emailCode != nil:
		p.Message = sp.name + " needs a code sent by e-mail: open it in a browser."
		if pol.panelURL == "" {
			p.Message = sp.name + " needs a code sent by e-mail, but the panel's public address is not configured."
		}
		p.LinkURL = ""
	case sp.tokens:
		p.Message = sp.name + " needs a machine token (as a bearer token, or as the password of basic auth)."
		p.LinkURL = ""
	case !sp.links:
		p.Title, p.Message, p.LinkURL = "Access denied", "This address of "+sp.name+" needs a sign-in it does not offer.", ""
	default:
		p.Title = "A shared link is needed"
		p.Message = sp.name + " is open only through a shared link. Ask its owner for a new one."
		p.LinkURL = ""
	}
	return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, p)
}

func isSignOut(uri string) bool {
	path, _, _ := strings.Cut(uri, "?")
	return path == contract.SignOutPath
}

// signOut ends the session of the request's cookie and clears it.
func (s *Service) signOut(c echo.Context, f fwdRequest, sp *servicePolicy) error {
	if f.token != "" {
		if err := s.endSessionByToken(c.Request().Context(), f.token); err != nil {
			return err
		}
	}
	setCookie(c, f, "", time.Time{}, time.Time{})
	return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
		Title: "Signed out", Message: "You have been signed out of " + sp.name + ".",
		LinkURL: f.proto + "://" + f.host + "/", LinkText: "Sign in again"})
}

// setCookie writes the host-only session cookie; an empty token clears it.
func setCookie(c echo.Context, f fwdRequest, token string, expires, now time.Time) {
	ck := &http.Cookie{ //nolint:gosec // Secure whenever the browser used https; plain-HTTP services need the cookie too
		Name: contract.SessionCookie, Value: token, Path: "/", HttpOnly: true,
		Secure: f.proto == "https", SameSite: http.SameSiteLaxMode,
	}
	if token == "" {
		ck.MaxAge = -1
	} else {
		ck.Expires = expires
		ck.MaxAge = int(expires.Sub(now) / time.Second)
		if ck.MaxAge < 1 {
			ck.MaxAge = 1
		}
	}
	c.SetCookie(ck)
	c.Response().Header().Set("Cache-Control", "no-store")
}
