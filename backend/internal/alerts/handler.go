package alerts

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/alerts.
type Handler struct{ svc *Service }

// NewHandler returns the alerts handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group: administrators write,
// viewers read (the default class).
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/alerts/rules", h.list)
	r.POST("/alerts/rules", h.create)
	r.GET("/alerts/rules/:id", h.get)
	r.PUT("/alerts/rules/:id", h.update)
	r.DELETE("/alerts/rules/:id", h.delete)
	r.GET("/alerts/events", h.events)
}

func (h *Handler) list(c echo.Context) error {
	items, err := h.svc.ListRules(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}

func (h *Handler) get(c echo.Context) error {
	r, err := h.svc.GetRule(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}

func (h *Handler) create(c echo.Context) error {
	var req RuleRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.svc.CreateRule(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, r)
}

func (h *Handler) update(c echo.Context) error {
	var req RuleRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r, err := h.svc.UpdateRule(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.DeleteRule(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) events(c echo.Context) error {
	f := EventFilter{RuleID: c.QueryParam("ruleId"), ServiceID: c.QueryParam("serviceId"), State: State(c.QueryParam("state"))}
	var col apperr.Collector
	if len(f.RuleID) > maxIDLen {
		col.Add("ruleId", "must be a rule's id (at most %d characters)", maxIDLen)
	}
	if len(f.ServiceID) > maxIDLen {
		col.Add("serviceId", "must be a service's id (at most %d characters)", maxIDLen)
	}
	switch f.State {
	case "", Firing, Resolved:
	default:
		col.Add("state", "must be firing or resolved")
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxEventList {
			col.Add("limit", "must be a number between 1 and %d", maxEventList)
		}
		f.Limit = n
	}
	if err := col.Err(); err != nil {
		return err
	}
	items, err := h.svc.ListEvents(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}
