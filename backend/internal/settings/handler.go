package settings

import (
	"context"
	"net"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/config.
type Handler struct {
	svc *Service
	// providerReady says whether the OpenID provider is set up and on.
	providerReady func(ctx context.Context) (bool, error)
}

// NewHandler returns the settings handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// WithProvider lets the portal's page offer "Sign in with …" only while
// the OpenID provider is set up and switched on (ready, owned by forward-auth).
func (h *Handler) WithProvider(ready func(ctx context.Context) (bool, error)) *Handler {
	h.providerReady = ready
	return h
}

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/config", h.get)
	r.PUT("/config", h.put)
	r.GET("/portal", h.portalInfo, route.Public.Because("the portal's pages read its name, logo and colour before anyone signs in"), route.Portal)
	r.GET("/config/portal", h.getPortal)
	r.PUT("/config/portal", h.putPortal, route.PersonOnly.Because("the sign-in portal's host and session lifetimes decide where and for how long people sign in"))
}

// portalInfo says whether the request reached the portal's host (the
// single-page app then shows only the portal) and how the portal looks.
func (h *Handler) portalInfo(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := h.svc.Portal(ctx)
	if err != nil {
		return err
	}
	info := PortalInfo{
		Portal: route.OnPortal(ctx), Name: p.Name, Logo: p.Logo, AccentColor: p.AccentColor,
		Passkeys: p.Host != "" && net.ParseIP(p.Host) == nil,
	}
	if p.ProviderSignIn && h.providerReady != nil {
		if ok, err := h.providerReady(ctx); err == nil && ok {
			info.Provider = p.ProviderName
		}
	}
	return c.JSON(http.StatusOK, info)
}

func (h *Handler) getPortal(c echo.Context) error {
	p, err := h.svc.Portal(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) putPortal(c echo.Context) error {
	var p Portal
	if err := httpx.Bind(c, &p); err != nil {
		return err
	}
	p, err := h.svc.PutPortal(c.Request().Context(), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) get(c echo.Context) error {
	g, err := h.svc.Get(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *Handler) put(c echo.Context) error {
	var g Global
	if err := httpx.Bind(c, &g); err != nil {
		return err
	}
	g, err := h.svc.Put(c.Request().Context(), g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}
