package system

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Handler serves GET /api/system/info (admin-only: not public; a viewer
// may read it).
type Handler struct{ svc *Service }

// NewHandler returns the system handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the route on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/system/info", h.info)
}

func (h *Handler) info(c echo.Context) error {
	v, err := h.svc.Info(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// apiFragment holds this package's part of the API description.
//
//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description.
func (*Handler) OpenAPI() fs.FS { return apiFragment }
