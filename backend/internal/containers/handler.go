package containers

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/containers.
type Handler struct{ svc *Service }

// NewHandler returns the containers handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// apiFragment holds this package's part of the API description.
//
//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description.
func (*Handler) OpenAPI() fs.FS { return apiFragment }

// Register mounts the routes on the /api group. The engine itself is never
// reachable through them: they answer what the panel read of it.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/containers", h.list, route.SecretRead.Because(
		"containers' labels often carry other tools' credentials (basic-auth hashes, API keys)"))
	r.POST("/containers/services", h.create)
	r.GET("/containers/bindings", h.bindings)
	r.DELETE("/containers/bindings/:serviceId", h.detach)
}

func (h *Handler) list(c echo.Context) error {
	out, err := h.svc.List(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) create(c echo.Context) error {
	var req CreateRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.Create(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) bindings(c echo.Context) error {
	items, err := h.svc.Bindings(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, items)
}

func (h *Handler) detach(c echo.Context) error {
	if err := h.svc.Detach(c.Request().Context(), c.Param("serviceId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
