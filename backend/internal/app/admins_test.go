package app

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type account struct {
	ID           string  `json:"id"`
	Username     string  `json:"username"`
	PanelRole    string  `json:"panelRole"`
	Enabled      bool    `json:"enabled"`
	LastSignInAt *string `json:"lastSignInAt"`
	CreatedAt    string  `json:"createdAt"`
}

func TestPeopleAPI(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	me := decode[struct{ User struct{ ID, Role string } }](t, a.do("GET", "/api/admin/me", "")).User
	if me.Role != "admin" {
		t.Fatalf("me = %+v; want the admin role", me)
	}

	rec := a.do("POST", "/api/people", `{"username":"eve","password":"short","panelRole":"boss"}`)
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("invalid create = %d %s", rec.Code, rec.Body)
	}
	if fields := decodeEnvelope(t, rec).Error.Fields; len(fields) != 2 || fields[0].Field != "panelRole" || fields[1].Field != "password" {
		t.Fatalf("fields = %+v; want panelRole and password", fields)
	}
	eve := a.createUser(t, "eve", "viewer")
	eveCookie := a.login(t, "eve", "correct-horse-battery", owner)

	list := decode[struct{ Items []account }](t, a.do("GET", "/api/people", "")).Items
	if len(list) != 2 || list[0].Username != "admin" || list[1].Username != "eve" || list[1].PanelRole != "viewer" ||
		list[1].LastSignInAt == nil || list[1].CreatedAt == "" {
		t.Fatalf("list = %+v", list)
	}
	if rec := a.do("GET", "/api/people/nope", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown = %d", rec.Code)
	}

	// The last admin cannot be demoted, disabled or deleted, nor can anyone
	// disable or delete themselves; the refusal names the field.
	for _, tt := range []struct{ method, body, field, says string }{
		{"PATCH", `{"panelRole":"viewer"}`, "panelRole", "at least one enabled person"},
		{"PATCH", `{"panelRole":"none"}`, "panelRole", "your own panel role"},
		{"PATCH", `{"enabled":false}`, "enabled", "disable yourself"},
		{"DELETE", "", "id", "delete yourself"},
	} {
		rec := a.do(tt.method, "/api/people/"+me.ID, tt.body)
		if rec.Code != http.StatusConflict {
			t.Fatalf("%s %s = %d %s; want 409", tt.method, tt.body, rec.Code, rec.Body)
		}
		e := decodeEnvelope(t, rec).Error
		if len(e.Fields) != 1 || e.Fields[0].Field != tt.field || !strings.Contains(e.Message, tt.says) {
			t.Fatalf("%s %s: %+v", tt.method, tt.body, e)
		}
	}

	// Promote eve, then disable her: her session ends.
	if rec := a.do("PATCH", "/api/people/"+eve, `{"panelRole":"admin"}`); rec.Code != http.StatusOK || decode[account](t, rec).PanelRole != "admin" {
		t.Fatalf("promote = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PATCH", "/api/people/"+eve, `{"enabled":false}`); rec.Code != http.StatusOK || decode[account](t, rec).Enabled {
		t.Fatalf("disable = %d %s", rec.Code, rec.Body)
	}
	if rec := testutil.Request(a.handler, "GET", "/api/admin/me", "", "Cookie", "gatehouse_admin="+eveCookie); rec.Code != http.StatusUnauthorized {
		t.Fatalf("a disabled admin's session answered %d", rec.Code)
	}
	if rec := a.do("PATCH", "/api/people/"+eve, `{"enabled":true}`); rec.Code != http.StatusOK {
		t.Fatalf("enable = %d %s", rec.Code, rec.Body)
	}

	// Reset her password: her new session ends, the new password works.
	eveCookie = a.login(t, "eve", "correct-horse-battery", owner)
	if rec := a.do("PUT", "/api/people/"+eve+"/password", `{"password":"short"}`); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("short password = %d", rec.Code)
	}
	if rec := a.do("PUT", "/api/people/"+eve+"/password", `{"password":"a-brand-new-password"}`); rec.Code != http.StatusNoContent {
		t.Fatalf("reset = %d %s", rec.Code, rec.Body)
	}
	if rec := testutil.Request(a.handler, "GET", "/api/admin/me", "", "Cookie", "gatehouse_admin="+eveCookie); rec.Code != http.StatusUnauthorized {
		t.Fatalf("a session survived the reset: %d", rec.Code)
	}
	a.login(t, "eve", "a-brand-new-password", owner)

	// Groups, members, sessions, the second factor: every answer as the
	// API document says.
	fam := a.mustCreate("/api/groups", `{"name":"family","description":"at home"}`)
	if rec := a.do("POST", "/api/groups", `{"name":"Family"}`); rec.Code != http.StatusConflict {
		t.Fatalf("a second family = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/groups/"+fam.ID+"/members", `{"personId":"`+eve+`"}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"username":"eve"`) {
		t.Fatalf("add eve = %d %s", rec.Code, rec.Body)
	}
	for _, path := range []string{"/api/groups", "/api/groups/" + fam.ID, "/api/people/" + eve, "/api/people?q=ev&limit=1", "/api/people/" + eve + "/sessions"} {
		if rec := a.do("GET", path, ""); rec.Code != http.StatusOK {
			t.Fatalf("GET %s = %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := a.do("GET", "/api/people?limit=0", ""); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("limit 0 = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PATCH", "/api/groups/"+fam.ID, `{"description":"everyone at home"}`); rec.Code != http.StatusOK {
		t.Fatalf("edit the group = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/people/"+eve+"/second-factor", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("reset eve's second factor = %d %s", rec.Code, rec.Body)
	}
	eveCookie = a.login(t, "eve", "a-brand-new-password", owner)
	if rec := a.do("DELETE", "/api/people/"+eve+"/sessions", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end eve's sessions = %d %s", rec.Code, rec.Body)
	}
	if rec := testutil.Request(a.handler, "GET", "/api/admin/me", "", "Cookie", "gatehouse_admin="+eveCookie); rec.Code != http.StatusUnauthorized {
		t.Fatalf("a session survived the end of all: %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/groups/"+fam.ID+"/members/"+eve, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("remove eve = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/groups/"+fam.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete the group = %d %s", rec.Code, rec.Body)
	}
	a.login(t, "eve", "a-brand-new-password", owner)

	// Now eve is an active admin, so the first one can step down.
	if rec := a.do("PATCH", "/api/people/"+me.ID, `{"panelRole":"viewer"}`); rec.Code != http.StatusOK {
		t.Fatalf("demote with another admin = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/people", `{"username":"x","password":"correct-horse-battery","panelRole":"viewer"}`); rec.Code != http.StatusForbidden {
		t.Fatalf("a viewer created a person: %d", rec.Code)
	}
}

// In managed mode the panel's own router carries no basic auth (see
// dynconf's adminRouter): no administrator's password hash reaches the
// configuration Traefik fetches, whoever is added or gets a new password.
func TestManagedConfigCarriesNoAdministratorHashes(t *testing.T) {
	a := newTestApp(t, map[string]string{
		"PANEL_MANAGED": "true", "PANEL_ADMIN_DOMAIN": "panel.example.com", "PANEL_INTERNAL_URL": "http://gatehouse:8081",
	})
	a.signIn()
	bob := a.createUser(t, "bob", "admin")
	if rec := a.do("PUT", "/api/people/"+bob+"/password", `{"password":"a-brand-new-password"}`); rec.Code != http.StatusNoContent {
		t.Fatalf("reset = %d", rec.Code)
	}
	rec := a.do("GET", "/api/proxy/config", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("config = %d %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if !strings.Contains(body, `"gh-admin-websecure"`) || strings.Contains(body, "$2a$") || strings.Contains(body, "basicAuth") {
		t.Fatalf("the admin router is missing or carries password hashes: %s", body)
	}
}

func TestAPITokens(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	bearer := func(value, method, path, body string, headers ...string) int {
		t.Helper()
		return testutil.Request(a.handler, method, path, body, append([]string{"Authorization", "Bearer " + value, "RemoteAddr", stranger}, headers...)...).Code
	}
	rec := a.do("POST", "/api/admin/tokens", `{"name":"ci","role":"admin"}`)
	if rec.Code != http.StatusCreated || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("create = %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	value := decode[struct{ Value string }](t, rec).Value
	if !strings.HasPrefix(value, "gha_") {
		t.Fatalf("value %q", value)
	}
	if code := bearer(value, "GET", "/api/services", ""); code != http.StatusOK {
		t.Fatalf("GET with the token = %d", code)
	}
	// Writes by token skip the CSRF check (no cookie), even with browser
	// headers; with a cookie the check stays.
	if code := bearer(value, "PUT", "/api/config", `{"defaultEntrypoints":["web"]}`, "Sec-Fetch-Site", "cross-site"); code != http.StatusOK {
		t.Fatalf("PUT with the token = %d", code)
	}
	if code := bearer(value, "PUT", "/api/config", `{"defaultEntrypoints":["web"]}`, "Sec-Fetch-Site", "cross-site", "Cookie", "gatehouse_admin="+a.cookie); code != http.StatusForbidden {
		t.Fatalf("cross-site PUT with a cookie and a token = %d; want 403", code)
	}
	if code := bearer(value, "POST", "/api/admin/tokens", `{"name":"more","role":"viewer"}`); code != http.StatusForbidden {
		t.Fatalf("a token created a token: %d", code)
	}
	if code := bearer(value, "GET", "/api/admin/me", ""); code != http.StatusForbidden {
		t.Fatalf("a token used a self-service route: %d", code)
	}

	list := decode[struct {
		Items []struct {
			ID, Name, Role, CreatedBy, Status string
			LastUsedAt                        *string
		}
	}](t, a.do("GET", "/api/admin/tokens", "")).Items
	if len(list) != 1 || list[0].Name != "ci" || list[0].CreatedBy != "admin" || list[0].LastUsedAt == nil || list[0].Status != "active" {
		t.Fatalf("list = %+v", list)
	}
	if rec := a.do("DELETE", "/api/admin/tokens/"+list[0].ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke = %d", rec.Code)
	}
	if code := bearer(value, "GET", "/api/services", ""); code != http.StatusUnauthorized {
		t.Fatalf("revoked token = %d", code)
	}
	// Wrong tokens are limited per address, with Retry-After.
	var last *http.Response
	for range 25 {
		last = testutil.Request(a.handler, "GET", "/api/services", "", "Authorization", "Bearer gha_wrong", "RemoteAddr", stranger).Result()
	}
	if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Retry-After") == "" {
		t.Fatalf("after 25 wrong tokens = %d %v", last.StatusCode, last.Header)
	}
}

func TestAdminCreateCommandRole(t *testing.T) {
	env := map[string]string{"PANEL_DATA_DIR": t.TempDir()}
	a := newTestApp(t, env)
	a.signIn()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.AdminPassword = "correct-horse-battery"
	for _, tt := range []struct {
		args []string
		want string // the role; "" fails
	}{
		{[]string{"-username", "ann"}, "admin"},
		{[]string{"-username", "vic", "-role", "viewer"}, "viewer"},
		{[]string{"-username", "bad", "-role", "root"}, ""},
	} {
		var out, errOut bytes.Buffer
		err := adminCommand(context.Background(), cfg, Options{Args: append([]string{"admin", "create"}, tt.args...), Stdout: &out, Stderr: &errOut})
		if tt.want == "" {
			if err == nil {
				t.Fatalf("%v succeeded", tt.args)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), tt.want+" role") {
			t.Fatalf("%v = %v, %q", tt.args, err, out.String())
		}
	}
	roles := map[string]string{}
	for _, u := range decode[struct{ Items []account }](t, a.do("GET", "/api/people", "")).Items {
		roles[u.Username] = u.PanelRole
	}
	if roles["ann"] != "admin" || roles["vic"] != "viewer" || len(roles) != 3 {
		t.Fatalf("roles = %v", roles)
	}
}

// A viewer reads no secret: the values of the headers a service sends
// upstream (often an upstream's API key) are hidden from them, not their
// names; an administrator sees the values.
func TestViewerSeesNoUpstreamHeaderValues(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do("POST", "/api/services", `{"name":"app","hostnames":[{"type":"custom","value":"app.test"}],`+
		`"targets":[{"host":"10.0.0.1","port":80}],"headers":{"X-Api-Key":"upstream-secret-4711"}}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	a.createUser(t, "vic", "viewer")
	viewer := a.login(t, "vic", "correct-horse-battery", owner)
	for _, path := range []string{"/api/services", "/api/services/" + id} {
		rec := testutil.Request(a.handler, "GET", path, "", "Cookie", "gatehouse_admin="+viewer)
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "upstream-secret-4711") ||
			!strings.Contains(rec.Body.String(), `"X-Api-Key":"[hidden]"`) {
			t.Fatalf("viewer GET %s = %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := a.do("GET", "/api/services/"+id, ""); !strings.Contains(rec.Body.String(), "upstream-secret-4711") {
		t.Fatalf("the administrator lost the value: %s", rec.Body)
	}
}
