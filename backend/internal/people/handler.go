package people

import (
	"embed"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/people and /api/groups.
type Handler struct{ svc *Service }

// NewHandler returns the people handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes. Reads are open to viewers (a person holds no
// secret); every write changes who may sign in or what a person may reach,
// so the admin role makes it and no API token does.
func (h *Handler) Register(r *route.Registrar) {
	people := route.PersonOnly.Because("people, their roles, passwords, factors and sessions")
	r.GET("/people", h.list)
	r.POST("/people", h.create, people)
	r.GET("/people/:id", h.get)
	r.PATCH("/people/:id", h.update, people)
	r.DELETE("/people/:id", h.delete, people)
	r.PUT("/people/:id/password", h.setPassword, people)
	r.DELETE("/people/:id/second-factor", h.resetSecondFactor, people)
	r.DELETE("/people/:id/linked-identity", h.unlink, people)
	r.GET("/people/:id/sessions", h.sessions)
	r.DELETE("/people/:id/sessions", h.endSessions, people)
	r.DELETE("/people/:id/sessions/:sessionId", h.endSession, people)
	r.GET("/people/:id/service-sessions", h.serviceSessions)
	r.DELETE("/people/:id/service-sessions/:sessionId", h.endServiceSession, people)

	groups := route.PersonOnly.Because("groups decide what their members may reach")
	r.GET("/groups", h.listGroups)
	r.POST("/groups", h.createGroup, groups)
	r.GET("/groups/:id", h.getGroup)
	r.PATCH("/groups/:id", h.updateGroup, groups)
	r.DELETE("/groups/:id", h.deleteGroup, groups)
	r.POST("/groups/:id/members", h.addMember, groups)
	r.DELETE("/groups/:id/members/:personId", h.removeMember, groups)
}

//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description.
func (*Handler) OpenAPI() fs.FS { return apiFragment }

func (h *Handler) list(c echo.Context) error {
	q := ListQuery{Q: c.QueryParam("q"), PanelRole: c.QueryParam("panelRole"), GroupID: c.QueryParam("groupId")}
	var errs apperr.Collector
	q.Limit = intParam(c, &errs, "limit")
	if c.QueryParam("limit") != "" && q.Limit < 1 {
		errs.Add("limit", "must be between 1 and %d", MaxLimit)
	}
	q.Offset = intParam(c, &errs, "offset")
	if err := errs.Err(); err != nil {
		return err
	}
	page, err := h.svc.List(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page)
}

func intParam(c echo.Context, errs *apperr.Collector, name string) int {
	s := c.QueryParam(name)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 9 {
		errs.Add(name, "must be a whole number")
		return 0
	}
	return n
}

func (h *Handler) create(c echo.Context) error {
	var in CreateRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	p, err := h.svc.Create(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, p)
}

func (h *Handler) get(c echo.Context) error {
	p, err := h.svc.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) update(c echo.Context) error {
	var in UpdateRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	p, err := h.svc.Update(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) delete(c echo.Context) error {
	if err := h.svc.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) setPassword(c echo.Context) error {
	var in PasswordRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if err := h.svc.SetPassword(c.Request().Context(), c.Param("id"), in.Password); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) resetSecondFactor(c echo.Context) error {
	if err := h.svc.ResetSecondFactor(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) unlink(c echo.Context) error {
	p, err := h.svc.Unlink(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) sessions(c echo.Context) error {
	items, err := h.svc.Sessions(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, httpx.List[admin.Session]{Items: items})
}

func (h *Handler) endSessions(c echo.Context) error {
	if err := h.svc.EndSessions(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) endSession(c echo.Context) error {
	if err := h.svc.EndSession(c.Request().Context(), c.Param("id"), c.Param("sessionId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) listGroups(c echo.Context) error {
	items, err := h.svc.ListGroups(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, httpx.List[Group]{Items: items})
}

func (h *Handler) createGroup(c echo.Context) error {
	var in GroupRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	g, err := h.svc.CreateGroup(c.Request().Context(), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, g)
}

func (h *Handler) getGroup(c echo.Context) error {
	g, err := h.svc.GetGroup(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *Handler) updateGroup(c echo.Context) error {
	var in GroupRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	g, err := h.svc.UpdateGroup(c.Request().Context(), c.Param("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *Handler) deleteGroup(c echo.Context) error {
	if err := h.svc.DeleteGroup(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) addMember(c echo.Context) error {
	var in MemberRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	g, err := h.svc.AddMember(c.Request().Context(), c.Param("id"), in.PersonID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *Handler) removeMember(c echo.Context) error {
	if err := h.svc.RemoveMember(c.Request().Context(), c.Param("id"), c.Param("personId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) serviceSessions(c echo.Context) error {
	items, err := h.svc.ServiceSessions(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, httpx.List[forwardauth.SessionResponse]{Items: items})
}

func (h *Handler) endServiceSession(c echo.Context) error {
	if err := h.svc.EndServiceSession(c.Request().Context(), c.Param("id"), c.Param("sessionId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
