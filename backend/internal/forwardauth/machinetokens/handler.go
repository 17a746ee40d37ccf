package machinetokens

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/machine-tokens.
type Handler struct{ s *Service }

// NewHandler returns the machine-token handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/machine-tokens", h.list)
	r.POST("/machine-tokens", h.create)
	r.GET("/machine-tokens/:id", h.get)
	r.POST("/machine-tokens/:id/revoke", h.revoke)
	r.DELETE("/machine-tokens/:id", h.delete)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.s.List(c.Request().Context(), c.QueryParam("serviceId"))
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
	out, err := h.s.Create(c.Request().Context(), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) get(c echo.Context) error {
	t, err := h.s.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t)
}

func (h *Handler) revoke(c echo.Context) error {
	t, err := h.s.Revoke(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.s.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
