package access

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves the access-rule API.
type Handler struct{ s *Service }

// NewHandler returns the access-rule handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/services/:id/access", h.get)
	r.PUT("/services/:id/access", h.put)
	r.POST("/services/:id/access/test", h.test)
	r.GET("/access/rules", h.getGlobal)
	r.PUT("/access/rules", h.putGlobal)
	r.GET("/access/presets", h.presets)
}

func (h *Handler) get(c echo.Context) error {
	out, err := h.s.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) put(c echo.Context) error {
	if err := h.s.writable(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	var in PutServiceAccess
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	out, err := h.s.Put(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) test(c echo.Context) error {
	var in TestRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	out, err := h.s.Test(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) getGlobal(c echo.Context) error {
	out, err := h.s.GetGlobal(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) putGlobal(c echo.Context) error {
	var in GlobalRules
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	out, err := h.s.PutGlobal(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) presets(c echo.Context) error {
	return c.JSON(http.StatusOK, h.s.Presets())
}
