package sso

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const (
	testPanel    = "https://panel.example.com"
	ownerName    = "owner"
	ownerPass    = "correct-horse-battery"
	ownerAddress = "192.0.2.1"
)

// env is the panel's API (admin, access and panel sign-in, the real Echo
// stack and guard) in front of a real in-process OpenID provider.
type env struct {
	t      *testing.T
	db     *gorm.DB
	sso    *Service
	h      http.Handler
	m      *mockoidc.MockOIDC
	cookie string // the owner's admin session
	// lastState is the sign-in cookie the last start set (name=value).
	lastState string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := testutil.NewDB(t)
	panel := func(context.Context) (string, error) { return testPanel, nil }
	acc := forwardauth.New(forwardauth.Options{DB: db, BcryptCost: bcrypt.MinCost, PanelURL: panel})
	v := &env{t: t, db: db}
	adm := admin.NewService(db, time.Now, bcrypt.MinCost,
		admin.WithLocalPasswords(func(ctx context.Context) (bool, error) { return v.sso.LocalPasswords(ctx) }))
	v.sso = New(Options{DB: db, Provider: acc, Admins: adm, PanelURL: panel})
	adminHandler := admin.NewHandler(adm)
	v.h = httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.DiscardHandler),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: adm.SetupRequired,
		SignIn: func(ctx context.Context) (bool, bool, error) {
			in, err := v.sso.SignIn(ctx)
			return in.SSO, in.LocalPasswords, err
		},
		RequireAdmin: adminHandler.RequireSession,
		Features:     []httpapi.Feature{adminHandler, forwardauth.NewHandler(acc), NewHandler(v.sso)},
	})
	rec := v.do("POST", "/api/admin/setup", `{"username":"`+ownerName+`","password":"`+ownerPass+`"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("setup: %d %s", rec.Code, rec.Body)
	}
	v.cookie = sessionOf(rec)

	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	v.m = m
	cfg := m.Config()
	v.must(http.StatusOK, "PUT", "/api/sso", map[string]any{
		"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret,
		"scopes": []string{"openid", "email", "profile", "groups"},
	})
	return v
}

func sessionOf(rec *httptest.ResponseRecorder) string {
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == admin.CookieName && ck.MaxAge >= 0 {
			return ck.Value
		}
	}
	return ""
}

// do sends a request as the owner (when signed in) from ownerAddress.
func (v *env) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	v.t.Helper()
	headers = append([]string{"X-Forwarded-For", ownerAddress}, headers...)
	if v.cookie != "" {
		headers = append(headers, "Cookie", admin.CookieName+"="+v.cookie)
	}
	return testutil.Request(v.h, method, path, body, headers...)
}

func (v *env) must(status int, method, path string, body any) *httptest.ResponseRecorder {
	v.t.Helper()
	b, _ := json.Marshal(body)
	rec := v.do(method, path, string(b))
	if rec.Code != status {
		v.t.Fatalf("%s %s = %d %s; want %d", method, path, rec.Code, rec.Body, status)
	}
	return rec
}

// settings stores the panel's sign-in settings.
func (v *env) settings(s map[string]any) {
	v.t.Helper()
	v.must(http.StatusOK, "PUT", "/api/admin/sso", s)
}

// tamper changes one step of a sign-in.
type tamper struct {
	authQuery func(url.Values) // the authorization request sent to the provider
	callback  func(*url.URL)   // the provider's redirect back
	noCookie  bool             // the callback comes without the state cookie
}

// signIn drives a browser through the sign-in: start, the provider (which
// signs user in), the callback. It returns the callback's answer.
func (v *env) signIn(user *mockoidc.MockUser, tm tamper) *httptest.ResponseRecorder {
	v.t.Helper()
	if user != nil {
		v.m.QueueUser(user)
	}
	rec := testutil.Request(v.h, "GET", StartPath, "")
	if rec.Code != http.StatusFound {
		v.t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	authURL, _ := url.Parse(rec.Header().Get("Location"))
	if strings.HasPrefix(authURL.String(), "/login") {
		return rec
	}
	q := authURL.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("nonce") == "" || q.Get("state") == "" ||
		q.Get("redirect_uri") != testPanel+CallbackPath {
		v.t.Fatalf("authorization request: %s", authURL)
	}
	if tm.authQuery != nil {
		tm.authQuery(q)
		authURL.RawQuery = q.Encode()
	}
	var state string
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == stateCookie {
			state = ck.Value
		}
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(authURL.String())
	if err != nil {
		v.t.Fatal(err)
	}
	_ = resp.Body.Close()
	cb, _ := url.Parse(resp.Header.Get("Location"))
	if cb.Path != CallbackPath {
		v.t.Fatalf("provider redirected to %q (%d)", cb, resp.StatusCode)
	}
	if tm.callback != nil {
		tm.callback(cb)
	}
	var headers []string
	v.lastState = stateCookie + "=" + state
	if !tm.noCookie {
		headers = []string{"Cookie", v.lastState}
	}
	return testutil.Request(v.h, "GET", cb.RequestURI(), "", headers...)
}

// loginError is the error code of a redirect to the login page, "" when
// the answer is not one.
func loginError(rec *httptest.ResponseRecorder) string {
	u, err := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || err != nil || u.Path != "/login" {
		return ""
	}
	return u.Query().Get("error")
}

// me is who the session signs in as.
func (v *env) me(session string) (admin.User, int) {
	v.t.Helper()
	rec := testutil.Request(v.h, "GET", "/api/admin/me", "", "Cookie", admin.CookieName+"="+session)
	var out struct {
		User admin.User `json:"user"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return out.User, rec.Code
}
