package admin

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// registerUsers mounts the administrators' management routes: the role
// check in httpapi lets the admin role write them, and no API token.
func (h *Handler) registerUsers(r *route.Registrar) {
	governs := route.PersonOnly.Because("administrators, their roles and passwords")
	r.GET("/admin/users", h.listUsers)
	r.POST("/admin/users", h.createUser, governs)
	r.GET("/admin/users/:id", h.getUser)
	r.PATCH("/admin/users/:id", h.updateUser, governs)
	r.DELETE("/admin/users/:id", h.deleteUser, governs)
	r.PUT("/admin/users/:id/password", h.setUserPassword, governs)
}

type accountsResponse struct {
	Items []Account `json:"items"`
}

func (h *Handler) listUsers(c echo.Context) error {
	items, err := h.svc.ListUsers(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accountsResponse{Items: items})
}

func (h *Handler) createUser(c echo.Context) error {
	var in CreateUserRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	a, err := h.svc.CreateUser(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, a)
}

func (h *Handler) getUser(c echo.Context) error {
	a, err := h.svc.GetUser(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

func (h *Handler) updateUser(c echo.Context) error {
	var in UpdateUserRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	a, err := h.svc.UpdateUser(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

func (h *Handler) deleteUser(c echo.Context) error {
	if err := h.svc.DeleteUser(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) setUserPassword(c echo.Context) error {
	var in SetPasswordRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if err := h.svc.SetUserPassword(c.Request().Context(), c.Param("id"), in.Password); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
