package domains

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/domains.
type Handler struct{ svc *Service }

// NewHandler returns the domains handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/domains", h.list)
	r.POST("/domains", h.create)
	r.GET("/domains/:id", h.get)
	r.PUT("/domains/:id", h.update)
	r.DELETE("/domains/:id", h.delete)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}

func (h *Handler) get(c echo.Context) error {
	d, err := h.svc.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (h *Handler) create(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, d)
}

func (h *Handler) update(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.svc.Update(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
