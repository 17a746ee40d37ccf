package forwardauth

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler mounts forward-auth's routes: the public sign-in flow
// (/api/auth/sso/*) and the admin API.
type Handler struct{ s *Service }

// NewHandler returns the access handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Register mounts the routes on the /api group. The forward-auth endpoint
// (contract.VerifyPath) is not among them: Service.FastVerify answers it in
// front of the API, before any of the API's middleware.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/auth/sso/start", h.s.ssoStart, route.Public.Because("end-user sign-in: starts at the OpenID provider"))
	r.GET(contract.SSOCallbackPath[len("/api"):], h.s.ssoCallback,
		route.Public.Because("end-user sign-in: the provider's redirect back (state, PKCE and nonce checked)"))

	r.GET(EmailCodePath[len("/api"):], h.s.emailCodeStart,
		route.Public.Because("visitors' e-mail code sign-in: the page asking for an address"))
	r.POST(EmailCodePath[len("/api"):]+"/send", h.s.emailCodeSend,
		route.Public.Because("visitors' e-mail code sign-in: limited per address and per client, same answer for every address"))
	r.POST(EmailCodePath[len("/api"):]+"/verify", h.s.emailCodeVerify,
		route.Public.Because("visitors' e-mail code sign-in: codes single-use, limited per code, address and client"))

	r.GET(PortalContinuePath[len("/api"):], h.s.portalContinue,
		route.Public.Because("people sign-in: the portal's hop to a service (reads the portal session, mints a one-time exchange)"),
		route.Portal)
	r.GET("/portal/services", h.s.portalServices,
		route.Public.Because("the portal's launcher: answers only a person signed in on the portal (read through Deps.Portal)"),
		route.Portal)
	r.GET("/portal/sessions", h.s.portalSessions,
		route.Public.Because("the person's own sessions on the services: answers only a person signed in on the portal (read through Deps.Portal)"),
		route.Portal)
	r.DELETE("/portal/sessions/:id", h.s.endPortalSession,
		route.Public.Because("signing out of one service: only a session of the person signed in on the portal (read through Deps.Portal)"),
		route.Portal)

	r.GET("/services/:id/security-configs", h.listSecurity)
	r.POST("/services/:id/security-configs", h.upsertSecurity)
	r.DELETE("/services/:id/security-configs/:type", h.deleteSecurity)
	r.GET("/services/:id/protection", h.getProtection)
	r.PUT("/services/:id/protection", h.putProtection)

	r.GET("/credential-sets", h.listSets)
	r.POST("/credential-sets", h.createSet)
	r.GET("/credential-sets/:id", h.getSet)
	r.PUT("/credential-sets/:id", h.updateSet)
	r.DELETE("/credential-sets/:id", h.deleteSet)

	r.GET("/sso", h.getSSO)
	r.PUT("/sso", h.putSSO,
		route.PersonOnly.Because("the OpenID provider, which admits administrators when panel single sign-on is on"))

	r.GET("/services/:id/shared-links", h.listLinks)
	r.POST("/services/:id/shared-links", h.createLink)
	r.DELETE("/services/:id/shared-links/:linkId", h.revokeLink)

	r.GET("/sessions", h.listSessions)
	r.DELETE("/sessions", h.deleteSessions)
	r.DELETE("/sessions/:id", h.deleteSession)
}

func (h *Handler) listSecurity(c echo.Context) error {
	out, err := h.s.ListSecurityConfigs(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return httpx.JSONList(c, out)
}

func (h *Handler) upsertSecurity(c echo.Context) error {
	if err := h.s.writable(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	var req SecurityConfigRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.UpsertSecurityConfig(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) deleteSecurity(c echo.Context) error {
	if err := h.s.writable(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	if err := h.s.DeleteSecurityConfig(c.Request().Context(), c.Param("id"), c.Param("type")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) getProtection(c echo.Context) error {
	out, err := h.s.GetProtection(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) putProtection(c echo.Context) error {
	if err := h.s.writable(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	var req Protection
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.PutProtection(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) listSets(c echo.Context) error {
	out, err := h.s.ListCredentialSets(c.Request().Context())
	if err != nil {
		return err
	}
	return httpx.JSONList(c, out)
}

func (h *Handler) getSet(c echo.Context) error {
	out, err := h.s.GetCredentialSet(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) createSet(c echo.Context) error {
	var req CredentialSetRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.SaveCredentialSet(c.Request().Context(), "", req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) updateSet(c echo.Context) error {
	var req CredentialSetRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.SaveCredentialSet(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) deleteSet(c echo.Context) error {
	if err := h.s.DeleteCredentialSet(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) getSSO(c echo.Context) error {
	out, err := h.s.GetSSO(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) putSSO(c echo.Context) error {
	var req SSORequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.PutSSO(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

func (h *Handler) listLinks(c echo.Context) error {
	out, err := h.s.ListLinks(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return httpx.JSONList(c, out)
}

func (h *Handler) createLink(c echo.Context) error {
	var req CreateLinkRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.s.CreateLink(c.Request().Context(), c.Param("id"), req)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) revokeLink(c echo.Context) error {
	if err := h.s.RevokeLink(c.Request().Context(), c.Param("id"), c.Param("linkId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) listSessions(c echo.Context) error {
	out, err := h.s.ListSessions(c.Request().Context(), c.QueryParam("serviceId"))
	if err != nil {
		return err
	}
	return httpx.JSONList(c, out)
}

func (h *Handler) deleteSessions(c echo.Context) error {
	if err := h.s.DeleteSessions(c.Request().Context()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) deleteSession(c echo.Context) error {
	if err := h.s.DeleteSession(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
