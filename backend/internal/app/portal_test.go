package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

const portalHost = "auth.example.com"

// setPortal names portalHost as the sign-in portal's host.
func (a *testApp) setPortal(t *testing.T) {
	t.Helper()
	rec := a.do("PUT", "/api/config/portal", `{"host":"`+portalHost+`","name":"Family","logo":"","accentColor":"#0A7D55",`+
		`"idleTimeoutSeconds":3600,"rememberMeSeconds":86400,"absoluteLifetimeSeconds":604800}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("set portal = %d %s", rec.Code, rec.Body)
	}
}

// TestNoAdministrationRouteAnswersOnThePortalHost walks the whole route
// table through the portal's host, without a session, with an
// administrator's panel session, with portal sessions of an administrator
// and of a person without a panel role, and with an admin API token: every
// route registered without route.Portal answers 404 there, and every
// route with it is a sign-in or self-service route, never administration.
func TestNoAdministrationRouteAnswersOnThePortalHost(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	a.createUser(t, "casey", "none")
	onPortal := []string{"Host", portalHost}
	callers := []*caller{
		{name: "no session"},
		{name: "panel session", value: a.cookie},
		{name: "admin's portal session", value: a.login(t, "admin", "correct-horse-battery", owner, onPortal...)},
		{name: "portal session without a panel role", value: a.login(t, "casey", "correct-horse-battery", owner, onPortal...)},
		{name: "admin token", token: true, value: a.createToken(t, "admin-token", "admin")},
	}
	closed, open := 0, 0
	for _, r := range a.c.echo.Routes() {
		if !strings.HasPrefix(r.Path, "/api") || r.Method == echo.RouteNotFound {
			continue
		}
		rule := a.c.routes.Rule(r.Method, r.Path)
		if rule.Has(route.Portal) {
			open++
			if c := rule.Class; c != route.Public && c != route.Machine && c != route.SelfService {
				t.Errorf("%s answers on the portal host but is a %s route", rule, c)
			}
			t.Logf("portal: %s (%s)", rule, rule.Class)
			continue
		}
		path := concretePath(r.Path)
		for _, c := range callers {
			rec := a.as(c, r.Method, path, "{}", onPortal...)
			if rec.Code != http.StatusNotFound || decodeEnvelope(t, rec).Error.Message != "route not found" {
				t.Errorf("%s: %s %s answered %d %s on the portal host; want 404", c.name, r.Method, r.Path, rec.Code, rec.Body)
			}
		}
		closed++
	}
	if closed < 100 || open < 5 {
		t.Fatalf("%d routes closed and %d open on the portal host; the walk is broken", closed, open)
	}
	// An unknown /api path is the same 404; the single-page app answers
	// every other path (on this host it shows only the portal).
	if rec := a.do("GET", "/api/nothing-here", "", onPortal...); rec.Code != http.StatusNotFound {
		t.Errorf("unknown /api path = %d", rec.Code)
	}
	if rec := a.do("GET", "/account", "", onPortal...); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<html") {
		t.Errorf("SPA on the portal host = %d", rec.Code)
	}
}

// The portal's public description says which host the request reached, so
// the single-page app shows the portal on the portal's host only.
func TestPortalInfo(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	for _, tc := range []struct {
		host string
		want bool
	}{{"", false}, {portalHost, true}, {"AUTH.example.com:443", true}, {"panel.example.com", false}} {
		var h []string
		if tc.host != "" {
			h = []string{"Host", tc.host}
		}
		rec := a.do("GET", "/api/portal", "", h...)
		info := decode[struct {
			Portal      bool   `json:"portal"`
			Name        string `json:"name"`
			AccentColor string `json:"accentColor"`
		}](t, rec)
		if rec.Code != http.StatusOK || info.Portal != tc.want || info.Name != "Family" || info.AccentColor != "#0a7d55" {
			t.Errorf("host %q: %d %+v", tc.host, rec.Code, info)
		}
	}
}

func TestPortalSettingsValidation(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.do("PUT", "/api/config", `{"adminDomain":"panel.example.com","defaultEntrypoints":["websecure"],"globalMiddlewares":[],"defaultLifetimeSeconds":0}`)
	for _, tc := range []struct{ name, body, field string }{
		{"bad host", `"host":"not a host"`, "host"},
		{"the panel's own host", `"host":"panel.example.com"`, "host"},
		{"colour", `"accentColor":"red"`, "accentColor"},
		{"logo scheme", `"logo":"javascript:alert(1)"`, "logo"},
		{"logo too big", `"logo":"data:image/png;base64,` + strings.Repeat("A", 70000) + `"`, "logo"},
		{"idle too short", `"idleTimeoutSeconds":10`, "idleTimeoutSeconds"},
		{"empty name", `"name":" "`, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fields := map[string]string{"host": `"host":""`, "name": `"name":"Family"`, "logo": `"logo":""`,
				"accentColor": `"accentColor":"#112233"`, "idleTimeoutSeconds": `"idleTimeoutSeconds":3600`,
				"rememberMeSeconds": `"rememberMeSeconds":86400`, "absoluteLifetimeSeconds": `"absoluteLifetimeSeconds":86400`}
			fields[tc.field] = tc.body
			parts := make([]string, 0, len(fields))
			for _, v := range fields {
				parts = append(parts, v)
			}
			rec := a.do("PUT", "/api/config/portal", "{"+strings.Join(parts, ",")+"}")
			env := decodeEnvelope(t, rec)
			if rec.Code != http.StatusUnprocessableEntity || len(env.Error.Fields) == 0 || env.Error.Fields[0].Field != tc.field {
				t.Fatalf("= %d %s; want 422 naming %s", rec.Code, rec.Body, tc.field)
			}
		})
	}
}
