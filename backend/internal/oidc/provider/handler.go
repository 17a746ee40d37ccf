package provider

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

//go:embed openapi*.yaml
var apiFragment embed.FS

// Handler mounts the portal's API of the provider: the consent, refusal
// and device-code pages read and answer through it.
type Handler struct{ s *Service }

// NewHandler returns the handler.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// OpenAPI returns the package's fragment.
func (*Handler) OpenAPI() fs.FS { return apiFragment }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	const why = ": answers only a person signed in on the portal (read through Deps.Portal)"
	r.GET("/portal/oidc/requests/:id", h.request, route.Public.Because("an app's sign-in, for its consent or refusal page"+why), route.Portal)
	r.POST("/portal/oidc/requests/:id/consent", h.consent, route.Public.Because("the person's consent to an app"+why), route.Portal)
	r.GET("/portal/oidc/device", h.device, route.Public.Because("a device's sign-in, by the code the person typed"+why), route.Portal)
	r.POST("/portal/oidc/device", h.answerDevice, route.Public.Because("the person's answer to a device's sign-in"+why), route.Portal)
}

const apiTimeout = 5 * time.Second

// signedIn is the person signed in on the portal, and their session.
type signedIn struct {
	person
	sess Session
}

func (h *Handler) session(c echo.Context) (context.Context, context.CancelFunc, signedIn, error) {
	ctx, cancel := context.WithTimeout(c.Request().Context(), apiTimeout)
	if h.s.d.Portal == nil {
		return ctx, cancel, signedIn{}, apperr.Unauthenticated("sign in on the portal first")
	}
	sess, ok, err := h.s.d.Portal.PortalSignIn(ctx, c.Request())
	if err != nil {
		return ctx, cancel, signedIn{}, err
	}
	if !ok {
		return ctx, cancel, signedIn{}, apperr.Unauthenticated("sign in on the portal first")
	}
	p, err := h.s.people.withGroups(ctx, sess.PersonID)
	if errors.Is(err, errInactive) {
		return ctx, cancel, signedIn{}, apperr.Unauthenticated("sign in on the portal first")
	}
	return ctx, cancel, signedIn{person: p, sess: sess}, err
}

func appInfo(c store.OIDCClient) AppInfo { return AppInfo{ID: c.ID, Name: c.Name, LogoURL: c.LogoURL} }

func (h *Handler) pending(ctx context.Context, id string) (authRequest, store.OIDCClient, error) {
	req, err := h.s.store.requestByID(ctx, id)
	if errors.Is(err, errNotFound) || (err == nil && (req.Done || req.Denied)) {
		return req, store.OIDCClient{}, apperr.NotFound("sign-in request")
	}
	if err != nil {
		return req, store.OIDCClient{}, err
	}
	c, err := h.s.clients.get(ctx, req.ClientID)
	if err != nil {
		return req, c, apperr.NotFound("sign-in request")
	}
	return req, c, nil
}

func (h *Handler) request(c echo.Context) error {
	ctx, cancel, p, err := h.session(c)
	defer cancel()
	if err != nil {
		return err
	}
	req, cl, err := h.s.findRequest(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	info := RequestInfo{App: appInfo(cl), Scopes: req.Scopes.V, Refused: !allowed(cl, p.person)}
	if !info.Refused {
		step, err := h.s.stepUpFor(ctx, h.s.demand(cl, req), p.sess, req.CreatedAt)
		if err != nil {
			return err
		}
		info.SecondFactorMissing = step == stepNoFactors
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, info)
}

// findRequest reads a request that may still be shown (pending or refused).
func (s *Service) findRequest(ctx context.Context, id string) (authRequest, store.OIDCClient, error) {
	if len(id) > 64 {
		return authRequest{}, store.OIDCClient{}, apperr.NotFound("sign-in request")
	}
	req, err := s.store.requestByID(ctx, id)
	if errors.Is(err, errNotFound) {
		return req, store.OIDCClient{}, apperr.NotFound("sign-in request")
	}
	if err != nil {
		return req, store.OIDCClient{}, err
	}
	cl, err := s.clients.get(ctx, req.ClientID)
	if err != nil {
		return req, cl, apperr.NotFound("sign-in request")
	}
	return req, cl, nil
}

func (h *Handler) consent(c echo.Context) error {
	var in ConsentInput
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	ctx, cancel, p, err := h.session(c)
	defer cancel()
	if err != nil {
		return err
	}
	req, cl, err := h.pending(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	// Only the person the request was shown to answers it (the sign-in
	// sets them before sending the browser to the consent page).
	if req.PersonID == nil || *req.PersonID != p.ID {
		return apperr.NotFound("sign-in request")
	}
	if !allowed(cl, p.person) {
		return apperr.Forbidden("you are not in a group this app admits")
	}
	if !in.Approve {
		if err := h.s.d.DB.WithContext(ctx).Model(&authRequest{}).Where("id = ?", req.ID).Update("denied", true).Error; err != nil {
			return err
		}
		return c.JSON(http.StatusOK, Next{Redirect: errorURL(req, "access_denied")})
	}
	if err := h.s.grantConsent(ctx, p.ID, cl.ID, req.Scopes.V); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, Next{Redirect: pathLogin + "?id=" + req.ID})
}

// Wrong device codes a person may type per window: user codes are short
// (8 letters of 20), so guesses are limited.
const (
	maxDeviceGuesses = 10
	deviceGuessSpan  = 15 * time.Minute
)

func (h *Handler) findDevice(ctx context.Context, personID, code string) (deviceRow, store.OIDCClient, error) {
	code = NormalizeUserCode(code)
	var d deviceRow
	if blocked, wait := h.s.guesses.Blocked(personID); blocked {
		return d, store.OIDCClient{}, apperr.RateLimited("too many wrong codes; wait before trying again", wait)
	}
	if code == "" || len(code) > 32 {
		return d, store.OIDCClient{}, apperr.Field("userCode", "is not a code waiting for an answer")
	}
	err := h.s.d.DB.WithContext(ctx).Where("user_code = ? AND state = ? AND expires_at > ?", code, devicePending, h.s.d.Now()).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		h.s.guesses.Fail(personID)
		return d, store.OIDCClient{}, apperr.Field("userCode", "is not a code waiting for an answer")
	}
	if err != nil {
		return d, store.OIDCClient{}, err
	}
	cl, err := h.s.clients.get(ctx, d.ClientID)
	if err != nil {
		return d, cl, apperr.Field("userCode", "is not a code waiting for an answer")
	}
	return d, cl, nil
}

func (h *Handler) device(c echo.Context) error {
	ctx, cancel, p, err := h.session(c)
	defer cancel()
	if err != nil {
		return err
	}
	d, cl, err := h.findDevice(ctx, p.ID, c.QueryParam("userCode"))
	if err != nil {
		return err
	}
	step, err := h.s.stepUpFor(ctx, demandOf(cl, nil, nil, false), p.sess, d.CreatedAt)
	if err != nil {
		return err
	}
	info := DeviceInfo{App: appInfo(cl), Scopes: d.Scopes.V, SecondFactorMissing: step == stepNoFactors,
		SignInAgain: signInAgain(step, h.s.issuer(ctx)+pageDevice+"?user_code="+url.QueryEscape(d.UserCode))}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, info)
}

func (h *Handler) answerDevice(c echo.Context) error {
	var in DeviceInput
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	ctx, cancel, p, err := h.session(c)
	defer cancel()
	if err != nil {
		return err
	}
	d, cl, err := h.findDevice(ctx, p.ID, in.UserCode)
	if err != nil {
		return err
	}
	state := deviceDenied
	upd := map[string]any{"state": deviceDenied}
	if in.Approve {
		if !allowed(cl, p.person) {
			return apperr.Forbidden("you are not in a group this app admits")
		}
		step, err := h.s.stepUpFor(ctx, demandOf(cl, nil, nil, false), p.sess, d.CreatedAt)
		if err != nil {
			return err
		}
		switch step {
		case stepNoFactors:
			return apperr.Forbidden(cl.Name + " asks for a second factor and your account has none yet: add one on your account page")
		case stepFactor:
			return apperr.Forbidden(cl.Name + " asks you to sign in again with your second factor first")
		case stepSignIn:
			return apperr.Forbidden(cl.Name + " asks you to sign in again first")
		}
		state = deviceApproved
		upd = map[string]any{"state": deviceApproved, "person_id": p.ID, "auth_time": p.sess.ProvedAt.UTC(),
			"amr": store.NewJSON(amrOf(p.sess))}
	}
	res := h.s.d.DB.WithContext(ctx).Model(&deviceRow{}).Where("device_code_hash = ? AND state = ?", d.DeviceCodeHash, devicePending).Updates(upd)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return apperr.Field("userCode", "is not a code waiting for an answer")
	}
	return c.JSON(http.StatusOK, DeviceResult{Approved: state == deviceApproved})
}
