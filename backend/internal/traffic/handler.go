package traffic

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Handler serves the traffic history.
type Handler struct{ s *Service }

// NewHandler returns the traffic handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group: reads for administrators
// and viewers alike.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/traffic", h.global)
	r.GET("/traffic/services", h.services)
	r.GET("/services/:id/traffic", h.service)
}

func (h *Handler) global(c echo.Context) error { return h.answer(c, Global) }

func (h *Handler) service(c echo.Context) error {
	id := c.Param("id")
	if err := serviceID(id); err != nil {
		return err
	}
	// An id that is no service has no history to show: 404, not an empty
	// chart that reads as "no traffic yet".
	if h.s.d.Services != nil {
		ok, err := h.s.d.Services.Exists(c.Request().Context(), id)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.NotFound("service")
		}
	}
	return h.answer(c, id)
}

func (h *Handler) answer(c echo.Context, id string) error {
	from, to, err := window(c.QueryParams().Get, h.s.d.Now())
	if err != nil {
		return err
	}
	out, err := h.s.Query(c.Request().Context(), id, from, to)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) services(c echo.Context) error {
	from, to, err := window(c.QueryParams().Get, h.s.d.Now())
	if err != nil {
		return err
	}
	points, err := listPoints(c.QueryParam("points"))
	if err != nil {
		return err
	}
	out, err := h.s.Services(c.Request().Context(), from, to, points)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}
