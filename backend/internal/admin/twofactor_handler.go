package admin

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

type codeRequest struct {
	Code string `json:"code" validate:"required,max=64"`
}

type disableTOTPRequest struct {
	Password string `json:"password"`
	Code     string `json:"code"`
}

type recoveryCodesResponse struct {
	RecoveryCodes []string `json:"recoveryCodes"`
}

type passkeysResponse struct {
	Items []Passkey `json:"items"`
}

type passkeyNameRequest struct {
	Name string `json:"name"`
}

type passkeyFinishRequest struct {
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential" validate:"required"`
}

type secondFactorResponse struct {
	SecondFactor struct {
		Methods []string `json:"methods"`
	} `json:"secondFactor"`
}

// registerTwoFactor mounts the two-factor routes: the signed-in
// administrator's own enrolment under /admin/me, the public sign-in steps
// under /admin/login, and the panel-wide policy under /admin/security.
func (h *Handler) registerTwoFactor(r *route.Registrar) {
	r.GET("/admin/me/2fa", h.twoFactorStatus, route.SelfService, route.Portal)
	r.POST("/admin/me/2fa/totp", h.beginTOTP, route.SelfService, route.Portal)
	r.POST("/admin/me/2fa/totp/confirm", h.confirmTOTP, route.SelfService, route.Portal)
	r.DELETE("/admin/me/2fa/totp", h.disableTOTP, route.SelfService, route.Portal)
	r.POST("/admin/me/2fa/recovery-codes", h.regenerateRecoveryCodes, route.SelfService, route.Portal)
	r.GET("/admin/me/passkeys", h.listPasskeys, route.SelfService, route.Portal)
	r.POST("/admin/me/passkeys/register/begin", h.beginPasskeyRegistration, route.SelfService, route.Portal)
	r.POST("/admin/me/passkeys/register/finish", h.finishPasskeyRegistration, route.SelfService, route.Portal)
	r.PATCH("/admin/me/passkeys/:id", h.renamePasskey, route.SelfService, route.Portal)
	r.DELETE("/admin/me/passkeys/:id", h.deletePasskey, route.SelfService, route.Portal)
	pending := route.Public.Because("second step: the pending sign-in's cookie is its guard")
	r.POST("/admin/login/totp", h.loginCode(MethodTOTP), pending, route.Portal)
	r.POST("/admin/login/recovery", h.loginCode(MethodRecovery), pending, route.Portal)
	r.POST("/admin/login/passkey/begin", h.beginPasskeyLogin,
		route.Public.Because("second step, or passwordless: returns a WebAuthn challenge"), route.Portal)
	r.POST("/admin/login/passkey/finish", h.finishPasskeyLogin, route.Public.Because("the WebAuthn assertion is the credential"), route.Portal)
	r.GET("/admin/security", h.security)
	r.PUT("/admin/security", h.setSecurity,
		route.PersonOnly.Because("the panel's sign-in security (two-factor for every administrator)"))
	r.POST("/admin/me/reauthenticate", h.reauthenticate, route.SelfService, route.Portal)
	r.POST("/admin/me/reauthenticate/passkey/begin", h.beginPasskeyReauth, route.SelfService, route.Portal)
	r.POST("/admin/me/reauthenticate/passkey/finish", h.finishPasskeyReauth, route.SelfService, route.Portal)
}

// fresh is the signed-in administrator and session, once the session has
// proved who it is within ProofTTL (else 403 reauthentication_required).
func (h *Handler) fresh(c echo.Context) (User, string, error) {
	u, sess, err := current(c)
	if err != nil {
		return u, sess, err
	}
	if err := h.svc.requireFreshProof(c.Request().Context(), sess); err != nil {
		return u, sess, err
	}
	return u, sess, nil
}

// secondFactorDue answers a right password whose administrator has a second
// factor: no session, the pending sign-in's cookie and the methods left.
func secondFactorDue(c echo.Context, sf *SecondFactorRequired) error {
	setChallengeCookie(c, sf.Token, int(ChallengeTTL.Seconds()))
	var res secondFactorResponse
	res.SecondFactor.Methods = sf.Methods
	return c.JSON(http.StatusOK, res)
}

func (h *Handler) twoFactorStatus(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	st, err := h.svc.TwoFactorStatus(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) beginTOTP(c echo.Context) error {
	u, _, err := h.fresh(c)
	if err != nil {
		return err
	}
	en, err := h.svc.BeginTOTP(c.Request().Context(), u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, en)
}

func (h *Handler) confirmTOTP(c echo.Context) error {
	u, _, err := h.fresh(c)
	if err != nil {
		return err
	}
	var req codeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	codes, err := h.svc.ConfirmTOTP(c.Request().Context(), u, req.Code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, recoveryCodesResponse{RecoveryCodes: codes})
}

func (h *Handler) disableTOTP(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	var req disableTOTPRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	err = h.svc.DisableTOTP(c.Request().Context(), u, req.Password, req.Code, c.RealIP())
	if err != nil {
		return withRetryAfter(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) regenerateRecoveryCodes(c echo.Context) error {
	u, _, err := h.fresh(c)
	if err != nil {
		return err
	}
	codes, err := h.svc.RegenerateRecoveryCodes(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, recoveryCodesResponse{RecoveryCodes: codes})
}

func (h *Handler) listPasskeys(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	items, err := h.svc.Passkeys(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, passkeysResponse{Items: items})
}

func (h *Handler) beginPasskeyRegistration(c echo.Context) error {
	u, _, err := h.fresh(c)
	if err != nil {
		return err
	}
	opts, tok, err := h.svc.BeginPasskeyRegistration(c.Request().Context(), u.ID, c.RealIP())
	if err != nil {
		return err
	}
	setChallengeCookie(c, tok, int(ChallengeTTL.Seconds()))
	return c.JSON(http.StatusOK, opts)
}

func (h *Handler) finishPasskeyRegistration(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	var req passkeyFinishRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.svc.FinishPasskeyRegistration(c.Request().Context(), u.ID, challengeToken(c), req.Name, req.Credential)
	setChallengeCookie(c, "", -1)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, p)
}

func (h *Handler) renamePasskey(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	var req passkeyNameRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.svc.RenamePasskey(c.Request().Context(), u.ID, c.Param("id"), req.Name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

func (h *Handler) deletePasskey(c echo.Context) error {
	u, _, err := h.fresh(c)
	if err != nil {
		return err
	}
	if err := h.svc.DeletePasskey(c.Request().Context(), u.ID, c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type reauthRequest struct {
	Password string `json:"password"`
	Code     string `json:"code"`
}

// reauthenticate takes a password or a current code as a new proof of who
// the session's administrator is.
func (h *Handler) reauthenticate(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	var req reauthRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.svc.Reauthenticate(c.Request().Context(), u, sess, req.Password, req.Code, c.RealIP()); err != nil {
		return withRetryAfter(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) beginPasskeyReauth(c echo.Context) error {
	u, _, err := current(c)
	if err != nil {
		return err
	}
	opts, tok, err := h.svc.BeginPasskeyReauth(c.Request().Context(), u.ID, c.RealIP())
	if err != nil {
		return err
	}
	setChallengeCookie(c, tok, int(ChallengeTTL.Seconds()))
	return c.JSON(http.StatusOK, opts)
}

func (h *Handler) finishPasskeyReauth(c echo.Context) error {
	u, sess, err := current(c)
	if err != nil {
		return err
	}
	var req passkeyLoginRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	err = h.svc.FinishPasskeyReauth(c.Request().Context(), u, sess, challengeToken(c), req.Credential, c.RealIP())
	setChallengeCookie(c, "", -1)
	if err != nil {
		return withRetryAfter(c, err)
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) loginCode(method string) echo.HandlerFunc {
	return func(c echo.Context) error {
		var req codeRequest
		if err := httpx.Bind(c, &req); err != nil {
			return err
		}
		u, tok, err := h.svc.LoginCode(c.Request().Context(), challengeToken(c), method, req.Code, client(c))
		if err != nil {
			return withRetryAfter(c, err)
		}
		return h.signedIn(c, u, tok)
	}
}

func (h *Handler) beginPasskeyLogin(c echo.Context) error {
	opts, tok, err := h.svc.BeginPasskeyLogin(c.Request().Context(), challengeToken(c), client(c))
	if err != nil {
		return err
	}
	setChallengeCookie(c, tok, int(ChallengeTTL.Seconds()))
	return c.JSON(http.StatusOK, opts)
}

type passkeyLoginRequest struct {
	Credential json.RawMessage `json:"credential" validate:"required"`
}

func (h *Handler) finishPasskeyLogin(c echo.Context) error {
	var req passkeyLoginRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	u, tok, err := h.svc.FinishPasskeyLogin(c.Request().Context(), challengeToken(c), req.Credential, client(c))
	if err != nil {
		return withRetryAfter(c, err)
	}
	return h.signedIn(c, u, tok)
}

// signedIn sets the new session's cookie and drops the spent challenge's.
func (h *Handler) signedIn(c echo.Context, u User, tok string) error {
	setChallengeCookie(c, "", -1)
	h.sessionCookie(c, tok)
	return c.JSON(http.StatusOK, userResponse{User: u})
}

// withRetryAfter sets Retry-After on a rate_limited answer.
func withRetryAfter(c echo.Context, err error) error {
	var e *apperr.Error
	if errors.As(err, &e) && e.Code == apperr.CodeRateLimited {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())))
	}
	return err
}

func (h *Handler) security(c echo.Context) error {
	if err := requireAdminRole(c); err != nil {
		return err
	}
	sec, err := h.svc.Security(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sec)
}

func (h *Handler) setSecurity(c echo.Context) error {
	if err := requireAdminRole(c); err != nil {
		return err
	}
	var req SecuritySettings
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	sec, err := h.svc.SetSecurity(c.Request().Context(), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sec)
}

// SecurityViewerHidden says what viewers may not read: the sign-in security page refuses viewers
// (requireAdminRole), so the audit log hides every value of its changes
// from them too.
var SecurityViewerHidden = viewmask.Whole

// requireAdminRole keeps the sign-in policy to the admin role.
func requireAdminRole(c echo.Context) error {
	if a, ok := actor.From(c.Request().Context()); !ok || a.Role != actor.RoleAdmin {
		return apperr.Forbidden("only an administrator with the admin role may change sign-in security")
	}
	return nil
}
