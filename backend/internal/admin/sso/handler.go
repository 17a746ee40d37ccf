package sso

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

// Handler serves /api/admin/sso*.
type Handler struct{ s *Service }

// NewHandler returns the handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group. The sign-in flow's two
// routes are public: each has its own guard.
func (h *Handler) Register(r *route.Registrar) {
	r.GET(StartPath[len("/api"):], h.s.start,
		route.Public.Because("administrators' SSO sign-in: starts at the OpenID provider"))
	r.GET(CallbackPath[len("/api"):], h.s.callback,
		route.Public.Because("administrators' SSO sign-in: state, PKCE and nonce checked, then a session"))
	r.GET(PortalStartPath[len("/api"):], h.s.portalStart, route.Portal,
		route.Public.Because("people's sign-in on the portal with the OpenID provider: starts at the provider"))
	r.GET(PortalCallbackPath[len("/api"):], h.s.portalCallback, route.Portal,
		route.Public.Because("people's sign-in on the portal with the OpenID provider: state, PKCE and nonce checked, then a portal session"))
	r.GET("/admin/sso", h.get)
	r.PUT("/admin/sso", h.put, route.PersonOnly.Because(
		"administrators' single sign-on: who it admits, which administrators it creates, local passwords"))
}

// ViewerHidden says what viewers may not read: the settings page refuses viewers (adminOnly), so the
// audit log hides every value of its changes from them too.
var ViewerHidden = viewmask.Whole

// adminOnly refuses viewers: these settings decide who administers the panel.
func adminOnly(c echo.Context) error {
	if a, ok := actor.From(c.Request().Context()); !ok || a.Role != actor.RoleAdmin {
		return apperr.Forbidden("only an administrator with the admin role can change the panel's sign-in")
	}
	return nil
}

func (h *Handler) get(c echo.Context) error {
	if err := adminOnly(c); err != nil {
		return err
	}
	out, err := h.s.Get(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) put(c echo.Context) error {
	if err := adminOnly(c); err != nil {
		return err
	}
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.Put(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}
