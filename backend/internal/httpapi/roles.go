package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// The role check is the one place that says what each actor may do on the
// guarded /api routes (public and machine routes never reach it). It reads
// the actor the guard put in the request context and decides from the
// method and the class the route declared when it was registered
// (package route). TestRoleDecisions (package app) walks the real route
// table for an admin and a viewer, each signed in and as an API token.
//
//	admin session    everything
//	viewer session   every read but secret reads; no writes; self-service
//	admin token      everything but self-service and person-only writes (and,
//	                 in an import, what those routes govern)
//	viewer token     every read but secret reads and self-service; no writes
//
// Every read but a secret read is open to a viewer: lists of machine
// tokens, API tokens, credential sets, shared links and SSO settings show
// names, prefixes and "is set" flags, never the values; the services'
// upstream header values are hidden from a viewer by the services handler.

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

// Decide says whether a may call method on a route of class, answering
// forbidden with the reason when it may not.
func Decide(a actor.Actor, method string, class route.Class) error {
	self := class == route.SelfService
	if a.Kind == actor.KindToken && self {
		return apperr.Forbidden("API tokens cannot use an administrator's own account routes; sign in instead")
	}
	if self {
		return nil
	}
	switch a.Role {
	case actor.RoleAdmin:
		if a.Kind == actor.KindToken && !isRead(method) && class == route.PersonOnly {
			return apperr.Forbidden("API tokens cannot change who may sign in to the panel (administrators, API tokens, " +
				"sign-in and single sign-on settings); sign in instead")
		}
		return nil
	case actor.RoleViewer:
		if !isRead(method) {
			return apperr.Forbidden("viewers have read-only access; an administrator with the admin role can make this change")
		}
		if class == route.SecretRead {
			return apperr.Forbidden("viewers cannot read this page: it shows secrets")
		}
		return nil
	}
	return apperr.Forbidden("unknown role")
}

// roleCheck runs after the guard: it refuses what the actor's role does not
// allow. Requests to unknown paths pass, to be answered 404.
func roleCheck(routes *route.Table, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, ok := actor.From(c.Request().Context())
		if !ok {
			return apperr.Unauthenticated("sign in required")
		}
		path := c.Path()
		if path == "/api/*" || path == "/api" {
			return next(c)
		}
		if err := Decide(a, c.Request().Method, routes.Rule(c.Request().Method, path).Class); err != nil {
			return err
		}
		return next(c)
	}
}
