package clients

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/oidc/clients and /api/oidc/presets.
type Handler struct{ s *Service }

// NewHandler returns the clients handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group. Reads show no secret or
// hash, so viewers and tokens may make them. Writes are the
// administrators' own: a client decides which apps people sign in to, who
// may, and holds a secret that outlives the token that made it, so no API
// token may write one (and a token's import may not either).
func (h *Handler) Register(r *route.Registrar) {
	governs := route.PersonOnly.Because("OpenID Connect clients decide which apps people sign in to and who may, " +
		"and their secrets outlive the token that would make them")
	r.GET("/oidc/clients", h.list)
	r.POST("/oidc/clients", h.create, governs)
	r.GET("/oidc/clients/:id", h.get)
	r.PUT("/oidc/clients/:id", h.update, governs)
	r.DELETE("/oidc/clients/:id", h.delete, governs)
	r.POST("/oidc/clients/:id/secret", h.rotate, governs)
	r.GET("/oidc/presets", h.presets)
}

func (h *Handler) list(c echo.Context) error {
	out, err := h.s.List(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) get(c echo.Context) error {
	out, err := h.s.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) create(c echo.Context) error {
	var in Input
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	out, err := h.s.Create(c.Request().Context(), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) update(c echo.Context) error {
	var in Input
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	out, err := h.s.Update(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.s.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) rotate(c echo.Context) error {
	out, err := h.s.RotateSecret(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) presets(c echo.Context) error {
	return c.JSON(http.StatusOK, PresetList{Items: Presets()})
}

// apiFragment holds this package's part of the API description, merged
// into /api/openapi.json.
//
//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description. It reads
// nothing of the handler: a nil one describes the API too.
func (*Handler) OpenAPI() fs.FS { return apiFragment }
