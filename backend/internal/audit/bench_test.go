package audit

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

type thing struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// benchServer is a small API shaped like the panel's: a guard that names
// the actor, a JSON resource stored in SQLite with a GET and a PUT.
func benchServer(b *testing.B, audited bool) *echo.Echo {
	s, _ := newTestService(b)
	e := echo.New()
	api := e.Group("/api")
	api.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			c.SetRequest(r.WithContext(actor.With(r.Context(), actor.Actor{Kind: actor.KindAdmin, ID: "u1", Name: "ann"})))
			return next(c)
		}
	})
	if audited {
		api.Use(s.Middleware)
	}
	api.GET("/things/:id", func(c echo.Context) error {
		v := thing{ID: c.Param("id")}
		if _, err := store.GetConfig(c.Request().Context(), s.db, "thing-"+v.ID, &v); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	})
	api.PUT("/things/:id", func(c echo.Context) error {
		var v thing
		if err := c.Bind(&v); err != nil {
			return err
		}
		v.ID = c.Param("id")
		if err := store.PutConfig(c.Request().Context(), s.db, "thing-"+v.ID, v); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	})
	return e
}

// BenchmarkWrite measures one PUT without and with the audit middleware
// (two internal GETs, a diff and one appended entry); the difference is
// the middleware's cost per write.
func BenchmarkWrite(b *testing.B) {
	for _, audited := range []bool{false, true} {
		name := "plain"
		if audited {
			name = "audited"
		}
		b.Run(name, func(b *testing.B) {
			e := benchServer(b, audited)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				req := httptest.NewRequest(http.MethodPut, "/api/things/t1", strings.NewReader(`{"name":"a","count":`+strconv.Itoa(i)+`}`))
				req.Header.Set("Content-Type", "application/json")
				rec := httptest.NewRecorder()
				e.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("PUT = %d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkAppend is one entry appended to the chain on its own: the part
// of BenchmarkWrite/audited that is not the two reads and the diff.
func BenchmarkAppend(b *testing.B) {
	s, _ := newTestService(b)
	ctx := actor.With(b.Context(), actor.Actor{Kind: actor.KindAdmin, ID: "u1", Name: "ann"})
	e := Entry{Action: ActionUpdate, ResourceType: "things", ResourceID: "t1", Method: http.MethodPut,
		Route: "/api/things/:id", Status: http.StatusOK, Changes: []Change{{"count", 1.0, 2.0}}}
	for b.Loop() {
		s.record(ctx, e)
	}
	if s.Failures() != 0 {
		b.Fatalf("failures = %d", s.Failures())
	}
}
