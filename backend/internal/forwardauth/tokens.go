package forwardauth

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
)

// machineToken finds a machine token in a request: "Authorization: Bearer",
// the service's own token header, or the password of basic auth (any user
// name: the only option many apps have). Never the query string, which
// ends up in logs and browser histories.
func machineToken(f *fwdRequest, sp *servicePolicy) (value string, fromBasic, ok bool) {
	a := f.authorization
	if len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
		return strings.TrimSpace(a[7:]), false, true
	}
	if sp.tokenHdr != "" {
		if v := first(f.header[sp.tokenHdr]); v != "" {
			return strings.TrimSpace(v), false, true
		}
	}
	if len(a) > 6 && strings.EqualFold(a[:6], "Basic ") {
		if _, pass, ok := parseBasic(a); ok && machinetokens.LooksLikeToken(pass) {
			return pass, true, true
		}
	}
	return "", false, false
}

// verifyToken checks a machine token. done is false only for an unknown
// token that came as a basic-auth password on a service that also has
// basic auth: it may be an ordinary password, so basic auth decides.
func (s *Service) verifyToken(c echo.Context, f *fwdRequest, sp *servicePolicy, pol *policy, value string, fromBasic bool, now time.Time, o *outcome) (done bool, err error) {
	p := pol.tokens[bearer.Hash(value)]
	if p == nil && fromBasic && sp.basic != nil {
		return false, nil
	}
	o.basis = accesslog.ByToken
	if p == nil || (!p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt)) {
		// Only a token that fails asks the limiter, as only a basic-auth
		// check that misses the cache does: a live token is decided from
		// memory, with no query even where the limiter counts in the
		// database.
		ipKey := "ip:" + f.ipKey()
		if blocked, wait := s.limiter.Blocked(ipKey); blocked {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
			return true, refuse(c, f.browser, http.StatusTooManyRequests, apperr.CodeRateLimited, page{
				Title: "Too many attempts", Message: "Too many failed sign-in attempts. Wait a few minutes and try again."})
		}
		s.limiter.Fail(ipKey)
		o.reason = accesslog.InvalidToken
		if fromBasic {
			c.Response().Header()["Www-Authenticate"] = sp.challenge
		} else {
			c.Response().Header().Set("Www-Authenticate", `Bearer realm="`+realm(sp.name)+`", error="invalid_token"`)
		}
		return true, refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{
			Title: "Sign in to continue", Message: "This machine token is not valid: it is unknown, expired or revoked."})
	}
	o.identity = p.User[0]
	if !p.Allows(sp.id, f.method, f.uri, now) {
		return true, refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title: "Access denied", Message: "This machine token does not open this address of " + sp.name + "."})
	}
	if s.tokens != nil {
		s.tokens.RecordUse(p.ID, now, f.addr)
	}
	return true, allow(c, p.User, nil, nil, nil)
}
