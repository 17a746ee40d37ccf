package notify

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/notifications.
type Handler struct{ svc *Service }

// NewHandler returns the notifications handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/notifications/channels", h.list)
	r.POST("/notifications/channels", h.create)
	r.GET("/notifications/channels/:id", h.get)
	r.PUT("/notifications/channels/:id", h.update)
	r.DELETE("/notifications/channels/:id", h.delete)
	r.POST("/notifications/channels/:id/test", h.test)
	r.GET("/notifications/settings", h.getSettings)
	r.PUT("/notifications/settings", h.putSettings)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}

func (h *Handler) get(c echo.Context) error {
	ch, err := h.svc.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ch)
}

func (h *Handler) create(c echo.Context) error {
	var req ChannelRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	ch, err := h.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, ch)
}

func (h *Handler) update(c echo.Context) error {
	var req ChannelRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	ch, err := h.svc.Update(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ch)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) test(c echo.Context) error {
	res, err := h.svc.Test(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

func (h *Handler) getSettings(c echo.Context) error {
	st, err := h.svc.Settings(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) putSettings(c echo.Context) error {
	var req Settings
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	st, err := h.svc.PutSettings(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}
