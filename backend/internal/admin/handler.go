package admin

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// CookieName is the admin session cookie.
const CookieName = "gatehouse_admin"

const userKey = "admin.user"

// Handler serves /api/admin/*.
type Handler struct{ svc *Service }

// NewHandler returns the admin handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

type credentialsRequest struct {
	Username string `json:"username" validate:"required"`
	Password string `json:"password" validate:"required"`
}

type userResponse struct {
	User User `json:"user"`
}

// Register mounts the routes on the /api group.
func (h *Handler) Register(g *echo.Group) {
	g.POST("/admin/setup", h.setup)
	g.POST("/admin/login", h.login)
	g.POST("/admin/logout", h.logout)
	g.GET("/admin/me", h.me)
}

func (h *Handler) setup(c echo.Context) error {
	var req credentialsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	u, token, err := h.svc.SetupAndLogin(c.Request().Context(), req.Username, req.Password)
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
	u, token, err := h.svc.Login(c.Request().Context(), req.Username, req.Password, c.RealIP())
	if e, ok := apperr.As(err); ok && e.Code == apperr.CodeRateLimited {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())))
	}
	if err != nil {
		return err
	}
	setCookie(c, token, int(SessionTTL.Seconds()))
	return c.JSON(http.StatusOK, userResponse{User: u})
}

func (h *Handler) logout(c echo.Context) error {
	if ck, err := c.Cookie(CookieName); err == nil {
		if err := h.svc.Logout(c.Request().Context(), ck.Value); err != nil {
			return err
		}
	}
	setCookie(c, "", -1)
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) me(c echo.Context) error {
	u, ok := c.Get(userKey).(User)
	if !ok {
		return apperr.Unauthenticated("sign in required")
	}
	return c.JSON(http.StatusOK, userResponse{User: u})
}

// RequireSession is the guard for every non-public /api route: it answers 401
// unless the request carries a valid admin session cookie.
func (h *Handler) RequireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(CookieName)
		if err != nil || ck.Value == "" {
			return apperr.Unauthenticated("sign in required")
		}
		u, err := h.svc.Authenticate(c.Request().Context(), ck.Value)
		if err != nil {
			return err
		}
		c.Set(userKey, u)
		return next(c)
	}
}

// setCookie writes the session cookie: HttpOnly, SameSite=Strict, and Secure
// whenever the browser reached us over HTTPS (directly or through the proxy).
func setCookie(c echo.Context, token string, maxAge int) {
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the browser used https; a plain-HTTP panel needs the cookie too
		Name: CookieName, Value: token, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: c.Scheme() == "https",
	})
}
