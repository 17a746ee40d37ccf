package audit

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

// signInServer mimics the panel's public sign-in routes: a password step
// that may ask for a second factor, the second factor, and an SSO callback.
func signInServer(t *testing.T) (*echo.Echo, *Service) {
	t.Helper()
	s, _ := newTestService(t)
	e := echo.New()
	api := e.Group("/api")
	api.Use(s.Middleware)
	setSession := func(c echo.Context) {
		c.SetCookie(&http.Cookie{Name: "session", Value: "sess-1", Path: "/", MaxAge: 3600, HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode})
	}
	api.POST("/admin/login", func(c echo.Context) error {
		var req struct{ Username, Password string }
		if err := json.NewDecoder(c.Request().Body).Decode(&req); err != nil {
			return echo.NewHTTPError(http.StatusBadRequest)
		}
		switch req.Password {
		case "right":
			setSession(c)
			return c.JSON(http.StatusOK, map[string]any{})
		case "right-2fa":
			return c.JSON(http.StatusOK, map[string]any{"secondFactor": "totp"})
		}
		return echo.NewHTTPError(http.StatusUnauthorized, "wrong username or password")
	})
	api.POST("/admin/login/totp", func(c echo.Context) error {
		setSession(c)
		return c.NoContent(http.StatusNoContent)
	})
	api.GET("/admin/sso/callback", func(c echo.Context) error {
		if c.QueryParam("code") == "good" {
			setSession(c)
			return c.Redirect(http.StatusFound, "/")
		}
		return c.Redirect(http.StatusFound, "/login?error=sso")
	})
	api.GET("/admin/me", func(c echo.Context) error {
		if ck, err := c.Cookie("session"); err != nil || ck.Value != "sess-1" {
			return echo.NewHTTPError(http.StatusUnauthorized)
		}
		return c.JSON(http.StatusOK, map[string]any{"user": map[string]any{"id": "u1", "username": "ann"}})
	})
	return e, s
}

func TestSignInOutcomes(t *testing.T) {
	e, s := signInServer(t)
	tests := []struct {
		name, method, path, body string
		wantAction, wantName     string
		wantID                   string
	}{
		{"wrong password", "POST", "/api/admin/login", `{"username":"ann","password":"nope"}`, ActionSignInFailed, "ann", ""},
		{"password accepted, second factor pending", "POST", "/api/admin/login", `{"username":"ann","password":"right-2fa"}`, ActionSignInStep, "ann", ""},
		{"second factor accepted", "POST", "/api/admin/login/totp", `{"code":"123456"}`, ActionSignIn, "ann", "u1"},
		{"password accepted", "POST", "/api/admin/login", `{"username":"ann","password":"right"}`, ActionSignIn, "ann", "u1"},
		{"malformed body: no credential checked, not recorded", "POST", "/api/admin/login", `{"username":`, "", "", ""},
		{"SSO refused", "GET", "/api/admin/sso/callback?code=bad", "", ActionSignInFailed, "", ""},
		{"SSO accepted", "GET", "/api/admin/sso/callback?code=good", "", ActionSignIn, "ann", "u1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req := httptest.NewRequest(tt.method, tt.path, body)
			req.RemoteAddr = "203.0.113.9:5000"
			rec := httptest.NewRecorder()
			before, _ := s.List(t.Context(), Filter{Limit: MaxLimit})
			e.ServeHTTP(rec, req)
			p, err := s.List(t.Context(), Filter{Limit: MaxLimit})
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantAction == "" {
				if len(p.Items) != len(before.Items) {
					t.Fatalf("recorded %+v", p.Items[0])
				}
				return
			}
			if len(p.Items) != len(before.Items)+1 {
				t.Fatalf("entries = %d, want one more than %d", len(p.Items), len(before.Items))
			}
			got := p.Items[0]
			if got.Action != tt.wantAction || got.Actor.Name != tt.wantName || got.Actor.ID != tt.wantID ||
				got.Address != "203.0.113.9" || got.Status != rec.Code || got.Route == "" {
				t.Fatalf("entry = %+v (answer %d)", got, rec.Code)
			}
			b, _ := json.Marshal(got)
			if strings.Contains(string(b), "right") || strings.Contains(string(b), "123456") {
				t.Fatalf("entry shows a credential: %s", b)
			}
		})
	}
	if s.Failures() != 0 {
		t.Fatalf("failures = %d", s.Failures())
	}
}

// The middleware reads a resource as the same client: the guard sees the
// same cookie and puts the same actor in the context.
func TestChangeReadsAsTheSameClient(t *testing.T) {
	s, _ := newTestService(t)
	e := echo.New()
	api := e.Group("/api")
	var reads []string
	api.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ck, err := c.Cookie("session")
			if err != nil {
				return echo.NewHTTPError(http.StatusUnauthorized)
			}
			r := c.Request()
			c.SetRequest(r.WithContext(actor.With(r.Context(), actor.Actor{Kind: actor.KindToken, ID: "t1", Name: ck.Value})))
			return next(c)
		}
	})
	api.Use(s.Middleware)
	state := map[string]any{"id": "x1", "name": "box", "apiKey": "k-old"}
	api.GET("/boxes/:id", func(c echo.Context) error {
		a, _ := actor.From(c.Request().Context())
		reads = append(reads, a.Name)
		if state == nil {
			return echo.NewHTTPError(http.StatusNotFound)
		}
		return c.JSON(http.StatusOK, state)
	})
	api.PUT("/boxes/:id", func(c echo.Context) error {
		state = map[string]any{"id": "x1", "name": "crate", "apiKey": "k-new"}
		return c.JSON(http.StatusOK, state)
	})
	req := httptest.NewRequest(http.MethodPut, "/api/boxes/x1", strings.NewReader(`{}`))
	req.Header.Set("Cookie", "session=ci-token")
	e.ServeHTTP(httptest.NewRecorder(), req)
	if len(reads) != 2 || reads[0] != "ci-token" || reads[1] != "ci-token" {
		t.Fatalf("reads = %v", reads)
	}
	p, _ := s.List(t.Context(), Filter{Limit: 10})
	if len(p.Items) != 1 {
		t.Fatalf("entries = %d", len(p.Items))
	}
	got := p.Items[0]
	if got.Actor.Kind != "token" || got.Resource.ID != "x1" || got.Resource.Name != "crate" || got.Resource.Type != "boxes" {
		t.Fatalf("entry = %+v", got)
	}
	want := []Change{{"apiKey", Redacted, Redacted}, {"name", "box", "crate"}}
	b, _ := json.Marshal(got.Changes)
	w, _ := json.Marshal(want)
	if string(b) != string(w) {
		t.Fatalf("changes = %s, want %s", b, w)
	}
}
