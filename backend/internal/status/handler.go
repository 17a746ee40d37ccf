package status

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Handler serves GET /api/proxy/status (admin-only: not public).
type Handler struct{ svc *Service }

// NewHandler returns the status handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the route on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/proxy/status", h.status)
	r.GET("/proxy/status/check", h.check)
}

func (h *Handler) check(c echo.Context) error {
	v, err := h.svc.Check(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (h *Handler) status(c echo.Context) error {
	v, err := h.svc.Status(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
