package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestEveryOtherRouteRequiresAdmin walks the real route table: every /api
// route its registration does not declare public or machine (route.Public,
// route.Machine) must answer 401 without an admin session, so a new route
// cannot be left open by accident.
func TestEveryOtherRouteRequiresAdmin(t *testing.T) {
	a := newTestApp(t, nil)
	e := a.c.echo
	checked := 0
	for _, r := range e.Routes() {
		if !strings.HasPrefix(r.Path, "/api") || r.Method == echo.RouteNotFound {
			continue
		}
		if a.c.routes.Rule(r.Method, r.Path).Open() {
			continue
		}
		path := strings.NewReplacer(":id", "x", ":type", "x", ":linkId", "x", "*", "x").Replace(r.Path)
		for strings.Contains(path, ":") { // any other parameter name
			i := strings.Index(path, ":")
			j := strings.IndexByte(path[i:], '/')
			if j < 0 {
				path = path[:i] + "x"
			} else {
				path = path[:i] + "x" + path[i+j:]
			}
		}
		rec := a.do(r.Method, path, "")
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("%s %s (%s) answered %d without a session; want 401", r.Method, r.Path, path, rec.Code)
			continue
		}
		if decodeEnvelope(t, rec).Error.Code != "unauthenticated" {
			t.Errorf("%s %s: wrong error code", r.Method, r.Path)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d guarded routes checked; the walk is broken", checked)
	}
	// The declarations name registered routes exactly, nothing more, and
	// every /api route was registered through them.
	registered := map[string]bool{}
	for _, r := range e.Routes() {
		if strings.HasPrefix(r.Path, "/api") && r.Method != echo.RouteNotFound {
			registered[r.Method+" "+r.Path] = true
		}
	}
	declared, open := map[string]bool{}, 0
	for _, r := range a.c.routes.Rules() {
		declared[r.String()] = true
		if !registered[r.String()] {
			t.Errorf("declared route %s is not a registered route", r)
		}
		if r.Open() {
			open++
			t.Logf("open: %s (%s: %s)", r, r.Class, r.Reason)
		}
	}
	for r := range registered {
		if !declared[r] {
			t.Errorf("%s is registered around the route package: nothing declares who may call it", r)
		}
	}
	if open == 0 || open > len(declared)/4 {
		t.Errorf("%d of %d routes are open; the walk is broken", open, len(declared))
	}
	// A declaration matches exactly: no prefix or method wildcards.
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/auth/sso"}, {"POST", "/api/auth/sso/start"}, {"GET", "/api/auth/verify"},
		{"GET", "/api/proxy/config/preview"}, {"PUT", "/api/proxy/managed"},
	} {
		if a.c.routes.Rule(r.method, r.path).Open() {
			t.Errorf("%s %s is open; only the routes declared so are", r.method, r.path)
		}
	}
	// Unknown /api paths are guarded too, and never fall back to the SPA.
	if rec := a.do("GET", "/api/does-not-exist", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("unknown /api route answered %d", rec.Code)
	}
	a.signIn()
	if rec := a.do("GET", "/api/does-not-exist", ""); rec.Code != http.StatusNotFound || decodeEnvelope(t, rec).Error.Code != "not_found" {
		t.Fatalf("unknown /api route with a session answered %d %s", rec.Code, rec.Body)
	}
}

func TestPublicRoutesAnswerWithoutSession(t *testing.T) {
	a := newTestApp(t, nil)
	for _, p := range []string{"/api/health", "/api/system"} {
		if rec := a.do("GET", p, ""); rec.Code != http.StatusOK {
			t.Errorf("GET %s = %d", p, rec.Code)
		}
	}
	if rec := a.do("GET", "/services/123", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<html") {
		t.Errorf("SPA fallback = %d", rec.Code)
	}
}
