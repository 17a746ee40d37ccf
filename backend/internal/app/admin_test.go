package app

import (
	"net/http"
	"strings"
	"testing"
)

func TestFirstRunSetupWorksOnceThenCloses(t *testing.T) {
	a := newTestApp(t, nil)
	if s := decode[map[string]any](t, a.do("GET", "/api/system", "")); s["setupRequired"] != true {
		t.Fatalf("system before setup = %v", s)
	}
	// Invalid credentials name the field and create nothing.
	rec := a.do("POST", "/api/admin/setup", `{"username":"admin","password":"short"}`)
	if rec.Code != http.StatusUnprocessableEntity || decodeEnvelope(t, rec).Error.Fields[0].Field != "password" {
		t.Fatalf("weak password: %d %s", rec.Code, rec.Body)
	}
	a.signIn()
	ck := a.do("GET", "/api/admin/me", "")
	if ck.Code != http.StatusOK || !strings.Contains(ck.Body.String(), `"username":"admin"`) {
		t.Fatalf("me = %d %s", ck.Code, ck.Body)
	}
	a.cookie = ""
	rec = a.do("POST", "/api/admin/setup", `{"username":"mallory","password":"another-long-password"}`)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("second setup = %d %s", rec.Code, rec.Body)
	}
	if s := decode[map[string]any](t, a.do("GET", "/api/system", "")); s["setupRequired"] != false {
		t.Fatalf("system after setup = %v", s)
	}
}

func TestSessionCookieFlags(t *testing.T) {
	a := newTestApp(t, nil)
	rec := a.do("POST", "/api/admin/setup", `{"username":"admin","password":"correct-horse-battery"}`,
		"X-Forwarded-Proto", "https", "RemoteAddr", "10.0.0.2:40000")
	ck := rec.Result().Cookies()
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || !ck[0].Secure {
		t.Fatalf("cookie = %+v", ck)
	}
	// A forged X-Forwarded-Proto from an untrusted (public) peer is ignored.
	a2 := newTestApp(t, nil)
	rec = a2.do("POST", "/api/admin/setup", `{"username":"admin","password":"correct-horse-battery"}`,
		"X-Forwarded-Proto", "https", "RemoteAddr", "203.0.113.9:40000")
	if ck := rec.Result().Cookies(); len(ck) != 1 || ck[0].Secure {
		t.Fatalf("cookie from an untrusted peer = %+v", ck)
	}
}

func TestEnvironmentBootstrapAdmin(t *testing.T) {
	a := newTestApp(t, nil)
	created, err := a.c.admin.EnsureBootstrap(t.Context(), "ops", "from-the-environment")
	if err != nil || !created {
		t.Fatalf("EnsureBootstrap = %v, %v", created, err)
	}
	if created, err := a.c.admin.EnsureBootstrap(t.Context(), "ops", "from-the-environment"); err != nil || created {
		t.Fatalf("second EnsureBootstrap = %v, %v; want a no-op", created, err)
	}
	rec := a.do("POST", "/api/admin/login", `{"username":"ops","password":"from-the-environment"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("login = %d %s", rec.Code, rec.Body)
	}
}

func TestLoginLockout(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = ""
	for i := 0; i < 5; i++ {
		rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password!"}`)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("attempt %d = %d", i+1, rec.Code)
		}
	}
	// Even the right password is refused while locked out, with a clear message.
	rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("locked-out login = %d (Retry-After %q)", rec.Code, rec.Header().Get("Retry-After"))
	}
	if e := decodeEnvelope(t, rec); e.Error.Code != "rate_limited" || !strings.Contains(e.Error.Message, "try again") {
		t.Fatalf("envelope = %+v", e)
	}
}

func TestLogoutEndsSession(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	if rec := a.do("POST", "/api/admin/logout", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("logout = %d", rec.Code)
	}
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("me after logout = %d", rec.Code)
	}
}

func TestCSRFRefusesCrossSiteWrites(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	body := `{"defaultEntrypoints":["web"]}`
	tests := []struct {
		name    string
		headers []string
		want    int
	}{
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"same-site fetch", []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"foreign origin", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"same origin", []string{"Origin", "http://example.com", "Sec-Fetch-Site", "same-origin"}, http.StatusOK},
		{"non-browser client", nil, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rec := a.do("PUT", "/api/config", body, tt.headers...); rec.Code != tt.want {
				t.Fatalf("= %d %s; want %d", rec.Code, rec.Body, tt.want)
			}
		})
	}
}
