package apppasswords

import (
	"context"
	"embed"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Handler serves a person's own app passwords (/api/admin/me/app-passwords,
// on the panel and the portal) and an administrator's view of anyone's
// (/api/people/{id}/app-passwords).
type Handler struct{ svc *Service }

// NewHandler returns the app passwords handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes. A person manages their own (any panel role,
// never an API token: a token is not a person); administrators list and
// revoke anyone's, and no token may revoke, as revoking is a person's call.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/admin/me/app-passwords", h.listOwn, route.SelfService, route.Portal)
	r.POST("/admin/me/app-passwords", h.createOwn, route.SelfService, route.Portal)
	r.DELETE("/admin/me/app-passwords/:id", h.revokeOwn, route.SelfService, route.Portal)
	r.GET("/people/:id/app-passwords", h.list)
	r.DELETE("/people/:id/app-passwords/:passwordId", h.revoke,
		route.PersonOnly.Because("app passwords let a person's clients in"))
}

//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description.
func (*Handler) OpenAPI() fs.FS { return apiFragment }

type listResponse struct {
	Items []AppPassword `json:"items"`
}

type createRequest struct {
	Name string `json:"name"`
}

// self is the signed-in person's id.
func self(ctx context.Context) (string, error) {
	a, ok := actor.From(ctx)
	if !ok || a.Kind != actor.KindAdmin || a.ID == "" {
		return "", apperr.Unauthenticated("sign in required")
	}
	return a.ID, nil
}

func (h *Handler) listOwn(c echo.Context) error {
	id, err := self(c.Request().Context())
	if err != nil {
		return err
	}
	return h.listOf(c, id)
}

func (h *Handler) listOf(c echo.Context, personID string) error {
	items, err := h.svc.List(c.Request().Context(), personID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, listResponse{Items: items})
}

func (h *Handler) createOwn(c echo.Context) error {
	id, err := self(c.Request().Context())
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.Create(c.Request().Context(), id, req.Name)
	if err != nil {
		return err
	}
	audit.Changed(c.Request().Context(), nil, out.AppPassword)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) revokeOwn(c echo.Context) error {
	id, err := self(c.Request().Context())
	if err != nil {
		return err
	}
	if err := h.svc.Revoke(c.Request().Context(), id, boundedID(c.Param("id"))); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) list(c echo.Context) error {
	personID := boundedID(c.Param("id"))
	if err := h.svc.personExists(c.Request().Context(), personID); err != nil {
		return err
	}
	return h.listOf(c, personID)
}

func (h *Handler) revoke(c echo.Context) error {
	err := h.svc.Revoke(c.Request().Context(), boundedID(c.Param("id")), boundedID(c.Param("passwordId")))
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// boundedID keeps an oversized path parameter out of queries: no id is
// longer than 64 characters, so such a parameter finds nothing.
func boundedID(s string) string {
	if len(s) > 64 {
		return ""
	}
	return s
}

func (s *Service) personExists(ctx context.Context, id string) error {
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.Person{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("person")
	}
	return nil
}
