package audit

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// namedServer has a collection of services, each with access rules that
// carry no name of their own, and the audit log's own routes.
func namedServer(t *testing.T) (*echo.Echo, *Service) {
	t.Helper()
	s, _ := newTestService(t)
	e := echo.New()
	api := e.Group("/api")
	api.Use(s.Middleware)
	var mu sync.Mutex
	services := map[string]map[string]any{}
	access := map[string]any{}
	api.POST("/services", func(c echo.Context) error {
		var body map[string]any
		if err := json.NewDecoder(c.Request().Body).Decode(&body); err != nil {
			return echo.NewHTTPError(http.StatusBadRequest)
		}
		mu.Lock()
		defer mu.Unlock()
		id := fmt.Sprintf("0190a0a0-0000-7000-8000-%012d", len(services))
		body["id"] = id
		services[id] = body
		return c.JSON(http.StatusCreated, body)
	})
	api.GET("/services/:id", func(c echo.Context) error {
		mu.Lock()
		defer mu.Unlock()
		if sv, ok := services[c.Param("id")]; ok {
			return c.JSON(http.StatusOK, sv)
		}
		return echo.NewHTTPError(http.StatusNotFound)
	})
	api.DELETE("/services/:id", func(c echo.Context) error {
		mu.Lock()
		defer mu.Unlock()
		delete(services, c.Param("id"))
		return c.NoContent(http.StatusNoContent)
	})
	api.GET("/services/:id/access", func(c echo.Context) error {
		mu.Lock()
		defer mu.Unlock()
		return c.JSON(http.StatusOK, map[string]any{"rules": access[c.Param("id")]})
	})
	api.PUT("/services/:id/access", func(c echo.Context) error {
		var body map[string]any
		if err := json.NewDecoder(c.Request().Body).Decode(&body); err != nil {
			return echo.NewHTTPError(http.StatusBadRequest)
		}
		mu.Lock()
		defer mu.Unlock()
		access[c.Param("id")] = body["rules"]
		return c.JSON(http.StatusOK, body)
	})
	NewHandler(s).Register(route.NewRegistrar(api, route.NewTable()))
	return e, s
}

func call(t *testing.T, e *echo.Echo, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec
}

// TestEntriesNameTheirResource: every entry about a service says its name,
// "Grafana", not its id: a write to a sub-resource without a name of its
// own (the access rules) is named after the service when recorded, the
// name stays after the service is deleted, and an entry recorded without
// a name (before names were kept for every write) is named, when the log
// is read, after the newest entry about the same id that had one.
func TestEntriesNameTheirResource(t *testing.T) {
	e, s := namedServer(t)
	rec := call(t, e, http.MethodPost, "/api/services", `{"name":"Grafana","port":3000}`)
	var created struct{ ID string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.ID == "" {
		t.Fatalf("create answer %s: %v", rec.Body, err)
	}
	call(t, e, http.MethodPut, "/api/services/"+created.ID+"/access", `{"rules":[{"action":"deny","cidr":"10.0.0.0/8"}]}`)
	call(t, e, http.MethodDelete, "/api/services/"+created.ID, "")
	// An entry as older versions recorded a sub-resource's write: no name.
	if err := Record(t.Context(), s.db, Entry{Action: ActionUpdate, ResourceType: "services.protection", ResourceID: created.ID}); err != nil {
		t.Fatal(err)
	}
	// Another resource's entry without a name and without a generated id
	// stays unnamed: a type in the id slot is not a name.
	if err := Record(t.Context(), s.db, Entry{Action: ActionDelete, ResourceType: "services.security-configs", ResourceID: "basic_auth"}); err != nil {
		t.Fatal(err)
	}

	rec = call(t, e, http.MethodGet, "/api/audit", "")
	var page Page
	if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
		t.Fatal(err)
	}
	type got struct{ action, rtype, name string }
	var entries []got
	for _, it := range page.Items {
		entries = append(entries, got{it.Action, it.Resource.Type, it.Resource.Name})
	}
	want := []got{
		{ActionDelete, "services.security-configs", ""},
		{ActionUpdate, "services.protection", "Grafana"},
		{ActionDelete, "services", "Grafana"},
		{ActionUpdate, "services.access", "Grafana"},
		{ActionCreate, "services", "Grafana"},
	}
	if len(entries) != len(want) {
		t.Fatalf("entries %+v, want %+v", entries, want)
	}
	for i := range want {
		if entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, entries[i], want[i])
		}
	}
	// The access entry's diff is readable: field path, before, after.
	acc := page.Items[3]
	if len(acc.Changes) == 0 || !strings.HasPrefix(acc.Changes[0].Path, "rules") {
		t.Errorf("access entry changes %+v, want the rules' fields", acc.Changes)
	}
	// The CSV export names them too.
	rec = call(t, e, http.MethodGet, "/api/audit?format=csv", "")
	if n := strings.Count(rec.Body.String(), ",Grafana,"); n != 4 {
		t.Errorf("CSV names Grafana %d times, want 4:\n%s", n, rec.Body)
	}
	mustVerify(t, s.db, 5)
}

func TestParentItem(t *testing.T) {
	routes := routeSet{"GET /api/services/:id": true, "GET /api/groups/:id": true}
	tests := map[string]string{
		"/api/services/:id/access":                      "/api/services/:id",
		"/api/services/:id":                             "",
		"/api/services/:id/shared-links/:linkId":        "",
		"/api/people/:id/password":                      "",
		"/api/groups/:id/members/:personId":             "",
		"/api/services/:id/security-configs/:type/more": "",
	}
	for in, want := range tests {
		if got := parentItem(in, routes); got != want {
			t.Errorf("parentItem(%q) = %q, want %q", in, got, want)
		}
	}
}
