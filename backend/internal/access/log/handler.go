package log

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Item is one entry as the API shows it.
type Item struct {
	Seq           uint64    `json:"seq"`
	Time          time.Time `json:"time"`
	ServiceID     string    `json:"serviceId"`
	ServiceName   string    `json:"serviceName"`
	ClientAddress string    `json:"clientAddress"`
	Method        string    `json:"method"`
	Host          string    `json:"host"`
	Path          string    `json:"path"`
	Decision      string    `json:"decision"`
	By            string    `json:"by"`
	Identity      string    `json:"identity"`
	// Reason tells a wrong password from missing credentials ("" when
	// the decision rested on something else).
	Reason string `json:"reason"`
}

// Page is the answer of both routes.
type Page struct {
	Items    []Item `json:"items"`
	Capacity int    `json:"capacity"`
}

// Handler serves the access log.
type Handler struct{ l *Log }

// NewHandler returns the access-log handler.
func NewHandler(l *Log) *Handler { return &Handler{l: l} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/access-log", h.all)
	r.GET("/services/:id/access-log", h.service)
}

func (h *Handler) all(c echo.Context) error { return h.answer(c, c.QueryParam("serviceId")) }

func (h *Handler) service(c echo.Context) error { return h.answer(c, c.Param("id")) }

func (h *Handler) answer(c echo.Context, serviceID string) error {
	f, err := parseFilter(c.QueryParams().Get, serviceID)
	if err != nil {
		return err
	}
	entries := h.l.Query(f)
	out := Page{Items: make([]Item, len(entries)), Capacity: PerService}
	for i := range entries {
		e := &entries[i]
		out.Items[i] = Item{Seq: e.Seq, Time: e.Time, ServiceID: e.ServiceID, ServiceName: e.ServiceName,
			Method: e.Method, Host: e.Host, Path: e.Path, Decision: e.Decision.String(), By: e.By(), Identity: e.Identity,
			Reason: e.Reason.String()}
		if e.Addr.IsValid() {
			out.Items[i].ClientAddress = e.Addr.String()
		}
	}
	return c.JSON(http.StatusOK, out)
}

func parseFilter(get func(string) string, serviceID string) (Filter, error) {
	f := Filter{ServiceID: serviceID, Identity: strings.TrimSpace(get("identity")), Limit: 100}
	var c apperr.Collector
	if d := get("decision"); d != "" {
		var ok bool
		if f.Decision, ok = ParseDecision(d); !ok {
			c.Add("decision", "must be one of: allowed, authenticated, denied, unauthenticated, forbidden, rate_limited")
		}
	}
	if a := strings.TrimSpace(get("address")); a != "" {
		if p, err := netip.ParsePrefix(a); err == nil {
			f.Address = p.Masked()
		} else if addr, err := netip.ParseAddr(a); err == nil {
			f.Address = netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())
		} else {
			c.Add("address", "must be an IP address or a CIDR")
		}
	}
	if s := get("after"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			c.Add("after", "must be a sequence number")
		}
		f.After = n
	}
	if s := get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > PerService {
			c.Add("limit", "must be between 1 and %d", PerService)
		}
		f.Limit = n
	}
	if len(f.Identity) > 200 {
		c.Add("identity", "must be at most 200 characters")
	}
	return f, c.Err()
}
