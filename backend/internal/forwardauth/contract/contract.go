// Package contract is the forward-auth contract: the names the generated
// Traefik configuration (dynconf) and the verify endpoint (access) must
// agree on. Both import it; neither defines these names itself.
package contract

import (
	"regexp"
	"strings"
)

const (
	// VerifyPath is the endpoint Traefik's forwardAuth middleware calls on
	// every request to a protected service (access.FastVerify serves it).
	VerifyPath = "/api/auth/verify"
	// ServiceParam is the query parameter of VerifyPath naming the service.
	ServiceParam = "service"
	// SessionCookie is the forward-auth session cookie, set host-only on the
	// protected service's own host. The middleware lists it in
	// addAuthCookiesToResponse so verify can set and clear it.
	SessionCookie = "gatehouse_session"
	// SignOutPath on any protected host ends the session there.
	SignOutPath = "/.gatehouse/sign-out"
	// SSOCallbackPath is the OpenID Connect redirect URI on the panel.
	SSOCallbackPath = "/api/auth/sso/callback"
)

// Identity headers verify answers with. The middleware lists them in
// authResponseHeaders and, in every spelling, in authResponseHeadersRegex
// (IdentityHeadersRegex), so Traefik replaces whatever the client sent with
// these values (or removes them).
const (
	HeaderUser   = "Remote-User"
	HeaderEmail  = "Remote-Email"
	HeaderName   = "Remote-Name"
	HeaderGroups = "Remote-Groups"
)

// IdentityHeaders returns the identity headers, in the order the middleware
// lists them. A new slice each call, so no caller can change another's.
func IdentityHeaders() []string {
	return []string{HeaderUser, HeaderEmail, HeaderName, HeaderGroups}
}

// IdentityHeadersRegex matches every spelling of every identity header, for
// the middleware's authResponseHeadersRegex: any case, and "_" for "-".
// Traefik deletes the request's headers that match it before copying the
// matching ones of verify's answer, so a client's "Remote_User" or
// "remote-user" never reaches an upstream that folds "_" into "-" (CGI,
// WSGI, PHP all read both as HTTP_REMOTE_USER). authResponseHeaders alone
// deletes only the canonical spelling.
func IdentityHeadersRegex() string {
	var b strings.Builder
	b.WriteString("(?i)^(?:")
	for i, h := range IdentityHeaders() {
		if i > 0 {
			b.WriteByte('|')
		}
		for j, part := range strings.Split(h, "-") {
			if j > 0 {
				b.WriteString("[-_]")
			}
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	b.WriteString(")$")
	return b.String()
}
