package route_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

func ok(c echo.Context) error { return c.NoContent(http.StatusNoContent) }

func TestRegistrarRecordsWhatEachRouteDeclares(t *testing.T) {
	e := echo.New()
	table := route.NewTable()
	r := route.NewRegistrar(e.Group("/api"), table)
	r.GET("/things", ok)
	r.POST("/things", ok, route.OwnBodyLimit)
	r.GET("/things/:id/secret", ok, route.SecretRead.Because("it shows the secret"))
	r.PUT("/people", ok, route.PersonOnly.Because("who signs in"))
	r.GET("/health", ok, route.Public.Because("health checks"), route.Polled)
	r.GET("/feed", ok, route.Machine.Because("the feed's token"))
	r.DELETE("/me", ok, route.SelfService)

	for _, tt := range []struct {
		method, path string
		class        route.Class
		open         bool
		flags        route.Flag
	}{
		{"GET", "/api/things", route.Guarded, false, 0},
		{"POST", "/api/things", route.Guarded, false, route.OwnBodyLimit},
		{"GET", "/api/things/:id/secret", route.SecretRead, false, 0},
		{"PUT", "/api/people", route.PersonOnly, false, 0},
		{"GET", "/api/health", route.Public, true, route.Polled},
		{"GET", "/api/feed", route.Machine, true, 0},
		{"DELETE", "/api/me", route.SelfService, false, 0},
		// Not registered (another method, another path, the catch-all):
		// guarded, closed until someone declares otherwise.
		{"POST", "/api/health", route.Guarded, false, 0},
		{"GET", "/api/unknown", route.Guarded, false, 0},
		{"GET", "/api/*", route.Guarded, false, 0},
	} {
		got := table.Rule(tt.method, tt.path)
		if got.Class != tt.class || got.Open() != tt.open || got.Flags != tt.flags {
			t.Errorf("%s %s = %s open=%v flags=%b; want %s open=%v flags=%b",
				tt.method, tt.path, got.Class, got.Open(), got.Flags, tt.class, tt.open, tt.flags)
		}
	}
	if got := table.Rule("GET", "/api/things/:id/secret").Reason; got != "it shows the secret" {
		t.Errorf("reason = %q", got)
	}
	rules := table.Rules()
	if len(rules) != 7 || rules[0].String() != "GET /api/feed" || rules[len(rules)-1].String() != "GET /api/things/:id/secret" {
		t.Errorf("rules = %v", rules)
	}
	if got := len(e.Routes()); got != 7 {
		t.Errorf("%d routes mounted on Echo; want 7", got)
	}
}

func TestRegistrarRefusesDeclarationsThatMeanNothing(t *testing.T) {
	for _, tt := range []struct {
		name string
		add  func(r *route.Registrar)
		want string
	}{
		{"public without a reason", func(r *route.Registrar) { r.GET("/x", ok, route.Public) }, "says why"},
		{"machine without a reason", func(r *route.Registrar) { r.GET("/x", ok, route.Machine.Because("")) }, "says why"},
		{"secret read without a reason", func(r *route.Registrar) { r.GET("/x", ok, route.SecretRead) }, "says why"},
		{"person-only without a reason", func(r *route.Registrar) { r.PUT("/x", ok, route.PersonOnly) }, "says why"},
		{"a secret write", func(r *route.Registrar) { r.POST("/x", ok, route.SecretRead.Because("s")) }, "only a read"},
		{"a person-only read", func(r *route.Registrar) { r.GET("/x", ok, route.PersonOnly.Because("p")) }, "governs writes"},
		{"two classes", func(r *route.Registrar) {
			r.GET("/x", ok, route.SelfService, route.Public.Because("p"))
		}, "more than one class"},
		{"registered twice", func(r *route.Registrar) { r.GET("/x", ok); r.GET("/x", ok) }, "registered twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				err, _ := recover().(error)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("panic %v; want one saying %q", err, tt.want)
				}
			}()
			tt.add(route.NewRegistrar(echo.New().Group("/api"), route.NewTable()))
		})
	}
}

func TestLookupAllocatesNothing(t *testing.T) {
	table := route.NewTable()
	route.NewRegistrar(echo.New().Group("/api"), table).DELETE("/services/:id/security-configs/:type", ok)
	if n := testing.AllocsPerRun(100, func() { table.Rule(http.MethodDelete, "/api/services/:id/security-configs/:type") }); n != 0 {
		t.Fatalf("a lookup allocates %v times", n)
	}
}
