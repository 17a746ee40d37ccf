package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
)

const (
	stranger = "203.0.113.66:40000"
	owner    = "198.51.100.7:40000"
)

func sessionCookie(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "gatehouse_admin" {
			return ck.Value
		}
	}
	t.Fatalf("no session cookie (%d %s)", rec.Code, rec.Body)
	return ""
}

// login signs in from addr without touching a's cookie and returns the new
// session's cookie value.
func (a *testApp) login(t *testing.T, username, password, addr string, headers ...string) string {
	t.Helper()
	saved := a.cookie
	a.cookie = ""
	defer func() { a.cookie = saved }()
	rec := a.do("POST", "/api/admin/login", `{"username":"`+username+`","password":"`+password+`"}`,
		append([]string{"RemoteAddr", addr}, headers...)...)
	if rec.Code != http.StatusOK {
		t.Fatalf("login from %s = %d %s", addr, rec.Code, rec.Body)
	}
	return sessionCookie(t, rec)
}

// A wrong-password storm from one address blocks that address, with a
// message saying when to retry, and never the owner signing in elsewhere.
func TestLoginStormDoesNotLockOutTheOwner(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = ""
	for i := range 30 {
		rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password!"}`, "RemoteAddr", stranger)
		want := http.StatusUnauthorized
		if i >= 5 {
			want = http.StatusTooManyRequests
		}
		if rec.Code != want {
			t.Fatalf("attempt %d = %d; want %d", i+1, rec.Code, want)
		}
	}
	rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`, "RemoteAddr", stranger)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("right password from the storming address = %d (Retry-After %q)", rec.Code, rec.Header().Get("Retry-After"))
	}
	if e := decodeEnvelope(t, rec); e.Error.Code != "rate_limited" || !strings.HasSuffix(e.Error.Message, "try again in 15 minutes") {
		t.Fatalf("envelope = %+v", e)
	}
	a.login(t, "admin", "correct-horse-battery", owner)
}

func TestChangePassword(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = a.login(t, "admin", "correct-horse-battery", owner)
	other := a.login(t, "admin", "correct-horse-battery", "192.0.2.50:1234")

	tests := []struct {
		name, body string
		status     int
		field      string
	}{
		{"no body", "", http.StatusBadRequest, ""},
		{"wrong current password", `{"currentPassword":"not-it-at-all","newPassword":"a-brand-new-password"}`, http.StatusUnprocessableEntity, "currentPassword"},
		{"short new password", `{"currentPassword":"correct-horse-battery","newPassword":"short"}`, http.StatusUnprocessableEntity, "newPassword"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.do("PUT", "/api/admin/me/password", tt.body, "RemoteAddr", owner)
			if rec.Code != tt.status {
				t.Fatalf("= %d %s; want %d", rec.Code, rec.Body, tt.status)
			}
			if tt.field != "" {
				if e := decodeEnvelope(t, rec); len(e.Error.Fields) != 1 || e.Error.Fields[0].Field != tt.field {
					t.Fatalf("envelope = %+v; want a field error on %s", e, tt.field)
				}
			}
		})
	}
	rec := a.do("PUT", "/api/admin/me/password",
		`{"currentPassword":"correct-horse-battery","newPassword":"a-brand-new-password"}`, "RemoteAddr", owner)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("change = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusOK {
		t.Fatalf("the current session ended: %d", rec.Code)
	}
	saved := a.cookie
	a.cookie = other
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("another session survived the change: %d", rec.Code)
	}
	a.cookie = saved
	a.login(t, "admin", "a-brand-new-password", "192.0.2.51:1234")
}

// A wrong current password counts as a failed sign-in: guessing through a
// stolen session is limited like guessing at the sign-in form.
func TestWrongCurrentPasswordCountsTowardTheLimit(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	for i := range 4 {
		rec := a.do("PUT", "/api/admin/me/password",
			`{"currentPassword":"guess-number-`+string(rune('a'+i))+`","newPassword":"a-brand-new-password"}`, "RemoteAddr", stranger)
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("guess %d = %d", i+1, rec.Code)
		}
	}
	saved := a.cookie
	a.cookie = ""
	if rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password!"}`, "RemoteAddr", stranger); rec.Code != http.StatusUnauthorized {
		t.Fatalf("fifth failure = %d", rec.Code)
	}
	a.cookie = saved
	rec := a.do("PUT", "/api/admin/me/password",
		`{"currentPassword":"correct-horse-battery","newPassword":"a-brand-new-password"}`, "RemoteAddr", stranger)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("change after five failures = %d %s (Retry-After %q)", rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
}

func TestOwnSessions(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = a.login(t, "admin", "correct-horse-battery", owner, "User-Agent", "Firefox/140")
	a.login(t, "admin", "correct-horse-battery", "192.0.2.50:1234", "User-Agent", "curl/8")
	if _, err := a.c.admin.Create(t.Context(), "second", "another-long-password"); err != nil {
		t.Fatal(err)
	}
	saved := a.cookie
	a.cookie = a.login(t, "second", "another-long-password", "192.0.2.60:1234")
	theirs := decode[struct{ Items []map[string]any }](t, a.do("GET", "/api/admin/me/sessions", "")).Items
	a.cookie = saved

	rec := a.do("GET", "/api/admin/me/sessions", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("list = %d %s", rec.Code, rec.Body)
	}
	var raw map[string][]map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	items := raw["items"]
	if len(items) != 3 {
		t.Fatalf("items = %s; want setup's and two sign-ins", rec.Body)
	}
	for _, it := range items {
		keys := make([]string, 0, len(it))
		for k := range it {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"address", "createdAt", "current", "expiresAt", "id", "lastSeenAt", "portal", "userAgent"}; !slices.Equal(keys, want) {
			t.Fatalf("session keys = %v; want %v", keys, want)
		}
	}
	list := decode[struct {
		Items []struct {
			ID, UserAgent, Address string
			Current                bool
		}
	}](t, rec).Items
	if list[0].UserAgent != "curl/8" || list[0].Address != "192.0.2.50" || list[0].Current ||
		list[1].UserAgent != "Firefox/140" || list[1].Address != "198.51.100.7" || !list[1].Current {
		t.Fatalf("sessions = %+v; want newest first, this one current", list)
	}

	for _, tt := range []struct{ name, id string }{{"another admin's", theirs[0]["id"].(string)}, {"unknown", "nope"}} {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.do("DELETE", "/api/admin/me/sessions/"+tt.id, "")
			if rec.Code != http.StatusNotFound || decodeEnvelope(t, rec).Error.Code != "not_found" {
				t.Fatalf("= %d %s; want 404", rec.Code, rec.Body)
			}
		})
	}
	if rec := a.do("DELETE", "/api/admin/me/sessions/"+list[0].ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end one = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/admin/me/sessions", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end others = %d %s", rec.Code, rec.Body)
	}
	left := decode[struct{ Items []map[string]any }](t, a.do("GET", "/api/admin/me/sessions", "")).Items
	if len(left) != 1 || left[0]["current"] != true {
		t.Fatalf("after ending the others: %v", left)
	}
	a.cookie = ""
	second := a.login(t, "second", "another-long-password", "192.0.2.61:1234")
	a.cookie = second
	if n := len(decode[struct{ Items []map[string]any }](t, a.do("GET", "/api/admin/me/sessions", "")).Items); n != 2 {
		t.Fatalf("the second admin has %d sessions; want 2 (none ended by the first)", n)
	}
	a.cookie = saved
	rec = a.do("DELETE", "/api/admin/me/sessions/"+list[1].ID, "")
	if ck := rec.Result().Cookies(); rec.Code != http.StatusNoContent || len(ck) != 1 || ck[0].MaxAge >= 0 {
		t.Fatalf("end the current session = %d, cookies %+v; want 204 and the cookie cleared", rec.Code, ck)
	}
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("me after ending the current session = %d", rec.Code)
	}
}

func TestAdminResetPasswordCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dir}
	a := newTestApp(t, env)
	a.signIn()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.BcryptCost = bcrypt.MinCost

	tests := []struct {
		name, stdin, envPassword, password string
	}{
		{"password from standard input", "from-standard-input\n", "", "from-standard-input"},
		{"password from the environment", "", "from-the-environment", "from-the-environment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a.cookie = a.login(t, "admin", "correct-horse-battery", owner)
			c := cfg
			c.AdminPassword = tt.envPassword
			var out, errOut bytes.Buffer
			err := adminCommand(context.Background(), c, Options{
				Args:  []string{"admin", "reset-password", "-username", "admin"},
				Stdin: strings.NewReader(tt.stdin), Stdout: &out, Stderr: &errOut,
			})
			if err != nil || !strings.Contains(out.String(), `"admin"`) {
				t.Fatalf("reset-password = %v, %q", err, out.String())
			}
			if strings.Contains(out.String()+errOut.String(), tt.password) {
				t.Fatal("the command printed the password")
			}
			if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
				t.Fatalf("a session survived the reset: %d", rec.Code)
			}
			a.cookie = a.login(t, "admin", tt.password, owner)
			// Back to the usual password for the next case.
			if _, err := a.c.admin.ResetPassword(t.Context(), "admin", "correct-horse-battery"); err != nil {
				t.Fatal(err)
			}
		})
	}

	t.Run("unknown administrator", func(t *testing.T) {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), Options{
			Args:   []string{"admin", "reset-password", "-username", "nobody"},
			Getenv: func(k string) string { return env[k] },
			Stdin:  strings.NewReader("a-long-enough-password\n"), Stdout: &out, Stderr: &errOut,
		})
		if code != 1 || !strings.Contains(errOut.String(), `no administrator named "nobody"`) {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
	})
}

// In managed mode the panel's own router carries no password hashes:
// administrators may have no password (SSO) and the panel's session guard
// protects every non-public route behind it.
func TestManagedAdminRouterCarriesNoPasswords(t *testing.T) {
	a := newTestApp(t, map[string]string{
		"PANEL_MANAGED": "true", "PANEL_ADMIN_DOMAIN": "panel.example.com", "PANEL_INTERNAL_URL": "http://gatehouse:8081",
	})
	a.signIn()
	rec := a.do("GET", "/api/proxy/config", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("config = %d %s", rec.Code, rec.Body)
	}
	var cfg struct {
		HTTP struct {
			Routers map[string]struct {
				Middlewares []string `json:"middlewares"`
			} `json:"routers"`
		} `json:"http"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &cfg); err != nil {
		t.Fatal(err)
	}
	r, ok := cfg.HTTP.Routers["gh-admin-websecure"]
	if !ok || len(r.Middlewares) != 0 {
		t.Fatalf("admin router %+v (present %v)", r, ok)
	}
	if strings.Contains(rec.Body.String(), "$2a$") || strings.Contains(rec.Body.String(), "basicAuth") {
		t.Fatal("the configuration carries password hashes")
	}
}
