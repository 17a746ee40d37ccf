package dynconf

import (
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves the dynamic configuration, its preview and the
// certificate-trigger callback.
type Handler struct {
	svc *Service
	log *slog.Logger
	// tokenSum is the SHA-256 of Deps.ProviderToken; nil when none is set.
	tokenSum []byte
}

// NewHandler returns the dynconf handler.
func NewHandler(svc *Service) *Handler {
	h := &Handler{svc: svc, log: svc.d.Logger}
	if svc.d.ProviderToken != "" {
		sum := sha256.Sum256([]byte(svc.d.ProviderToken))
		h.tokenSum = sum[:]
	}
	return h
}

// providerAllowed reports whether the request may read the configuration:
// always when no provider token is set, else only with Authorization:
// Bearer <token>. Both sides are hashed first, so the comparison takes the
// same time whatever the length or content of a wrong token.
func (h *Handler) providerAllowed(r *http.Request) bool {
	if h.tokenSum == nil {
		return true
	}
	scheme, token, _ := strings.Cut(r.Header.Get(echo.HeaderAuthorization), " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(got[:], h.tokenSum) == 1
}

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/proxy/config", h.config,
		route.Machine.Because("Traefik's HTTP provider: the provider token is its guard, when one is set"), route.Polled)
	r.GET("/proxy/config/preview", h.preview, route.SecretRead.Because(
		"the configuration Traefik gets carries the values of the headers services send upstream (often credentials)"))
	r.GET(CertTriggerPath[len("/api"):], h.certTrigger,
		route.Public.Because("certificate-trigger routers (blank page)"), route.Polled)
	r.GET(MaintenancePath[len("/api"):]+"/:id", h.maintenance,
		route.Public.Because("maintenance routers: the service's public maintenance page"))
}

// unavailable is answered on any failure: Traefik keeps its last good
// configuration on a non-200, whereas a 200 with a partial or empty
// configuration would remove routes.
func unavailable() *apperr.Error {
	return &apperr.Error{Code: apperr.CodeInternal, Status: http.StatusServiceUnavailable,
		Message: "the dynamic configuration is temporarily unavailable; Traefik keeps its last good configuration"}
}

func (h *Handler) config(c echo.Context) error {
	// Checked before anything is built or read: without the token a caller
	// learns nothing, not even whether the configuration would build. A
	// refused request is no poll: the status page would believe anyone.
	if !h.providerAllowed(c.Request()) {
		return apperr.Unauthenticated("the provider token is required: Traefik's HTTP provider sends it as Authorization: Bearer <PANEL_PROVIDER_TOKEN> (providers.http.headers)")
	}
	ctx := c.Request().Context()
	body, etag, adminDomain, err := h.svc.current(ctx)
	if err != nil {
		h.log.Error("build dynamic configuration", "err", err)
		return unavailable()
	}
	// In managed mode the panel is reachable through the proxy on the admin
	// domain. The configuration reveals internal addresses and the admin
	// password hashes, so it is only served to Traefik on the internal
	// network, never to a request that came in through the public domain.
	if httpx.ViaPublicDomain(c.Request(), adminDomain) {
		return apperr.Forbidden("the dynamic configuration is not served on the public admin domain; point Traefik at the panel's internal address")
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	res.Header().Set("ETag", etag)
	res.Header().Set("Cache-Control", "no-cache")
	if etagMatches(c.Request().Header.Get("If-None-Match"), etag) {
		h.served(c, etag, http.StatusNotModified)
		return c.NoContent(http.StatusNotModified)
	}
	h.served(c, etag, http.StatusOK)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// served reports an answered poll. The address is the connection's peer:
// Traefik talks to the panel directly, and a forwarded header could be
// anyone's word.
func (h *Handler) served(c echo.Context, etag string, code int) {
	if h.svc.d.OnServe == nil {
		return
	}
	remote := c.Request().RemoteAddr
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	h.svc.d.OnServe(remote, etag, code)
}

// etagMatches implements If-None-Match's weak comparison over a list.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

func (h *Handler) preview(c echo.Context) error {
	id := strings.TrimSpace(c.QueryParam("serviceId"))
	if id == "" {
		return apperr.Field("serviceId", "is required")
	}
	p, err := h.svc.Preview(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// certTrigger answers the certificate-trigger routers: a blank page.
func (h *Handler) certTrigger(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTML(http.StatusOK, "<!doctype html><title>Gatehouse</title>")
}
