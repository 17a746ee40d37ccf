// Package fwdauth is the forward-auth contract: the names the generated
// Traefik configuration (dynconf) and the verify endpoint (access) must
// agree on. Both import it; neither defines these names itself.
package fwdauth

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
// authResponseHeaders, so Traefik replaces whatever the client sent with
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
