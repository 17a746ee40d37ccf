package admin_test

import (
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/pquerna/otp/totp"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const publicURL = "https://panel.example.test"

// tfApp is the admin API on the real Echo stack (error envelope, CSRF,
// session guard, the routes' declared access) with a browser's cookie jar.
type tfApp struct {
	t       *testing.T
	svc     *admin.Service
	clock   *testutil.Clock
	db      *gorm.DB
	handler http.Handler
	jar     map[string]string
	addr    string
	host    string // the Host of each request; empty means the panel's
}

func newTFApp(t *testing.T, opts ...func(*admin.Deps)) *tfApp {
	t.Helper()
	return newTFAppOn(t, testutil.NewDB(t), nil, opts...)
}

// newTFAppOn is newTFApp on db, with record (if not nil) as the audit
// middleware, where app.go puts it.
func newTFAppOn(t *testing.T, db *gorm.DB, record echo.MiddlewareFunc, opts ...func(*admin.Deps)) *tfApp {
	t.Helper()
	a := openTFApp(t, db, record, opts...)
	a.expect("POST", "/api/admin/setup", `{"username":"admin","password":"`+password+`"}`, http.StatusCreated)
	return a
}

// openTFApp is newTFAppOn on a database that already has its administrators.
func openTFApp(t *testing.T, db *gorm.DB, record echo.MiddlewareFunc, opts ...func(*admin.Deps)) *tfApp {
	t.Helper()
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	d := admin.Deps{DB: db, Now: clock.Now, BcryptCost: bcrypt.MinCost, PublicURL: publicURL}
	for _, o := range opts {
		o(&d)
	}
	svc := admin.NewService(d)
	h := admin.NewHandler(svc)
	e := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.DiscardHandler),
		RequireAdmin: func(next echo.HandlerFunc) echo.HandlerFunc {
			return h.RequireSession(h.RequireTwoFactor(next))
		},
		Audit:      record,
		Features:   []httpapi.Feature{h, probe{}},
		PortalHost: d.PortalHost,
	})
	return &tfApp{t: t, svc: svc, clock: clock, db: db, handler: e, jar: map[string]string{}, addr: "198.51.100.7:4000"}
}

// probe stands for every other guarded feature route.
type probe struct{}

func (probe) Register(r *route.Registrar) {
	r.GET("/probe", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
}

func (probe) OpenAPI() fs.FS { return nil }

// do sends a request with the jar's cookies and keeps the ones set.
func (a *tfApp) do(method, path, body string) *httptest.ResponseRecorder {
	a.t.Helper()
	var cookies []string
	for k, v := range a.jar {
		cookies = append(cookies, k+"="+v)
	}
	headers := []string{"RemoteAddr", a.addr, "Cookie", strings.Join(cookies, "; ")}
	if a.host != "" {
		headers = append(headers, "Host", a.host)
	}
	rec := testutil.Request(a.handler, method, path, body, headers...)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(a.jar, ck.Name)
		} else {
			a.jar[ck.Name] = ck.Value
		}
	}
	return rec
}

func (a *tfApp) expect(method, path, body string, status int) *httptest.ResponseRecorder {
	a.t.Helper()
	rec := a.do(method, path, body)
	if rec.Code != status {
		a.t.Fatalf("%s %s = %d %s; want %d", method, path, rec.Code, rec.Body, status)
	}
	return rec
}

func (a *tfApp) signedIn() bool { return a.jar[admin.CookieName] != "" }

func (a *tfApp) signOut() {
	a.t.Helper()
	a.expect("POST", "/api/admin/logout", "", http.StatusNoContent)
	a.jar = map[string]string{}
}

// password signs in with the password and returns the second-factor
// methods offered (none when a session opened).
func (a *tfApp) password() []string {
	a.t.Helper()
	rec := a.expect("POST", "/api/admin/login", `{"username":"admin","password":"`+password+`"}`, http.StatusOK)
	var res struct {
		User         *admin.User `json:"user"`
		SecondFactor *struct {
			Methods []string `json:"methods"`
		} `json:"secondFactor"`
	}
	decode(a.t, rec, &res)
	if res.SecondFactor == nil {
		if !a.signedIn() || res.User == nil {
			a.t.Fatalf("login without second factor = %s, no session", rec.Body)
		}
		return nil
	}
	if a.signedIn() {
		a.t.Fatal("a right password opened a session although a second factor is enrolled")
	}
	if a.jar[admin.ChallengeCookie] == "" {
		a.t.Fatal("no pending sign-in cookie")
	}
	return res.SecondFactor.Methods
}

func decode(t *testing.T, rec *httptest.ResponseRecorder, v any) {
	t.Helper()
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	decode(t, rec, &env)
	return env.Error.Code
}

// enrolTOTP sets up TOTP and returns the secret and the recovery codes.
func (a *tfApp) enrolTOTP() (string, []string) {
	a.t.Helper()
	var en admin.TOTPEnrolment
	decode(a.t, a.expect("POST", "/api/admin/me/2fa/totp", "", http.StatusOK), &en)
	if !strings.HasPrefix(en.URL, "otpauth://totp/Gatehouse:admin?") || !strings.HasPrefix(en.QRCode, "data:image/png;base64,") {
		a.t.Fatalf("enrolment = %+v", en)
	}
	var res struct {
		RecoveryCodes []string `json:"recoveryCodes"`
	}
	decode(a.t, a.expect("POST", "/api/admin/me/2fa/totp/confirm", `{"code":"`+a.code(en.Secret)+`"}`, http.StatusOK), &res)
	return en.Secret, res.RecoveryCodes
}

func (a *tfApp) code(secret string) string {
	a.t.Helper()
	c, err := totp.GenerateCode(secret, a.clock.Now())
	if err != nil {
		a.t.Fatal(err)
	}
	return c
}

func TestTOTPEnrolment(t *testing.T) {
	a := newTFApp(t)
	var en admin.TOTPEnrolment
	decode(t, a.expect("POST", "/api/admin/me/2fa/totp", "", http.StatusOK), &en)

	// Not active before a code confirms it.
	a.signOut()
	if m := a.password(); m != nil {
		t.Fatalf("unconfirmed TOTP asked for a second factor: %v", m)
	}
	rec := a.expect("POST", "/api/admin/me/2fa/totp/confirm", `{"code":"000000"}`, http.StatusUnprocessableEntity)
	if errorCode(t, rec) != "validation_failed" {
		t.Fatalf("wrong confirm code = %s", rec.Body)
	}
	var res struct {
		RecoveryCodes []string `json:"recoveryCodes"`
	}
	decode(t, a.expect("POST", "/api/admin/me/2fa/totp/confirm", `{"code":"`+a.code(en.Secret)+`"}`, http.StatusOK), &res)
	if len(res.RecoveryCodes) != admin.RecoveryCodeCount {
		t.Fatalf("recovery codes = %v", res.RecoveryCodes)
	}

	// At rest: sealed secret, hashed recovery codes.
	var row store.AdminTOTP
	if err := a.db.Take(&row).Error; err != nil || !strings.HasPrefix(row.Secret, "age:") || strings.Contains(row.Secret, en.Secret) {
		t.Fatalf("stored secret = %q, %v", row.Secret, err)
	}
	var codes []store.AdminRecoveryCode
	a.db.Find(&codes)
	for _, c := range codes {
		for _, plain := range res.RecoveryCodes {
			if strings.Contains(c.CodeHash, plain) || strings.Contains(c.CodeHash, strings.ReplaceAll(plain, "-", "")) {
				t.Fatal("a recovery code is stored in clear")
			}
		}
	}

	var st admin.TwoFactorStatus
	decode(t, a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK), &st)
	if !st.TOTP || !st.Enrolled || st.RecoveryCodesLeft != 10 || !st.PasskeysAvailable {
		t.Fatalf("status = %+v", st)
	}
	rec = a.expect("POST", "/api/admin/me/2fa/totp", "", http.StatusConflict)
	_ = rec
}

func TestSignInWithTOTP(t *testing.T) {
	a := newTFApp(t)
	secret, _ := a.enrolTOTP()
	a.signOut()

	if m := a.password(); strings.Join(m, ",") != "totp,recovery" {
		t.Fatalf("methods = %v", m)
	}
	// The pending sign-in is no session.
	a.expect("GET", "/api/admin/me", "", http.StatusUnauthorized)
	rec := a.expect("POST", "/api/admin/login/totp", `{"code":"000000"}`, http.StatusUnauthorized)
	if errorCode(t, rec) != "unauthenticated" || a.signedIn() {
		t.Fatalf("wrong code = %s", rec.Body)
	}
	// The code confirming enrolment was for this step: it is spent.
	a.expect("POST", "/api/admin/login/totp", `{"code":"`+a.code(secret)+`"}`, http.StatusUnauthorized)
	a.clock.Add(30 * time.Second)
	code := a.code(secret)
	a.expect("POST", "/api/admin/login/totp", `{"code":"`+code+`"}`, http.StatusOK)
	if !a.signedIn() || a.jar[admin.ChallengeCookie] != "" {
		t.Fatalf("jar after the second factor = %v", a.jar)
	}
	a.expect("GET", "/api/admin/me", "", http.StatusOK)

	// The same code again, in a new sign-in, is refused.
	a.signOut()
	a.password()
	a.expect("POST", "/api/admin/login/totp", `{"code":"`+code+`"}`, http.StatusUnauthorized)
	// The code of the next step is accepted early (clock skew).
	a.expect("POST", "/api/admin/login/totp", `{"code":"`+codeAt(t, secret, a.clock.Now().Add(30*time.Second))+`"}`, http.StatusOK)
}

func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSignInWithRecoveryCode(t *testing.T) {
	a := newTFApp(t)
	_, codes := a.enrolTOTP()
	a.signOut()
	a.password()
	a.expect("POST", "/api/admin/login/recovery", `{"code":"`+strings.ToUpper(codes[3])+`"}`, http.StatusOK)
	a.signOut()
	a.password()
	a.expect("POST", "/api/admin/login/recovery", `{"code":"`+codes[3]+`"}`, http.StatusUnauthorized)
	a.expect("POST", "/api/admin/login/recovery", `{"code":"`+strings.ReplaceAll(codes[4], "-", "")+`"}`, http.StatusOK)

	var st admin.TwoFactorStatus
	decode(t, a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK), &st)
	if st.RecoveryCodesLeft != 8 {
		t.Fatalf("codes left = %d", st.RecoveryCodesLeft)
	}
	var res struct {
		RecoveryCodes []string `json:"recoveryCodes"`
	}
	decode(t, a.expect("POST", "/api/admin/me/2fa/recovery-codes", "", http.StatusOK), &res)
	a.signOut()
	a.password()
	a.expect("POST", "/api/admin/login/recovery", `{"code":"`+codes[5]+`"}`, http.StatusUnauthorized) // replaced
	a.expect("POST", "/api/admin/login/recovery", `{"code":"`+res.RecoveryCodes[0]+`"}`, http.StatusOK)
}

// Wrong second-factor codes count in the sign-in limits, and a pending
// sign-in lives five minutes.
func TestSecondFactorLimits(t *testing.T) {
	t.Run("wrong codes count", func(t *testing.T) {
		a := newTFApp(t)
		secret, _ := a.enrolTOTP()
		a.signOut()
		a.password()
		for range admin.MaxFailures {
			a.expect("POST", "/api/admin/login/totp", `{"code":"000000"}`, http.StatusUnauthorized)
		}
		a.clock.Add(30 * time.Second)
		rec := a.expect("POST", "/api/admin/login/totp", `{"code":"`+a.code(secret)+`"}`, http.StatusTooManyRequests)
		if rec.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		a.expect("POST", "/api/admin/login", `{"username":"admin","password":"`+password+`"}`, http.StatusTooManyRequests)
	})
	t.Run("a right password does not wipe wrong codes", func(t *testing.T) {
		a := newTFApp(t)
		a.enrolTOTP()
		a.signOut()
		for range admin.MaxFailures - 1 {
			a.password()
			a.expect("POST", "/api/admin/login/totp", `{"code":"000000"}`, http.StatusUnauthorized)
		}
		a.password()
		a.expect("POST", "/api/admin/login/totp", `{"code":"000000"}`, http.StatusUnauthorized)
		a.expect("POST", "/api/admin/login", `{"username":"admin","password":"`+password+`"}`, http.StatusTooManyRequests)
	})
	t.Run("the pending sign-in expires", func(t *testing.T) {
		a := newTFApp(t)
		secret, _ := a.enrolTOTP()
		a.signOut()
		a.password()
		a.clock.Add(admin.ChallengeTTL + time.Second)
		a.expect("POST", "/api/admin/login/totp", `{"code":"`+a.code(secret)+`"}`, http.StatusUnauthorized)
	})
	t.Run("no pending sign-in", func(t *testing.T) {
		a := newTFApp(t)
		secret, _ := a.enrolTOTP()
		a.signOut()
		a.clock.Add(30 * time.Second)
		a.expect("POST", "/api/admin/login/totp", `{"code":"`+a.code(secret)+`"}`, http.StatusUnauthorized)
		a.expect("POST", "/api/admin/login/recovery", `{"code":"abcd"}`, http.StatusUnauthorized)
		if a.signedIn() {
			t.Fatal("a code alone opened a session")
		}
	})
}

func TestDisableTOTP(t *testing.T) {
	tests := []struct {
		name   string
		body   func(a *tfApp, secret string) string
		status int
	}{
		{"nothing", func(*tfApp, string) string { return `{}` }, http.StatusUnprocessableEntity},
		{"wrong password", func(*tfApp, string) string { return `{"password":"not-my-password"}` }, http.StatusUnprocessableEntity},
		{"wrong code", func(*tfApp, string) string { return `{"code":"000000"}` }, http.StatusUnprocessableEntity},
		{"password", func(*tfApp, string) string { return `{"password":"` + password + `"}` }, http.StatusNoContent},
		{"code", func(a *tfApp, secret string) string {
			a.clock.Add(30 * time.Second)
			return `{"code":"` + a.code(secret) + `"}`
		}, http.StatusNoContent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTFApp(t)
			secret, _ := a.enrolTOTP()
			a.expect("DELETE", "/api/admin/me/2fa/totp", tt.body(a, secret), tt.status)
			var st admin.TwoFactorStatus
			decode(t, a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK), &st)
			off := tt.status == http.StatusNoContent
			if st.TOTP == off || (off && st.RecoveryCodesLeft != 0) {
				t.Fatalf("status after disable = %+v", st)
			}
			a.signOut()
			if m := a.password(); (m == nil) != off {
				t.Fatalf("methods after disable = %v", m)
			}
		})
	}
}

// While the panel requires two-factor sign-in, an administrator without a
// factor reaches only enrolment, /me and logout.
func TestRequireTwoFactor(t *testing.T) {
	a := newTFApp(t)
	a.expect("GET", "/api/probe", "", http.StatusNoContent)
	var sec admin.SecuritySettings
	decode(t, a.expect("PUT", "/api/admin/security", `{"requireTwoFactor":true}`, http.StatusOK), &sec)
	if !sec.RequireTwoFactor {
		t.Fatal("setting not stored")
	}
	rec := a.expect("GET", "/api/probe", "", http.StatusForbidden)
	if errorCode(t, rec) != "two_factor_required" {
		t.Fatalf("guarded route = %s", rec.Body)
	}
	a.expect("GET", "/api/admin/security", "", http.StatusForbidden)
	a.expect("GET", "/api/admin/me", "", http.StatusOK)
	var st admin.TwoFactorStatus
	decode(t, a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK), &st)
	if !st.Required || st.Enrolled {
		t.Fatalf("status = %+v", st)
	}
	a.expect("GET", "/api/admin/me/passkeys", "", http.StatusOK)
	a.enrolTOTP()
	a.expect("GET", "/api/probe", "", http.StatusNoContent)
	a.expect("GET", "/api/admin/security", "", http.StatusOK)
	a.expect("POST", "/api/admin/logout", "", http.StatusNoContent)
}

func TestResetTwoFactor(t *testing.T) {
	a := newTFApp(t)
	a.enrolTOTP()
	if _, err := a.svc.ResetTwoFactor(t.Context(), "nobody"); err == nil {
		t.Fatal("reset of an unknown administrator succeeded")
	}
	if _, err := a.svc.ResetTwoFactor(t.Context(), "admin"); err != nil {
		t.Fatal(err)
	}
	a.expect("GET", "/api/admin/me", "", http.StatusUnauthorized)
	a.jar = map[string]string{}
	if m := a.password(); m != nil {
		t.Fatalf("methods after reset = %v", m)
	}
}

// The OpenID provider owns the second factor of its sign-ins: an enrolled
// administrator signs in through it, and an administrator without a
// password (SSO only) is not held at enrolment by the require-2FA policy.
func TestSecondFactorAndExternalSignIn(t *testing.T) {
	a := newTFApp(t)
	a.enrolTOTP()
	a.expect("PUT", "/api/admin/security", `{"requireTwoFactor":true}`, http.StatusOK)
	ctx := t.Context()
	client := admin.Client{Address: "192.0.2.1"}
	if _, _, err := a.svc.SignInExternal(ctx, admin.External{Issuer: "https://id.test", Subject: "1",
		Username: "admin", Role: "admin"}, client); err != nil {
		t.Fatalf("enrolled administrator through SSO: %v", err)
	}
	_, tok, err := a.svc.SignInExternal(ctx, admin.External{Issuer: "https://id.test", Subject: "2",
		Username: "grace", Role: "viewer", Create: true}, client)
	if err != nil {
		t.Fatalf("new administrator through SSO: %v", err)
	}
	a.signOut()
	a.jar[admin.CookieName] = tok
	a.expect("GET", "/api/probe", "", http.StatusNoContent)
}
