package runtime

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Handler serves the read-only runtime views under /api/proxy. Every view
// answers 200 and says in its body whether Traefik was configured and
// reachable; only the panel's own failures (its database) are errors.
type Handler struct{ svc *Service }

// NewHandler returns the runtime views handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group (admin-only: none is public).
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/proxy/entrypoints", h.entrypoints)
	r.GET("/proxy/middlewares", h.middlewares)
	r.GET("/proxy/cert-resolvers", h.certResolvers)
	r.GET("/proxy/runtime", h.runtime)
	r.GET("/proxy/metrics", h.metrics)
	r.GET("/proxy/conflicts", h.conflicts)
	r.GET("/proxy/certificates", h.certificates)
	r.GET("/proxy/health", h.health)
}

func (h *Handler) entrypoints(c echo.Context) error {
	return c.JSON(http.StatusOK, h.svc.Entrypoints(c.Request().Context()))
}

func (h *Handler) middlewares(c echo.Context) error {
	return c.JSON(http.StatusOK, h.svc.Middlewares(c.Request().Context()))
}

func (h *Handler) certResolvers(c echo.Context) error {
	v, err := h.svc.CertResolvers(c.Request().Context())
	return answer(c, v, err)
}

func (h *Handler) runtime(c echo.Context) error {
	v, err := h.svc.Runtime(c.Request().Context())
	return answer(c, v, err)
}

func (h *Handler) metrics(c echo.Context) error {
	v, err := h.svc.Metrics(c.Request().Context())
	return answer(c, v, err)
}

func (h *Handler) conflicts(c echo.Context) error {
	v, err := h.svc.Conflicts(c.Request().Context())
	return answer(c, v, err)
}

func (h *Handler) certificates(c echo.Context) error {
	v, err := h.svc.Certificates(c.Request().Context())
	return answer(c, v, err)
}

func (h *Handler) health(c echo.Context) error {
	probe := false
	if q := c.QueryParam("probe"); q != "" {
		b, err := strconv.ParseBool(q)
		if err != nil {
			return apperr.Field("probe", "must be true or false")
		}
		probe = b
	}
	v, err := h.svc.Health(c.Request().Context(), probe)
	return answer(c, v, err)
}

// answer writes a view, or returns the panel-side error to the error handler.
func answer(c echo.Context, v any, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}
