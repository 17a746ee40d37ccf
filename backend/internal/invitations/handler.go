package invitations

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/invitations and /api/password-reset.
type Handler struct{ svc *Service }

// NewHandler returns the invitations handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Service returns the handler's service (tests settle its mail).
func (h *Handler) Service() *Service { return h.svc }

// Register mounts the routes. An invitation is a way in: only a person
// with the admin role makes or revokes one, never an API token. The pages
// a person opens from a link answer without a session, on the portal's
// host too: the token in the body is their guard.
func (h *Handler) Register(r *route.Registrar) {
	invite := route.PersonOnly.Because("an invitation creates a way to sign in")
	r.GET("/invitations", h.list)
	r.POST("/invitations", h.create, invite)
	r.DELETE("/invitations/:id", h.revoke, invite)

	link := route.Public.Because("the one-use invitation token in the body is the guard")
	r.POST("/invitations/preview", h.preview, link, route.Portal)
	r.POST("/invitations/passkey", h.passkey, link, route.Portal)
	r.POST("/invitations/accept", h.accept, link, route.Portal)

	reset := route.Public.Because("a person who forgot their password has no session; rate limited, never tells who exists")
	r.GET("/password-reset", h.resetAvailable, reset, route.Portal)
	r.POST("/password-reset/request", h.forgot, reset, route.Portal)
	r.POST("/password-reset/check", h.checkReset, reset, route.Portal)
	r.POST("/password-reset", h.reset, reset, route.Portal)

	r.GET("/registration/settings", h.registrationSettings)
	r.PUT("/registration/settings", h.setRegistrationSettings,
		route.PersonOnly.Because("self-registration opens a way to sign in"))
	join := route.Public.Because("a visitor has no account yet; rate limited, never tells who exists")
	r.GET("/registration", h.registrationAvailable, join, route.Portal)
	r.POST("/registration", h.register, join, route.Portal)
}

func (h *Handler) registrationSettings(c echo.Context) error {
	out, err := h.svc.RegistrationSettings(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) setRegistrationSettings(c echo.Context) error {
	var req RegistrationSettings
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.SetRegistrationSettings(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) registrationAvailable(c echo.Context) error {
	return c.JSON(http.StatusOK, RegistrationAvailability{Available: h.svc.RegistrationOpen(c.Request().Context())})
}

func (h *Handler) register(c echo.Context) error {
	var req RegisterRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.Register(c.Request().Context(), req, clientIP(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusAccepted)
}

//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description.
func (*Handler) OpenAPI() fs.FS { return apiFragment }

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

func (h *Handler) revoke(c echo.Context) error {
	if err := h.svc.Revoke(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) preview(c echo.Context) error {
	var req TokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.Preview(c.Request().Context(), req.Token)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) passkey(c echo.Context) error {
	var req TokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.BeginPasskey(c.Request().Context(), req.Token, clientIP(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) accept(c echo.Context) error {
	var req AcceptRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.Accept(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) resetAvailable(c echo.Context) error {
	return c.JSON(http.StatusOK, ResetAvailability{Available: h.svc.ResetAvailable(c.Request().Context())})
}

func (h *Handler) forgot(c echo.Context) error {
	var req ForgotRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.Forgot(c.Request().Context(), req.Login, clientIP(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusAccepted)
}

func (h *Handler) checkReset(c echo.Context) error {
	var req TokenRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.CheckReset(c.Request().Context(), req.Token); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) reset(c echo.Context) error {
	var req ResetRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.Reset(c.Request().Context(), req); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// clientIP bounds the client's address before it keys a limiter.
func clientIP(c echo.Context) string {
	ip := c.RealIP()
	if len(ip) > 64 {
		ip = ip[:64]
	}
	return ip
}
