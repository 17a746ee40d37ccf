package app

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/pquerna/otp/totp"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
)

// enrolTOTP sets up TOTP for the signed-in administrator and returns the
// secret.
func (a *testApp) enrolTOTP(t *testing.T) string {
	t.Helper()
	rec := a.do("POST", "/api/admin/me/2fa/totp", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("begin totp = %d %s", rec.Code, rec.Body)
	}
	en := decode[admin.TOTPEnrolment](t, rec)
	code, err := totp.GenerateCode(en.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if rec := a.do("POST", "/api/admin/me/2fa/totp/confirm", `{"code":"`+code+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("confirm totp = %d %s", rec.Code, rec.Body)
	}
	return en.Secret
}

// A right password never opens a session for an administrator with a second
// factor, whatever route it is sent to: the walk posts the credentials to
// every /api route, without a cookie and with the pending sign-in's cookie,
// and no answer may carry a session cookie.
func TestPasswordNeverBypassesSecondFactor(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.enrolTOTP(t)
	a.cookie = ""

	rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`, "RemoteAddr", owner)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"secondFactor"`) {
		t.Fatalf("login = %d %s", rec.Code, rec.Body)
	}
	var pending string
	for _, ck := range rec.Result().Cookies() {
		switch ck.Name {
		case admin.CookieName:
			t.Fatal("the password alone set a session cookie")
		case admin.ChallengeCookie:
			pending = ck.Value
		}
	}
	if pending == "" {
		t.Fatal("no pending sign-in cookie")
	}

	body := `{"username":"admin","password":"correct-horse-battery","code":"","credential":{}}`
	checked := 0
	for _, r := range a.c.echo.Routes() {
		if !strings.HasPrefix(r.Path, "/api") || r.Method == echo.RouteNotFound {
			continue
		}
		path := strings.NewReplacer(":id", "x", "*", "x").Replace(r.Path)
		for _, cookie := range []string{"", admin.ChallengeCookie + "=" + pending} {
			rec := a.do(r.Method, path, body, "Cookie", cookie, "RemoteAddr", owner)
			for _, ck := range rec.Result().Cookies() {
				if ck.Name == admin.CookieName && ck.Value != "" {
					t.Errorf("%s %s (cookie %q) opened a session: %d %s", r.Method, r.Path, cookie, rec.Code, rec.Body)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d requests; the walk is broken", checked)
	}
}

func TestAdminResetTwoFactorCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dir}
	a := newTestApp(t, env)
	a.signIn()
	a.enrolTOTP(t)

	var out, errOut bytes.Buffer
	code := Run(context.Background(), Options{
		Args: []string{"admin", "reset-2fa", "-username", "admin"}, Getenv: func(k string) string { return env[k] },
		Stdout: &out, Stderr: &errOut,
	})
	if code != 0 || !strings.Contains(out.String(), `removed the second factors of administrator "admin"`) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("a session survived the reset: %d", rec.Code)
	}
	a.login(t, "admin", "correct-horse-battery", owner) // the password alone signs in again
	cliActions(t, a, "reset_2fa")

	out.Reset()
	errOut.Reset()
	code = Run(context.Background(), Options{
		Args: []string{"admin", "reset-2fa", "-username", "nobody"}, Getenv: func(k string) string { return env[k] },
		Stdout: &out, Stderr: &errOut,
	})
	if code != 1 || !strings.Contains(errOut.String(), `no administrator named "nobody"`) {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}
