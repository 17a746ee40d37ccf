package backup

import (
	"fmt"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/backups.
type Handler struct{ svc *Service }

// NewHandler returns the backups handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/backups", h.list)
	r.POST("/backups", h.create)
	r.PUT("/backups/schedule", h.putSchedule)
	r.GET("/backups/:name/download", h.download,
		route.SecretRead.Because("a backup archive holds the panel's age identity, which opens every sealed secret"))
	r.DELETE("/backups/:name", h.remove)
}

func (h *Handler) list(c echo.Context) error {
	ctx := c.Request().Context()
	sc, err := h.svc.Schedule(ctx)
	if err != nil {
		return err
	}
	list, err := h.svc.List(ctx)
	if err != nil {
		return err
	}
	st := Status{Directory: h.svc.Dir(), Schedule: sc, LastError: h.svc.LastError(), Backups: list}
	next, err := h.svc.Next(ctx)
	if err != nil {
		return err
	}
	if !next.IsZero() {
		st.Next = &next
	}
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) create(c echo.Context) error {
	e, err := h.svc.Create(c.Request().Context(), TriggerManual)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, e)
}

func (h *Handler) putSchedule(c echo.Context) error {
	var sc Schedule
	if err := httpx.Bind(c, &sc); err != nil {
		return err
	}
	sc, err := h.svc.PutSchedule(c.Request().Context(), sc)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sc)
}

func (h *Handler) download(c echo.Context) error {
	name := c.Param("name")
	path, err := h.svc.Path(name)
	if err != nil {
		return err
	}
	f, err := os.Open(path) //nolint:gosec // Path checked the name against the fixed pattern
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", name))
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set(echo.HeaderContentType, "application/gzip")
	http.ServeContent(c.Response(), c.Request(), name, fi.ModTime(), f)
	return nil
}

func (h *Handler) remove(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("name")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
