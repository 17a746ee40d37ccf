package admin

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// CookieName is the admin session cookie.
const CookieName = "gatehouse_admin"

const (
	userCtxKey    = "admin.user"
	sessionCtxKey = "admin.session"
)

// Handler serves /api/admin/*.
type Handler struct{ svc *Service }

// NewHandler returns the admin handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group. Every route under
// /admin/me, and signing out, is the signed-in administrator's own
// (route.SelfService).
func (h *Handler) Register(r *route.Registrar) {
	r.POST("/admin/setup", h.setup, route.Public.Because("first run: creates the first administrator, refused once one exists"))
	r.POST("/admin/login", h.login, route.Public.Because("the password is the credential"), route.Portal)
	r.POST("/admin/logout", h.logout, route.SelfService, route.Portal)
	r.GET("/admin/me", h.me, route.SelfService, route.Portal)
	r.PUT("/admin/me/password", h.changePassword, route.SelfService, route.Portal)
	r.GET("/admin/me/sessions", h.sessions, route.SelfService, route.Portal)
	r.DELETE("/admin/me/sessions", h.endOtherSessions, route.SelfService, route.Portal)
	r.DELETE("/admin/me/sessions/:id", h.endSession, route.SelfService, route.Portal)
	h.registerTwoFactor(r)
}

func client(c echo.Context) Client {
	return Client{Address: c.RealIP(), UserAgent: c.Request().UserAgent(), Remember: c.QueryParam("remember") == "1"}
}

func (h *Handler) setup(c echo.Context) error {
	var req credentialsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	u, token, err := h.svc.SetupAndLogin(c.Request().Context(), req.Username, req.Password, client(c))
	if err != nil {
		return err
	}
	setCookie(c, token, int(SessionTTL.Seconds()))
	return c.JSON(http.StatusCreated, userResponse{User: u})
}

func (h *Handler) login(c echo.Context) error {
	var req credentialsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	u, token, err := h.svc.Login(c.Request().Context(), req.Username, req.Password, client(c))
	if sf, ok := errors.AsType[*SecondFactorRequired](err); ok {
		return secondFactorDue(c, sf)
	}
	if e, ok := apperr.As(err); ok && e.Code == apperr.CodeRateLimited {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())))
	}
	if err != nil {
		return err
	}
	h.sessionCookie(c, token)
	return c.JSON(http.StatusOK, userResponse{User: u})
}

// logout ends this session. On the portal ?everywhere=1 ends every portal
// session of the person (sign out everywhere), and with them the service
// sessions they opened.
func (h *Handler) logout(c echo.Context) error {
	ctx := c.Request().Context()
	if c.QueryParam("everywhere") == "1" && route.OnPortal(ctx) {
		u, _, err := current(c)
		if err != nil {
			return err
		}
		if err := h.svc.EndPortalSessionsOf(ctx, u.ID); err != nil {
			return err
		}
		setCookie(c, "", -1)
		return c.NoContent(http.StatusNoContent)
	}
	if ck, err := c.Cookie(CookieName); err == nil {
		if err := h.svc.Logout(c.Request().Context(), ck.Value); err != nil {
			return err
		}
	}
	setCookie(c, "", -1)
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) me(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, userResponse{User: u})
}

func (h *Handler) changePassword(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	var req passwordRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.ChangePassword(c.Request().Context(), u, sess, req.CurrentPassword, req.NewPassword, c.RealIP()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) sessions(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	items, err := h.svc.Sessions(c.Request().Context(), u.ID, sess)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sessionsResponse{Items: items})
}

func (h *Handler) endOtherSessions(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	if err := h.svc.EndOtherSessions(c.Request().Context(), u.ID, sess); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// endSession ends one session; ending the current one signs this browser out.
func (h *Handler) endSession(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if err := h.svc.EndSession(c.Request().Context(), u.ID, id); err != nil {
		return err
	}
	if id == sess {
		setCookie(c, "", -1)
	}
	return c.NoContent(http.StatusNoContent)
}

// current is the administrator and session RequireSession resolved.
func current(c echo.Context) (User, string, error) {
	u, ok := c.Get(userCtxKey).(User)
	if !ok {
		return User{}, "", apperr.Unauthenticated("sign in required")
	}
	sess, _ := c.Get(sessionCtxKey).(string)
	return u, sess, nil
}

// RequireSession is the guard for every non-public /api route: it answers 401
// unless the request carries a valid admin session cookie.
func (h *Handler) RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(CookieName)
		if err != nil || ck.Value == "" {
			return apperr.Unauthenticated("sign in required")
		}
		u, sess, err := h.svc.authenticate(c.Request().Context(), ck.Value)
		if err != nil {
			return err
		}
		c.Set(userCtxKey, u)
		c.Set(sessionCtxKey, sess)
		r := c.Request()
		c.SetRequest(r.WithContext(actor.With(r.Context(), actor.Actor{
			Kind: actor.KindAdmin, ID: u.ID, Name: u.Username, Role: u.Role, Address: c.RealIP(),
		})))
		return next(c)
	}
}

// sessionCookie writes the cookie of a session just opened. On the portal
// a session that asked to be remembered keeps its cookie across browser
// restarts, for the remember-me length; any other portal session's cookie
// ends with the browser (the server ends the session itself).
func (h *Handler) sessionCookie(c echo.Context, token string) {
	ctx := c.Request().Context()
	if !route.OnPortal(ctx) {
		setCookie(c, token, int(SessionTTL.Seconds()))
		return
	}
	maxAge := 0
	if client(c).Remember {
		maxAge = int(h.svc.portalPolicy(ctx).Remember.Seconds())
	}
	setCookie(c, token, maxAge)
}

// setCookie writes the session cookie: HttpOnly, SameSite=Strict, and Secure
// whenever the browser reached us over HTTPS (directly or through the proxy).
func setCookie(c echo.Context, token string, maxAge int) {
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the browser used https; a plain-HTTP panel needs the cookie too
		Name: CookieName, Value: token, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: c.Scheme() == "https",
	})
}
