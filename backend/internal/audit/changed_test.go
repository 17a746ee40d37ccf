package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

// listServer serves routes Overrides marks Reported the way the panel's
// handlers do: a list GET (counted), and writes that report the one item
// they change with Changed.
type listServer struct {
	e         *echo.Echo
	s         *Service
	links     []map[string]any
	passkeys  map[string]map[string]any
	listReads int
}

func newListServer(t *testing.T) *listServer {
	t.Helper()
	s, _ := newTestService(t)
	ls := &listServer{e: echo.New(), s: s, passkeys: map[string]map[string]any{"p1": {"id": "p1", "name": "Laptop"}}}
	api := ls.e.Group("/api")
	api.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(actor.With(r.Context(), actor.Actor{Kind: actor.KindAdmin, ID: "u1", Name: "ann", Role: actor.RoleAdmin})))
			return next(c)
		}
	})
	api.Use(s.Middleware)
	api.GET("/services/:id/shared-links", func(c echo.Context) error {
		ls.listReads++
		return c.JSON(http.StatusOK, map[string]any{"items": ls.links})
	})
	api.POST("/services/:id/shared-links", func(c echo.Context) error {
		var req struct {
			Note string `json:"note"`
			Fail bool   `json:"fail"`
		}
		if err := c.Bind(&req); err != nil {
			return err
		}
		l := map[string]any{"id": fmt.Sprint("l", len(ls.links)+1), "serviceId": c.Param("id"), "note": req.Note,
			"status": "active", "revokedAt": nil}
		Changed(c.Request().Context(), nil, l)
		if req.Fail {
			return echo.NewHTTPError(http.StatusConflict, "refused after the report")
		}
		ls.links = append(ls.links, l)
		return c.JSON(http.StatusCreated, map[string]any{"id": l["id"], "url": "https://app.test/?gh_link=secret-link-token"})
	})
	api.DELETE("/services/:id/shared-links/:linkId", func(c echo.Context) error {
		for _, l := range ls.links {
			if l["id"] == c.Param("linkId") {
				before := maps.Clone(l)
				l["status"], l["revokedAt"] = "revoked", "2026-01-01T12:00:00Z"
				Changed(c.Request().Context(), before, l)
				return c.NoContent(http.StatusNoContent)
			}
		}
		return echo.NewHTTPError(http.StatusNotFound)
	})
	api.PATCH("/admin/me/passkeys/:id", func(c echo.Context) error {
		p := ls.passkeys[c.Param("id")]
		before := maps.Clone(p)
		p["name"] = "Work laptop"
		Changed(c.Request().Context(), before, p)
		return c.JSON(http.StatusOK, p)
	})
	api.DELETE("/admin/me/passkeys/:id", func(c echo.Context) error {
		Changed(c.Request().Context(), ls.passkeys[c.Param("id")], nil)
		delete(ls.passkeys, c.Param("id"))
		return c.NoContent(http.StatusNoContent)
	})
	api.DELETE("/admin/tokens/:id", func(c echo.Context) error {
		return c.NoContent(http.StatusNoContent) // reports nothing
	})
	return ls
}

func (ls *listServer) do(t *testing.T, method, path, body string) int {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	ls.e.ServeHTTP(rec, req)
	return rec.Code
}

func (ls *listServer) entries(t *testing.T) []EntryView {
	t.Helper()
	p, err := ls.s.List(t.Context(), Filter{Limit: MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	return p.Items
}

// A write under a list is recorded from the one item its handler reports:
// the list is never read, and the diff names that item's fields only,
// for a create, an update and a delete.
func TestReportedWriteRecordsTheOneItem(t *testing.T) {
	ls := newListServer(t)
	for i := range 3 {
		if code := ls.do(t, http.MethodPost, "/api/services/s1/shared-links", fmt.Sprintf(`{"note":"link %d"}`, i)); code != http.StatusCreated {
			t.Fatalf("create = %d", code)
		}
	}
	tests := []struct {
		name, method, path, body string
		status                   int
		action, rtype, id, rname string
		want                     []Change
	}{
		{"create among siblings", http.MethodPost, "/api/services/s1/shared-links", `{"note":"fourth"}`, http.StatusCreated,
			ActionCreate, "services.shared-links", "l4", "",
			[]Change{{"id", nil, "l4"}, {"note", nil, "fourth"}, {"serviceId", nil, "s1"}, {"status", nil, "active"}}},
		{"revoke one of the list", http.MethodDelete, "/api/services/s1/shared-links/l2", "", http.StatusNoContent,
			ActionDelete, "services.shared-links", "l2", "",
			[]Change{{"revokedAt", nil, "2026-01-01T12:00:00Z"}, {"status", "active", "revoked"}}},
		{"update one of the list", http.MethodPatch, "/api/admin/me/passkeys/p1", `{"name":"Work laptop"}`, http.StatusOK,
			ActionUpdate, "admin.me.passkeys", "p1", "Work laptop",
			[]Change{{"name", "Laptop", "Work laptop"}}},
		{"delete one of the list", http.MethodDelete, "/api/admin/me/passkeys/p1", "", http.StatusNoContent,
			ActionDelete, "admin.me.passkeys", "p1", "Work laptop",
			[]Change{{"id", "p1", nil}, {"name", "Work laptop", nil}}},
		{"a handler that reports nothing: the change without a diff", http.MethodDelete, "/api/admin/tokens/t1", "", http.StatusNoContent,
			"revoke", "admin.tokens", "t1", "", []Change{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := len(ls.entries(t))
			if code := ls.do(t, tt.method, tt.path, tt.body); code != tt.status {
				t.Fatalf("%s %s = %d", tt.method, tt.path, code)
			}
			all := ls.entries(t)
			if len(all) != n+1 {
				t.Fatalf("entries = %d, want %d", len(all), n+1)
			}
			got := all[0]
			if got.Action != tt.action || got.Resource.Type != tt.rtype || got.Resource.ID != tt.id || got.Resource.Name != tt.rname {
				t.Fatalf("entry = %+v", got)
			}
			b, _ := json.Marshal(got.Changes)
			w, _ := json.Marshal(tt.want)
			if string(b) != string(w) {
				t.Fatalf("changes = %s, want %s", b, w)
			}
		})
	}
	if ls.listReads != 0 {
		t.Fatalf("the list was read %d times", ls.listReads)
	}
	if ls.s.Failures() != 0 {
		t.Fatalf("failures = %d", ls.s.Failures())
	}
}

// A write that fails after its handler reported records nothing, as any
// failed write; the report of one request never reaches another.
func TestReportedWriteThatFailsIsNotRecorded(t *testing.T) {
	ls := newListServer(t)
	if code := ls.do(t, http.MethodPost, "/api/services/s1/shared-links", `{"note":"x","fail":true}`); code != http.StatusConflict {
		t.Fatalf("create = %d", code)
	}
	if e := ls.entries(t); len(e) != 0 {
		t.Fatalf("a failed write was recorded: %+v", e)
	}
	if code := ls.do(t, http.MethodDelete, "/api/admin/tokens/t1", ""); code != http.StatusNoContent {
		t.Fatalf("revoke = %d", code)
	}
	if e := ls.entries(t); len(e) != 1 || len(e[0].Changes) != 0 {
		t.Fatalf("entries = %+v", e)
	}
}

// Changed outside an audited write does nothing; inside one, the first
// before and the last after make the entry, and a value that cannot be
// encoded leaves the entry without a diff rather than a wrong one.
func TestChangedReport(t *testing.T) {
	Changed(t.Context(), nil, map[string]any{"id": "x"}) // no report in the context: no effect, no panic

	ctx, r := withReport(t.Context())
	if _, _, ok := r.values(); ok {
		t.Fatal("an empty report reads as reported")
	}
	Changed(ctx, map[string]any{"n": 1}, map[string]any{"n": 2})
	Changed(ctx, map[string]any{"n": 2}, map[string]any{"n": 3})
	before, after, ok := r.values()
	if !ok || Diff(before, after)[0] != (Change{"n", 1.0, 3.0}) {
		t.Fatalf("report = %v %v %v", before, after, ok)
	}

	ctx, r = withReport(t.Context())
	Changed(ctx, nil, map[string]any{"f": func() {}})
	if _, _, ok := r.values(); ok {
		t.Fatal("a value that cannot be encoded reads as reported")
	}
}
