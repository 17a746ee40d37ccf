package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// caller is one way of reaching the API in the role walk.
type caller struct {
	name   string
	viewer bool
	token  bool
	// login opens a new session (sessions) and returns the cookie value.
	login func() string
	value string // the session cookie or the token
}

func (a *testApp) as(c *caller, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	if c.token {
		return testutil.Request(a.handler, method, path, body, append([]string{"Authorization", "Bearer " + c.value}, headers...)...)
	}
	return testutil.Request(a.handler, method, path, body, append([]string{"Cookie", "gatehouse_admin=" + c.value}, headers...)...)
}

// createToken makes an API token with the admin's session and returns its value.
func (a *testApp) createToken(t *testing.T, name, role string) string {
	t.Helper()
	rec := a.do("POST", "/api/admin/tokens", `{"name":"`+name+`","role":"`+role+`"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create token = %d %s", rec.Code, rec.Body)
	}
	return decode[struct{ Value string }](t, rec).Value
}

// createUser adds an administrator with the admin's session.
func (a *testApp) createUser(t *testing.T, username, role string) string {
	t.Helper()
	rec := a.do("POST", "/api/people", `{"username":"`+username+`","password":"correct-horse-battery","panelRole":"`+role+`"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create %s = %d %s", username, rec.Code, rec.Body)
	}
	return decode[struct{ ID string }](t, rec).ID
}

// personAccessWrites are the sign-in settings no token may change: the
// two-factor requirement, administrators' single sign-on (its rules create
// administrators) and the OpenID provider it trusts.
var personAccessWrites = map[string]bool{
	"PUT /api/admin/security": true,
	"PUT /api/admin/sso":      true,
	"PUT /api/sso":            true,
	"PUT /api/config/portal":  true,
}

// wantRole is the policy, written out independently of the routes'
// declarations:
// admins may do everything; viewers read everything but secret-bearing
// pages and write nothing; anyone signed in may use their own account's
// routes, which no token may; tokens never change a person's access
// (administrators, tokens, sign-in and single sign-on settings).
func wantRole(c *caller, method, route string) bool {
	self := route == "/api/admin/me" || route == "/api/admin/logout" || strings.HasPrefix(route, "/api/admin/me/")
	read := method == http.MethodGet
	secret := route == "/api/proxy/config/preview" || route == "/api/backups/:name/download" || route == "/api/export" ||
		route == "/api/containers"
	// A person's access: who may sign in and how. Written out route by
	// route, so a new route under these is a decision someone makes here.
	personOnly := strings.HasPrefix(route, "/api/people") || strings.HasPrefix(route, "/api/groups") || strings.HasPrefix(route, "/api/admin/tokens") ||
		strings.HasPrefix(route, "/api/invitations") || route == "/api/registration/settings" ||
		personAccessWrites[method+" "+route]
	switch {
	case self:
		return !c.token
	case c.viewer:
		return read && !secret
	case c.token:
		return read || !personOnly
	}
	return true
}

// roleRefusal reports an answer of the role check (not a handler's own 403,
// such as a refused cross-site request).
func roleRefusal(rec *httptest.ResponseRecorder) bool {
	if rec.Code != http.StatusForbidden {
		return false
	}
	b := rec.Body.String()
	return strings.Contains(b, "viewers ") || strings.Contains(b, "API tokens cannot")
}

// TestRoleDecisions walks the real route table as an admin and a viewer,
// each signed in and with an API token, and checks every decision of the
// role check against the policy.
func TestRoleDecisions(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.createUser(t, "viewer", "viewer")
	callers := []*caller{
		{name: "admin session", login: func() string { return a.login(t, "admin", "correct-horse-battery", owner) }},
		{name: "viewer session", viewer: true, login: func() string { return a.login(t, "viewer", "correct-horse-battery", owner) }},
		{name: "admin token", token: true, value: a.createToken(t, "admin-token", "admin")},
		{name: "viewer token", token: true, viewer: true, value: a.createToken(t, "viewer-token", "viewer")},
	}
	for _, c := range callers {
		if c.login != nil {
			c.value = c.login()
		}
	}
	routes := map[string]bool{}
	checked := 0
	for _, r := range a.c.echo.Routes() {
		routes[r.Method+" "+r.Path] = true
		if !strings.HasPrefix(r.Path, "/api") || r.Method == echo.RouteNotFound || a.c.routes.Rule(r.Method, r.Path).Open() {
			continue
		}
		path := concretePath(r.Path)
		for _, c := range callers {
			rec := a.as(c, r.Method, path, "")
			allowed := wantRole(c, r.Method, r.Path)
			switch {
			case rec.Code == http.StatusUnauthorized:
				t.Errorf("%s: %s %s answered 401 %s", c.name, r.Method, r.Path, rec.Body)
			case allowed && roleRefusal(rec):
				t.Errorf("%s: %s %s refused: %s", c.name, r.Method, r.Path, rec.Body)
			case !allowed && !roleRefusal(rec):
				t.Errorf("%s: %s %s answered %d %s; want the role check's 403", c.name, r.Method, r.Path, rec.Code, rec.Body)
			case !allowed && decodeEnvelope(t, rec).Error.Code != "forbidden":
				t.Errorf("%s: %s %s: wrong error code", c.name, r.Method, r.Path)
			}
			if r.Path == "/api/admin/logout" && c.login != nil && rec.Code == http.StatusNoContent {
				c.value = c.login() // signed out: sign in again for the rest of the walk
			}
			checked++
		}
	}
	t.Logf("%d decisions checked", checked)
	if checked < 200 {
		t.Fatalf("only %d decisions checked; the walk is broken", checked)
	}
	// Each class the policy above names is declared somewhere, so the walk
	// exercised it.
	classes := map[route.Class]int{}
	for _, r := range a.c.routes.Rules() {
		classes[r.Class]++
		if !routes[r.String()] {
			t.Errorf("declared route %s is not a registered route", r)
		}
	}
	for _, c := range []route.Class{route.Guarded, route.SelfService, route.SecretRead, route.PersonOnly} {
		if classes[c] == 0 {
			t.Errorf("no route is declared %s", c)
		}
	}
}

// concretePath fills a route pattern's parameters with "x".
func concretePath(route string) string {
	parts := strings.Split(route, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || p == "*" {
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}

// A person without a panel role opens no route: their sign-in is refused
// in words, and a session of theirs (opened while they had a role, the
// role taken away behind the API's back) answers 401 on every route that
// is not public, across the whole route table.
func TestNoPanelRoleOpensNoRoute(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	nina := a.createUser(t, "nina", "viewer")
	cookie := a.login(t, "nina", "correct-horse-battery", owner)
	if err := a.c.db.Model(&store.Person{}).Where("id = ?", nina).Update("panel_role", store.PanelRoleNone).Error; err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range a.c.echo.Routes() {
		if !strings.HasPrefix(r.Path, "/api") || r.Method == echo.RouteNotFound || a.c.routes.Rule(r.Method, r.Path).Open() {
			continue
		}
		rec := testutil.Request(a.handler, r.Method, concretePath(r.Path), "", "Cookie", "gatehouse_admin="+cookie, "RemoteAddr", owner)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("%s %s with the session of a person without a panel role = %d %s", r.Method, r.Path, rec.Code, rec.Body)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d routes walked", checked)
	}
	rec := testutil.Request(a.handler, "POST", "/api/admin/login", `{"username":"nina","password":"correct-horse-battery"}`, "RemoteAddr", owner)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "no access to the panel") {
		t.Fatalf("sign-in without a panel role = %d %s", rec.Code, rec.Body)
	}
	// Taking the role away through the API signs them out at once.
	if rec := a.do("PATCH", "/api/people/"+nina, `{"panelRole":"viewer"}`); rec.Code != http.StatusOK {
		t.Fatalf("give the role back = %d %s", rec.Code, rec.Body)
	}
	cookie = a.login(t, "nina", "correct-horse-battery", owner)
	if rec := a.do("PATCH", "/api/people/"+nina, `{"panelRole":"none"}`); rec.Code != http.StatusOK {
		t.Fatalf("take the role away = %d %s", rec.Code, rec.Body)
	}
	var n int64
	if err := a.c.db.Model(&store.AdminSession{}).Where("user_id = ?", nina).Count(&n).Error; err != nil || n != 0 {
		t.Fatalf("%d sessions left after the role went (%v)", n, err)
	}
	if rec := testutil.Request(a.handler, "GET", "/api/admin/me", "", "Cookie", "gatehouse_admin="+cookie); rec.Code != http.StatusUnauthorized {
		t.Fatalf("the session outlived the role: %d", rec.Code)
	}
}
