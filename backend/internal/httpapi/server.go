// Package httpapi assembles the Echo server: middleware, the error envelope,
// CSRF protection, the admin-session guard and the role check, which read
// who may call each route from its registration (package route), and the
// route table of every feature.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/openapi"
)

// Feature is one capability the API serves: it registers its routes, each
// declaring who may call it, and hands in its part of /api/openapi.json
// (the openapi*.yaml files its package embeds).
type Feature interface {
	Register(r *route.Registrar)
	// OpenAPI returns the package's fragment. It reads nothing of the
	// receiver: a nil handler answers it (Document).
	OpenAPI() fs.FS
}

// Deps is everything the HTTP layer needs.
type Deps struct {
	Logger        *slog.Logger
	Version       string
	Managed       bool
	Ping          func(ctx context.Context) error
	SetupRequired func(ctx context.Context) (bool, error)
	// SignIn says how administrators may sign in (SSO, passwords); nil
	// means passwords only.
	SignIn func(ctx context.Context) (sso, passwords bool, err error)
	// Passkeys says passkey sign-in is available.
	Passkeys     bool
	RequireAdmin echo.MiddlewareFunc
	// Audit, if set, records the API's changes and sign-ins; it runs after
	// the guards so it knows who acts.
	Audit    echo.MiddlewareFunc
	Features []Feature // every /api feature, public or not
	// OpenAPI is the API description served at /api/openapi.json
	// (Document); nil serves none.
	OpenAPI []byte
	UI      http.Handler
	// ClientIP reads the client's address; nil trusts X-Forwarded-For
	// from loopback peers only.
	ClientIP *ClientIP
	// PortalHost names the sign-in portal's host ("" for none); nil means
	// no portal. On that host only routes registered with route.Portal
	// answer.
	PortalHost func(ctx context.Context) string
	// OIDC answers the OpenID provider's protocol endpoints (OIDCPaths) on
	// the portal's host; nil serves none.
	OIDC http.Handler
}

// OIDCPaths are where the OpenID provider's protocol endpoints live
// (package oidc/provider answers them, on the portal's host only).
var OIDCPaths = []string{"/.well-known/openid-configuration", "/oidc/*"}

// Server is the API's Echo server and the rule of each of its routes.
type Server struct {
	*echo.Echo
	// Routes says who may call each /api route, as its feature declared
	// when registering it.
	Routes *route.Table
}

// New builds the Echo server. Routes answer without a session only where
// their registration says so (route.Public, route.Machine); the guard, the
// body limits and the role check read the declarations from the route table.
func New(d Deps) *Server {
	e := echo.New()
	routes := route.NewTable()
	e.HideBanner, e.HidePort = true, true
	e.Validator = httpx.NewValidator()
	e.HTTPErrorHandler = errorHandler(d.Logger)
	// X-Forwarded-For counts only from the configured proxies (Traefik):
	// any other host that reaches the panel is its own client address.
	if d.ClientIP == nil {
		d.ClientIP = LoopbackClientIP()
	}
	e.IPExtractor = d.ClientIP.Extract

	e.Use(middleware.RequestID())
	e.Use(middleware.Recover())
	e.Use(requestLogger(d.Logger, routes))
	e.Use(securityHeaders)

	api := e.Group("/api")
	// First of all: on the portal's host only the portal's routes exist.
	api.Use(portalHost(routes, d.PortalHost))
	// A route with route.OwnBodyLimit bounds the body itself: an import
	// carries whole configuration files (32 MiB).
	api.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "1M",
		Skipper: func(c echo.Context) bool { return rule(routes, c).Has(route.OwnBodyLimit) }}))
	// Routes that answer strangers take small bodies: nothing they accept
	// (a username, a password, a code, a WebAuthn assertion) comes near it.
	api.Use(openBodyLimit(routes))
	api.Use(boundQuery)
	api.Use(csrf)
	api.Use(adminGuard(routes, d.RequireAdmin))
	if d.Audit != nil {
		api.Use(d.Audit)
	}

	r := route.NewRegistrar(api, routes)
	r.GET("/health", health(d.Ping), route.Public.Because("health checks: says whether the database answers, nothing more"), route.Polled)
	r.GET("/system", system(d), route.Public.Because("the sign-in page reads how administrators may sign in before anyone has"))
	if d.OpenAPI != nil {
		openapi.NewHandler(d.OpenAPI).Register(r)
	}
	for _, f := range d.Features {
		f.Register(r)
	}
	if d.OIDC != nil {
		for _, p := range OIDCPaths {
			e.Any(p, echo.WrapHandler(d.OIDC))
		}
	}
	if d.UI != nil {
		e.GET("/*", echo.WrapHandler(d.UI))
	}
	return &Server{Echo: e, Routes: routes}
}

// portalHost answers 404 on the portal's host for every route registered
// without route.Portal, before any other check (a guard's 401 would tell a
// stranger the route exists), and marks the request of a portal route as
// made on the portal (route.OnPortal).
func portalHost(routes *route.Table, host func(context.Context) string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if host == nil {
			return next
		}
		return func(c echo.Context) error {
			r := c.Request()
			if !route.IsPortalHost(r.Host, host(r.Context())) {
				return next(c)
			}
			if !rule(routes, c).Has(route.Portal) {
				return apperr.NotFound("route")
			}
			c.SetRequest(r.WithContext(route.WithPortal(r.Context())))
			return next(c)
		}
	}
}

// rule is the declared rule of the route c matched.
func rule(routes *route.Table, c echo.Context) route.Rule {
	return routes.Rule(c.Request().Method, c.Path())
}

// openBodyLimit bounds the body of every public and machine route to
// 64 KiB, and says so.
func openBodyLimit(routes *route.Table) echo.MiddlewareFunc {
	limit := middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "64K",
		Skipper: func(c echo.Context) bool { return !rule(routes, c).Open() }})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		limited := limit(next)
		return func(c echo.Context) error {
			err := limited(c)
			if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
				return &apperr.Error{Code: apperr.CodeTooLarge, Message: "request body is too large (limit 64 KiB)"}
			}
			return err
		}
	}
}

// MaxQueryValue bounds each query parameter (a state, a code, a return
// URL): a longer one is refused naming it, before it reaches a limiter, a
// log line or a stored row.
const MaxQueryValue = 4096

func boundQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().URL.RawQuery == "" {
			return next(c)
		}
		for name, vals := range c.QueryParams() {
			if len(name) > 64 {
				return apperr.InvalidRequest("a query parameter name is longer than 64 bytes")
			}
			for _, v := range vals {
				if len(v) > MaxQueryValue {
					msg := fmt.Sprintf("must be at most %d bytes", MaxQueryValue)
					return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: name + ": " + msg,
						Fields: []apperr.FieldError{{Field: name, Message: msg}}}
				}
			}
		}
		return next(c)
	}
}

// adminGuard runs require (Deps.RequireAdmin: a session or an API token,
// which puts the actor in the request context) and then the role check on
// every route that is not public or machine.
func adminGuard(routes *route.Table, require echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		guarded := require(roleCheck(routes, next))
		return func(c echo.Context) error {
			if rule(routes, c).Open() {
				return next(c)
			}
			return guarded(c)
		}
	}
}

// csrf refuses cross-site unsafe requests. Browsers send Sec-Fetch-Site and,
// on unsafe methods, Origin; non-browser clients (Traefik, the wrapper, curl)
// send neither and are governed by their own guards. A request with an
// Authorization bearer token and no cookie at all is exempt: a browser
// attaches no Authorization header of its own accord, so a forged
// cross-site request cannot carry it. Any cookie keeps the check, so a
// browser's session request is always checked.
func csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if strings.HasPrefix(strings.ToLower(r.Header.Get(echo.HeaderAuthorization)), "bearer ") && r.Header.Get("Cookie") == "" {
			return next(c)
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			return apperr.Forbidden("cross-site request refused")
		}
		if origin := r.Header.Get(echo.HeaderOrigin); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || !strings.EqualFold(u.Host, r.Host) {
				return apperr.Forbidden("cross-origin request refused")
			}
		}
		return next(c)
	}
}

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		if !strings.HasPrefix(c.Request().URL.Path, "/api/") {
			h.Set("X-Frame-Options", "DENY")
			h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; "+
				"style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
		}
		return next(c)
	}
}

// requestLogger logs one line per request, without query strings (they may
// carry tokens). Routes machines poll all day (route.Polled) and the audit
// log's own reads of a resource around a change log at debug level, so the
// log shows what people do.
func requestLogger(log *slog.Logger, routes *route.Table) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogMethod: true, LogURIPath: true, LogLatency: true, LogRequestID: true,
		LogRemoteIP: true, HandleError: true, // so the logged status is the error handler's
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if rule(routes, c).Has(route.Polled) || !strings.HasPrefix(v.URIPath, "/api/") || audit.Internal(c.Request().Context()) {
				level = slog.LevelDebug
			}
			if v.Status >= 500 {
				level = slog.LevelWarn
			}
			log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("request_id", v.RequestID), slog.String("method", v.Method),
				slog.String("path", v.URIPath), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("remote_ip", v.RemoteIP))
			return nil
		},
	})
}

func health(ping func(context.Context) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
		defer cancel()
		if err := ping(ctx); err != nil {
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		}
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	}
}

type systemResponse struct {
	Version       string `json:"version"`
	Managed       bool   `json:"managed"`
	SetupRequired bool   `json:"setupRequired"`
	// AdminSSO: the login page offers "Sign in with SSO";
	// LocalPasswords: it offers the password form.
	AdminSSO       bool `json:"adminSso"`
	LocalPasswords bool `json:"localPasswords"`
	// Passkeys: the login page offers passkey sign-in (PANEL_PUBLIC_URL
	// names a host the browser can bind passkeys to).
	Passkeys bool `json:"passkeys"`
}

func system(d Deps) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		setup, err := d.SetupRequired(ctx)
		if err != nil {
			return err
		}
		out := systemResponse{Version: d.Version, Managed: d.Managed, SetupRequired: setup, LocalPasswords: true,
			Passkeys: d.Passkeys}
		if d.SignIn != nil {
			if out.AdminSSO, out.LocalPasswords, err = d.SignIn(ctx); err != nil {
				return err
			}
		}
		return c.JSON(http.StatusOK, out)
	}
}
