// Package httpapi assembles the Echo server: middleware, the error envelope,
// CSRF protection, the admin-session guard with its explicit public
// allow-list, and the route table of every feature.
package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Registrar is a feature handler that mounts its routes on the /api group.
type Registrar interface {
	Register(g *echo.Group)
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
	Features []Registrar // every /api feature, public or not
	UI       http.Handler
	// ClientIP reads the client's address; nil trusts X-Forwarded-For
	// from loopback peers only.
	ClientIP *ClientIP
}

// publicRoutes is the one place that says which /api routes answer without an
// admin session. Each has its own guard (or none is needed). Every entry is
// one registered route, exactly: TestEveryOtherRouteRequiresAdmin walks the
// route table, proves every route not listed here answers 401 without a
// session, and that each entry names a route that exists. Forward-auth
// verify is not here: access.Service.FastVerify answers it in front of the
// API.
var publicRoutes = []string{
	"GET /api/health",
	"GET /api/system",
	"GET /api/openapi.json", // the API description: no secrets, and clients read it before signing in
	"POST /api/admin/setup",
	"POST /api/admin/login",
	"POST /api/admin/login/totp",             // second step: the pending sign-in's cookie is its guard
	"POST /api/admin/login/recovery",         // second step: the pending sign-in's cookie is its guard
	"POST /api/admin/login/passkey/begin",    // second step, or passwordless: returns a WebAuthn challenge
	"POST /api/admin/login/passkey/finish",   // the WebAuthn assertion is the credential
	"GET /api/proxy/config",                  // Traefik HTTP provider
	"GET /api/proxy/cert-trigger",            // certificate-trigger routers (blank page)
	"GET /api/proxy/maintenance/:id",         // maintenance routers: the service's public maintenance page
	"GET /api/proxy/static-config",           // managed-mode wrapper
	"GET /api/proxy/managed/secrets-env",     // managed-mode wrapper: token + internal network only
	"GET /api/proxy/managed/replicas",        // managed-mode wrapper: token + internal network only
	"POST /api/proxy/managed/wrapper-report", // managed-mode wrapper: token only
	"GET /api/auth/sso/start",                // end-user sign-in: starts at the OpenID provider
	"GET /api/auth/sso/callback",             // end-user sign-in: the provider's redirect back
	"GET /api/admin/sso/start",               // administrators' SSO sign-in: starts at the OpenID provider
	"GET /api/admin/sso/callback",            // administrators' SSO sign-in: state, PKCE and nonce checked, then a session
}

// PublicRoutes returns the allow-list ("METHOD /path" entries).
func PublicRoutes() []string { return slices.Clone(publicRoutes) }

// IsPublic reports whether method and route pattern are on the allow-list.
func IsPublic(method, route string) bool {
	return slices.Contains(publicRoutes, method+" "+route)
}

// New builds the Echo server.
func New(d Deps) *echo.Echo {
	e := echo.New()
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
	e.Use(requestLogger(d.Logger))
	e.Use(securityHeaders)

	api := e.Group("/api")
	// Imports carry whole configuration files: their handler bounds the
	// body itself (32 MiB).
	api.Use(middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "1M",
		Skipper: func(c echo.Context) bool { return c.Request().Method == http.MethodPost && c.Path() == "/api/import" }}))
	// Routes that answer strangers take small bodies: nothing they accept
	// (a username, a password, a code, a WebAuthn assertion) comes near it.
	api.Use(publicBodyLimit)
	api.Use(boundQuery)
	api.Use(csrf)
	api.Use(adminGuard(d.RequireAdmin))
	if d.Audit != nil {
		api.Use(d.Audit)
	}

	api.GET("/health", health(d.Ping))
	api.GET("/system", system(d))
	for _, f := range d.Features {
		f.Register(api)
	}
	if d.UI != nil {
		e.GET("/*", echo.WrapHandler(d.UI))
	}
	return e
}

// publicBodyLimit bounds the body of every route on the public allow-list
// to 64 KiB, and says so.
func publicBodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	limited := middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "64K",
		Skipper: func(c echo.Context) bool { return !IsPublic(c.Request().Method, c.Path()) }})(next)
	return func(c echo.Context) error {
		err := limited(c)
		if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
			return &apperr.Error{Code: apperr.CodeTooLarge, Message: "request body is too large (limit 64 KiB)"}
		}
		return err
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
// every route that is not public.
func adminGuard(require echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		guarded := require(roleCheck(next))
		return func(c echo.Context) error {
			if IsPublic(c.Request().Method, c.Path()) {
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

// polledPaths are asked by machines all day (Traefik, the wrapper, health
// checks); they log at debug level so the log shows what people do.
var polledPaths = map[string]bool{
	"/api/proxy/config": true, "/api/health": true,
	"/api/proxy/static-config": true, "/api/proxy/managed/secrets-env": true, "/api/proxy/managed/replicas": true,
	"/api/proxy/managed/wrapper-report": true, "/api/proxy/cert-trigger": true,
}

// requestLogger logs one line per request, without query strings (they may
// carry tokens). Machine-polled paths and the audit log's own reads of a
// resource around a change log at debug level.
func requestLogger(log *slog.Logger) echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogMethod: true, LogURIPath: true, LogLatency: true, LogRequestID: true,
		LogRemoteIP: true, HandleError: true, // so the logged status is the error handler's
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if polledPaths[v.URIPath] || !strings.HasPrefix(v.URIPath, "/api/") || audit.Internal(c.Request().Context()) {
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
