package httpapi

import (
	"maps"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// The role check is the one place that says what each actor may do on the
// guarded /api routes (public routes never reach it). It reads the actor the
// guard put in the request context and decides from the method and the
// route pattern alone. TestRoleDecisions (package app) walks the real route
// table for an admin and a viewer, each signed in and as an API token.
//
//	admin session    everything
//	viewer session   every read but secretReads; no writes; self-service
//	admin token      everything but self-service and personOnlyWrites (and,
//	                 in an import, what those routes govern)
//	viewer token     every read but secretReads and self-service; no writes

// secretReads are the reads a viewer may not make, each with its reason.
// Every other GET is open to a viewer: lists of machine tokens, API tokens,
// credential sets, shared links and SSO settings show names, prefixes and
// "is set" flags, never the values; the services' upstream header values
// are hidden from a viewer by the services handler.
var secretReads = map[string]string{
	"GET /api/proxy/config/preview":   "the configuration Traefik gets carries the values of the headers services send upstream (often credentials)",
	"GET /api/backups/:name/download": "a backup archive holds the panel's age identity, which opens every sealed secret",
	"GET /api/export":                 "the export carries the credential sets' password hashes and every header value services send upstream",
}

// selfService routes act on the signed-in administrator's own account; any
// role may use them for itself. A token is not a person: it may not.
var selfService = []string{
	"GET /api/admin/me",
	"POST /api/admin/logout",
}

// selfServicePrefix covers own password, sessions, two-factor and passkeys.
const selfServicePrefix = "/api/admin/me/"

// personOnlyWrites are the routes an API token may not write to, whatever
// its role, each with what it governs: together they are who may sign in to
// the panel and how. With any of them a leaked token could leave behind a
// way in that outlives its revocation (a new administrator or token, a
// password it knows, a rule that creates administrators, an OpenID provider
// it runs). A key names its route and every route under it. Import decides
// by its plan (transfer): a token's import may change none of these either.
var personOnlyWrites = map[string]string{
	"/api/admin/users":    "administrators, their roles and passwords",
	"/api/admin/tokens":   "API tokens",
	"/api/admin/security": "the panel's sign-in security (two-factor for every administrator)",
	"/api/admin/sso":      "administrators' single sign-on: who it admits, which administrators it creates, local passwords",
	"/api/sso":            "the OpenID provider, which admits administrators when panel single sign-on is on",
}

// isSelfService reports whether method and route act on one's own account.
func isSelfService(method, route string) bool {
	if strings.HasPrefix(route, selfServicePrefix) {
		return true
	}
	for _, r := range selfService {
		if r == method+" "+route {
			return true
		}
	}
	return false
}

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

// Decide says whether a may call method on route (the Echo route pattern),
// answering forbidden with the reason when it may not.
func Decide(a actor.Actor, method, route string) error {
	self := isSelfService(method, route)
	if a.Kind == actor.KindToken && self {
		return apperr.Forbidden("API tokens cannot use an administrator's own account routes; sign in instead")
	}
	if self {
		return nil
	}
	switch a.Role {
	case actor.RoleAdmin:
		if a.Kind == actor.KindToken && !isRead(method) && isPersonOnly(route) {
			return apperr.Forbidden("API tokens cannot change who may sign in to the panel (administrators, API tokens, " +
				"sign-in and single sign-on settings); sign in instead")
		}
		return nil
	case actor.RoleViewer:
		if !isRead(method) {
			return apperr.Forbidden("viewers have read-only access; an administrator with the admin role can make this change")
		}
		if _, secret := secretReads[http.MethodGet+" "+route]; secret {
			return apperr.Forbidden("viewers cannot read this page: it shows secrets")
		}
		return nil
	}
	return apperr.Forbidden("unknown role")
}

func isPersonOnly(route string) bool {
	for p := range personOnlyWrites {
		if route == p || strings.HasPrefix(route, p+"/") {
			return true
		}
	}
	return false
}

// PersonOnlyWrites returns the routes (with every route under each) that
// API tokens may not write to, with what each governs.
func PersonOnlyWrites() map[string]string {
	return maps.Clone(personOnlyWrites)
}

// SecretReads returns the reads a viewer may not make, with their reasons.
func SecretReads() map[string]string {
	return maps.Clone(secretReads)
}

// roleCheck runs after the guard: it refuses what the actor's role does not
// allow. Requests to unknown paths pass, to be answered 404.
func roleCheck(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, ok := actor.From(c.Request().Context())
		if !ok {
			return apperr.Unauthenticated("sign in required")
		}
		route := c.Path()
		if route == "/api/*" || route == "/api" {
			return next(c)
		}
		if err := Decide(a, c.Request().Method, route); err != nil {
			return err
		}
		return next(c)
	}
}
