package audit

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Handler serves /api/audit.
type Handler struct{ svc *Service }

// NewHandler returns the audit log handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/audit", h.list)
	r.GET("/audit/settings", h.getSettings)
	r.PUT("/audit/settings", h.putSettings)
}

func (h *Handler) list(c echo.Context) error {
	f, err := ParseFilter(c.QueryParams())
	if err != nil {
		return err
	}
	if f.CSV {
		return h.csv(c, f)
	}
	p, err := h.svc.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// csvHeader names the export's columns.
var csvHeader = []string{"seq", "at", "actor_kind", "actor_id", "actor_name", "address", "action",
	"resource_type", "resource_id", "resource_name", "method", "route", "status", "changes"}

func (h *Handler) csv(c echo.Context, f Filter) error {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	res.Header().Set(echo.HeaderContentDisposition,
		fmt.Sprintf(`attachment; filename="audit-%s.csv"`, h.svc.now().Format("20060102-150405")))
	res.WriteHeader(http.StatusOK)
	w := csv.NewWriter(res)
	if err := w.Write(csvHeader); err != nil {
		return err
	}
	err := h.svc.Each(c.Request().Context(), f, func(e EntryView) error {
		changes, _ := json.Marshal(e.Changes) //nolint:errchkjson // decoded JSON always encodes
		return w.Write(csvSafe([]string{strconv.FormatInt(e.Seq, 10), e.At, e.Actor.Kind, e.Actor.ID, e.Actor.Name,
			e.Address, e.Action, e.Resource.Type, e.Resource.ID, e.Resource.Name, e.Method, e.Route,
			strconv.Itoa(e.Status), string(changes)}))
	})
	w.Flush()
	if err != nil {
		// The header is sent: the export ends short; the log says why.
		h.svc.log.Error("audit export failed", "err", err)
		return nil
	}
	return w.Error()
}

// csvSafe keeps spreadsheet programs from running a cell as a formula: a
// cell starting with = + - @ (or a tab or carriage return) gets a leading '.
func csvSafe(cells []string) []string {
	for i, s := range cells {
		if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
			cells[i] = "'" + s
		}
	}
	return cells
}

func (h *Handler) getSettings(c echo.Context) error {
	st, err := h.svc.Settings(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

func (h *Handler) putSettings(c echo.Context) error {
	var st Settings
	if err := httpx.Bind(c, &st); err != nil {
		return err
	}
	st, err := h.svc.PutSettings(c.Request().Context(), st)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}
