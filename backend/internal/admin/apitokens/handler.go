package apitokens

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/admin/tokens.
type Handler struct{ s *Service }

// NewHandler returns the API-token handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	governs := route.PersonOnly.Because("API tokens")
	r.GET("/admin/tokens", h.list)
	r.POST("/admin/tokens", h.create, governs)
	r.DELETE("/admin/tokens/:id", h.revoke, governs)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.s.List(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, List{Items: items})
}

func (h *Handler) create(c echo.Context) error {
	var in CreateRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	who, _ := actor.From(c.Request().Context())
	out, err := h.s.Create(c.Request().Context(), who, in)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) revoke(c echo.Context) error {
	if err := h.s.Revoke(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// Bearer returns the token a request carries in its Authorization header
// ("Bearer <value>"), or "".
func Bearer(r *http.Request) string {
	h := r.Header.Get(echo.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// Guard authenticates requests that carry a bearer token and no cookie,
// and hands every other request to session (the admin-session guard). A
// request with the session cookie is a browser's and is judged by its
// session; it also keeps the CSRF check (httpapi). The actor goes into the
// request context, like the session guard's. Failures answer 401, or 429
// with Retry-After (set by the error handler) once the address is blocked.
func (h *Handler) Guard(session echo.MiddlewareFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		bySession := session(next)
		return func(c echo.Context) error {
			r := c.Request()
			value := Bearer(r)
			if value == "" || r.Header.Get("Cookie") != "" {
				return bySession(c)
			}
			a, err := h.s.Authenticate(r.Context(), value, c.RealIP())
			if err != nil {
				return err
			}
			c.SetRequest(r.WithContext(actor.With(r.Context(), a)))
			return next(c)
		}
	}
}
