package managed

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
)

// Handler serves /api/proxy/managed*, /api/proxy/static-config and the
// wrapper's endpoints. With a nil service (managed mode off) every route
// answers 404.
type Handler struct {
	svc         *Service
	token       string // PANEL_WRAPPER_TOKEN
	adminDomain func(ctx context.Context) (string, error)
	limiter     *ratelimit.Limiter
}

// NewHandler returns the handler. adminDomain names the public admin panel
// domain; requests addressed to it are refused on the wrapper's endpoints.
func NewHandler(svc *Service, wrapperToken string, adminDomain func(ctx context.Context) (string, error), now func() time.Time) *Handler {
	var db *gorm.DB // nil (managed mode off): an in-memory limiter
	if svc != nil {
		db = svc.db
	}
	return &Handler{
		svc: svc, token: wrapperToken, adminDomain: adminDomain,
		limiter: ratelimit.Shared(db, "managed.wrapper", 10, 15*time.Minute, now),
	}
}

// Register mounts the routes on the /api group. The wrapper's routes are
// machine routes, each with its own guard.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/proxy/managed", h.managed(h.get))
	r.PUT("/proxy/managed", h.managed(h.put))
	r.PUT("/proxy/managed/secrets", h.managed(h.putSecrets))
	r.GET("/proxy/managed/dns-providers", h.managed(h.providers))
	r.GET("/proxy/static-config", h.managed(h.internalOnly(h.staticGuard(h.staticConfig))), route.Machine.Because(
		"managed-mode wrapper: internal network only, and the wrapper token once it carries the provider token"), route.Polled)
	wrapper := route.Machine.Because("managed-mode wrapper: token + internal network only")
	r.GET("/proxy/managed/secrets-env", h.managed(h.internalOnly(h.wrapperOnly(h.secretsEnv))), wrapper, route.Polled)
	r.GET("/proxy/managed/replicas", h.managed(h.internalOnly(h.wrapperOnly(h.replicas))), wrapper, route.Polled)
	r.POST("/proxy/managed/wrapper-report", h.managed(h.internalOnly(h.wrapperOnly(h.report))), wrapper, route.Polled)
}

var errManagedOff = &apperr.Error{Code: apperr.CodeNotFound,
	Message: "managed mode is off: start the panel with PANEL_MANAGED=true to manage Traefik's static configuration"}

func (h *Handler) managed(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h.svc == nil {
			return errManagedOff
		}
		return next(c)
	}
}

// internalOnly refuses anything that came through Traefik: Traefik always
// adds X-Forwarded-* headers, and the public admin domain is only reachable
// through it. The wrapper talks to the panel directly on the internal network.
func (h *Handler) internalOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		for name := range r.Header {
			if name == "Forwarded" || name == "X-Real-Ip" || strings.HasPrefix(name, "X-Forwarded-") {
				return apperr.Forbidden("this endpoint is internal: it cannot be reached through the proxy")
			}
		}
		domain, err := h.adminDomain(r.Context())
		if err != nil {
			return err
		}
		if httpx.ViaPublicDomain(r, domain) {
			return apperr.Forbidden("this endpoint is internal: it cannot be reached through the admin panel domain")
		}
		return next(c)
	}
}

// staticGuard puts the static configuration behind the wrapper token once
// it carries the provider token: whoever reads it could read Traefik's
// dynamic configuration too. Without a provider token it holds no secret
// and stays readable on the internal network, as it always was.
func (h *Handler) staticGuard(next echo.HandlerFunc) echo.HandlerFunc {
	guarded := h.wrapperOnly(next)
	return func(c echo.Context) error {
		if h.svc.o.Static.ProviderToken != "" {
			return guarded(c)
		}
		return next(c)
	}
}

// wrapperOnly requires Authorization: Bearer <PANEL_WRAPPER_TOKEN>.
func (h *Handler) wrapperOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h.token == "" {
			return &apperr.Error{Code: apperr.CodeNotFound,
				Message: "the wrapper token is not configured: set PANEL_WRAPPER_TOKEN (or PANEL_WRAPPER_TOKEN_FILE) on the panel and GATEHOUSE_WRAPPER_TOKEN on the wrapper"}
		}
		ip := c.RealIP()
		if blocked, wait := h.limiter.Blocked("wrapper:" + ip); blocked {
			return apperr.RateLimited("too many wrong wrapper tokens", wait)
		}
		scheme, token, _ := strings.Cut(c.Request().Header.Get(echo.HeaderAuthorization), " ")
		if !strings.EqualFold(scheme, "Bearer") || token == "" {
			return apperr.Unauthenticated("the wrapper token is required (Authorization: Bearer <token>)")
		}
		// Hashing first makes the comparison constant-time regardless of length.
		got, want := sha256.Sum256([]byte(strings.TrimSpace(token))), sha256.Sum256([]byte(h.token))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			h.limiter.Fail("wrapper:" + ip)
			return apperr.Unauthenticated("wrong wrapper token")
		}
		return next(c)
	}
}

func (h *Handler) get(c echo.Context) error {
	st, err := h.svc.State(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) put(c echo.Context) error {
	var cfg Config
	if err := httpx.Bind(c, &cfg); err != nil {
		return err
	}
	st, err := h.svc.PutConfig(c.Request().Context(), cfg)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

type secretsRequest struct {
	Upsert map[string]string `json:"upsert"`
	Remove []string          `json:"remove"`
}

type secretsResponse struct {
	Credentials []Credential `json:"credentials"`
}

func (h *Handler) putSecrets(c echo.Context) error {
	var req secretsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	creds, err := h.svc.UpdateSecrets(c.Request().Context(), req.Upsert, req.Remove)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, secretsResponse{Credentials: creds})
}

func (h *Handler) providers(c echo.Context) error {
	return httpx.JSONList(c, Providers())
}

func (h *Handler) staticConfig(c echo.Context) error {
	doc, hash, err := h.svc.Static(c.Request().Context())
	if err != nil {
		return err
	}
	c.Response().Header().Set(HashHeader, hash)
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.Blob(http.StatusOK, "text/yaml; charset=utf-8", doc)
}

func (h *Handler) secretsEnv(c echo.Context) error {
	doc, hash, err := h.svc.SecretsEnv(c.Request().Context())
	if err != nil {
		return err // a decryption failure is a 500: the wrapper keeps its last good file
	}
	c.Response().Header().Set(SecretsHashHeader, hash)
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", doc)
}

// replicas serves the file provider's load balancer over the replicas. It
// names internal addresses only, but sits with the credentials behind the
// wrapper token: the wrapper is its only reader.
func (h *Handler) replicas(c echo.Context) error {
	doc, hash := h.svc.Replicas(c.Request().Context())
	c.Response().Header().Set(ReplicasHashHeader, hash)
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return c.Blob(http.StatusOK, "text/yaml; charset=utf-8", doc)
}

type reportRequest struct {
	ConfigHash  string `json:"configHash" validate:"required"`
	SecretsHash string `json:"secretsHash" validate:"required"`
	// Rejected is set when the wrapper went back from a configuration
	// Traefik would not run.
	Rejected *struct {
		ConfigHash  string `json:"configHash"`
		SecretsHash string `json:"secretsHash"`
		Reason      string `json:"reason"`
	} `json:"rejected"`
}

type reportResponse struct {
	Status    string     `json:"status"`
	AppliedAt *time.Time `json:"appliedAt"`
	Rejection *Rejection `json:"rejection"`
}

func (h *Handler) report(c echo.Context) error {
	var req reportRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	var rej *Rejection
	if r := req.Rejected; r != nil {
		rej = &Rejection{ConfigHash: r.ConfigHash, SecretsHash: r.SecretsHash, Reason: r.Reason}
	}
	st, err := h.svc.ReportApplied(c.Request().Context(), req.ConfigHash, req.SecretsHash, rej)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, reportResponse{Status: st.Status, AppliedAt: st.AppliedAt, Rejection: st.Rejection})
}
