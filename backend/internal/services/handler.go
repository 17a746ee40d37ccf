package services

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

// Handler serves /api/services.
type Handler struct{ svc *Service }

// NewHandler returns the services handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/services", h.list)
	r.POST("/services", h.create)
	r.GET("/services/:id", h.get)
	r.PUT("/services/:id", h.update)
	r.PATCH("/services/:id", h.patch)
	r.DELETE("/services/:id", h.delete)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	if !viewmask.Hides(c.Request().Context()) {
		return httpx.JSONList(c, items)
	}
	hidden := make([]any, len(items))
	for i := range items {
		if hidden[i], err = ViewerHidden.ApplyTo(items[i]); err != nil {
			return err
		}
	}
	return httpx.JSONList(c, hidden)
}

func (h *Handler) get(c echo.Context) error {
	r, err := h.svc.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if !viewmask.Hides(c.Request().Context()) {
		return c.JSON(http.StatusOK, r)
	}
	v, err := ViewerHidden.ApplyTo(r)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// HiddenValue stands for a header value a viewer may not read.
const HiddenValue = viewmask.Hidden

// ViewerHidden are the fields of a service a viewer may not read: the
// values of the headers sent upstream, which often carry an upstream's
// credentials (an API key, a bearer token). Names stay, so the viewer sees
// what is set. The audit log hides the same fields from viewers.
var ViewerHidden = viewmask.Paths{"headers.*"}

func (h *Handler) create(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, r)
}

func (h *Handler) update(c echo.Context) error {
	var req Request
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.svc.Update(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}

// patchRequest is the body of PATCH /api/services/{id}: only the fields that
// change on their own (today: enabled).
type patchRequest struct {
	Enabled *bool `json:"enabled" validate:"required"`
}

func (h *Handler) patch(c echo.Context) error {
	var req patchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.svc.SetEnabled(c.Request().Context(), c.Param("id"), *req.Enabled)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
