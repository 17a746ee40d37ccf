package forwardauth

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// provider starts a real in-process OpenID provider (discovery, PKCE code
// exchange, RS256-signed ID tokens, userinfo) and points the SSO settings at it.
func provider(t *testing.T, v *env) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	cfg := m.Config()
	v.must(http.StatusOK, http.MethodPut, "/api/sso", map[string]any{
		"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret,
		"scopes": []string{"openid", "email", "profile", "groups"},
	}, nil)
	return m
}

// signIn drives a browser through the whole flow and returns the session
// cookie set on the service host. The panel runs on v.e; the provider is real.
func signIn(t *testing.T, v *env, m *mockoidc.MockOIDC, serviceID, host string, user *mockoidc.MockUser) (*httptest.ResponseRecorder, string) {
	t.Helper()
	rec, back := toExchange(t, v, v, m, serviceID, host, user)
	if back == nil {
		return rec, ""
	}
	// 5. Verify redeems it on the service host: 302 to the clean URL with the cookie.
	rec = v.verify(fwd{service: serviceID, host: host, uri: back.RequestURI(), browser: true})
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "https://"+host+"/dash?tab=1" || ck == nil {
		t.Fatalf("exchange: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	// The exchange token works once.
	if again := v.verify(fwd{service: serviceID, host: host, uri: back.RequestURI(), browser: true}); again.Code != 401 {
		t.Fatalf("second exchange: %d", again.Code)
	}
	return rec, ck.Value
}

// toExchange drives a browser from the service to the provider through the
// panel at v, and back through the panel at callback, up to the
// address on the service's host that carries the exchange token (nil when
// the callback refuses: rec says why).
func toExchange(t *testing.T, v, callback *env, m *mockoidc.MockOIDC, serviceID, host string, user *mockoidc.MockUser) (*httptest.ResponseRecorder, *url.URL) {
	t.Helper()
	if user != nil {
		m.QueueUser(user)
	}
	// 1. The browser asks for a page of the service: sent to the panel's sign-in.
	rec := v.verify(fwd{service: serviceID, host: host, uri: "/dash?tab=1", browser: true})
	if rec.Code != http.StatusFound {
		t.Fatalf("unauthenticated browser: %d", rec.Code)
	}
	start, _ := url.Parse(rec.Header().Get("Location"))
	if !strings.HasPrefix(start.String(), testPanel+"/api/auth/sso/start?") ||
		start.Query().Get("rd") != "https://"+host+"/dash?tab=1" {
		t.Fatalf("sign-in location %q", start)
	}
	// 2. The panel sends it to the provider with a state cookie.
	rec = v.get(start.RequestURI(), nil)
	if rec.Code != http.StatusFound {
		t.Fatalf("start: %d %s", rec.Code, rec.Body.String())
	}
	authURL, _ := url.Parse(rec.Header().Get("Location"))
	q := authURL.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("nonce") == "" || q.Get("state") == "" {
		t.Fatalf("authorization request lacks PKCE, nonce or state: %s", authURL)
	}
	state := rec.Result().Cookies()
	// 3. The provider signs the user in and redirects back to the callback.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(authURL.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	cb, _ := url.Parse(resp.Header.Get("Location"))
	if cb.Path != contract.SSOCallbackPath {
		t.Fatalf("provider redirected to %q", cb)
	}
	// 4. The callback checks everything and hands over an exchange token.
	rec = callback.get(cb.RequestURI(), state)
	if rec.Code != http.StatusFound {
		return rec, nil
	}
	back, _ := url.Parse(rec.Header().Get("Location"))
	if back.Host != host || back.Query().Get(ExchangeParam) == "" {
		t.Fatalf("callback redirected to %q", back)
	}
	return rec, back
}

func (v *env) get(path string, cookies []*http.Cookie) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept", "text/html")
	for _, c := range cookies {
		req.AddCookie(c)
	}
	return testutil.Serve(v.e, req)
}

func TestSSOFlow(t *testing.T) {
	v := newEnv(t)
	m := provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso", "groups": []string{"engineering"}})

	_, token := signIn(t, v, m, id, "app.example.com", nil) // default user: jane.doe, groups engineering+design
	rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token})
	if rec.Code != 200 || rec.Header().Get("Remote-User") != "jane.doe" ||
		rec.Header().Get("Remote-Email") != "jane.doe@example.com" || rec.Header().Get("Remote-Groups") != "engineering,design" {
		t.Fatalf("signed in: %d %v", rec.Code, rec.Header())
	}

	// Zero database queries for a cached session.
	v.queries.Store(0)
	for range 10 {
		if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code != 200 {
			t.Fatalf("cached: %d", rec.Code)
		}
	}
	if n := v.queries.Load(); n != 0 {
		t.Fatalf("cached session verify ran %d queries, want 0", n)
	}

	// Removing the group from the service takes effect at once.
	protect(t, v, id, map[string]any{"type": "sso", "groups": []string{"admins"}})
	rec = v.verify(fwd{service: id, host: "app.example.com", cookie: token, browser: true})
	if rec.Code != 403 || !contains(rec.Body.String(), "jane.doe") {
		t.Fatalf("group removed: %d %s", rec.Code, rec.Body.String())
	}
	protect(t, v, id, map[string]any{"type": "sso", "users": []string{"JANE.DOE@example.com"}})
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code != 200 {
		t.Fatalf("allowed by email: %d", rec.Code)
	}

	// Sign-out on the service host ends the session.
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: contract.SignOutPath, cookie: token, browser: true})
	if rec.Code != 401 || !contains(rec.Body.String(), "signed out") {
		t.Fatalf("sign-out: %d %s", rec.Code, rec.Body.String())
	}
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code != 401 {
		t.Fatalf("after sign-out: %d", rec.Code)
	}
}

func TestSSODeniedUser(t *testing.T) {
	v := newEnv(t)
	m := provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso", "groups": []string{"admins"}})
	rec, _ := signIn(t, v, m, id, "app.example.com", &mockoidc.MockUser{Subject: "42", Email: "eve@example.com",
		PreferredUsername: "eve", Groups: []string{"guests"}})
	if rec.Code != http.StatusForbidden || !contains(rec.Body.String(), "eve") {
		t.Fatalf("callback for a user outside the groups: %d %s", rec.Code, rec.Body.String())
	}
}

func TestSSOStartRefusals(t *testing.T) {
	v := newEnv(t)
	provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso"})
	plain := v.service("plain.example.com")
	tests := []struct{ name, query string }{
		{"open redirect", "service=" + id + "&rd=" + url.QueryEscape("https://evil.example.net/")},
		{"other scheme", "service=" + id + "&rd=" + url.QueryEscape("javascript://app.example.com/")},
		{"userinfo", "service=" + id + "&rd=" + url.QueryEscape("https://app.example.com@evil.example.net/")},
		{"no rd", "service=" + id},
		{"unknown service", "service=nope&rd=" + url.QueryEscape("https://app.example.com/")},
		{"service without sso", "service=" + plain + "&rd=" + url.QueryEscape("https://plain.example.com/")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rec := v.get("/api/auth/sso/start?"+tt.query, nil); rec.Code != 400 {
				t.Fatalf("%d, want 400", rec.Code)
			}
		})
	}
	// A callback without the browser's state cookie is refused.
	if rec := v.get("/api/auth/sso/callback?state=x&code=y", nil); rec.Code != 400 {
		t.Fatalf("callback without state cookie: %d", rec.Code)
	}
}

func TestSSOSettingsSecretIsWriteOnly(t *testing.T) {
	v := newEnv(t)
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	issuer := m.Config().Issuer
	var out map[string]any
	v.must(http.StatusOK, http.MethodPut, "/api/sso", map[string]any{
		"enabled": true, "issuer": issuer, "clientId": "gatehouse", "clientSecret": "s3cret-value"}, &out)
	v.must(http.StatusOK, http.MethodGet, "/api/sso", nil, &out)
	rec := v.do(http.MethodGet, "/api/sso", nil, nil)
	if contains(rec.Body.String(), "s3cret-value") || out["clientSecretSet"] != true ||
		out["redirectUrl"] != testPanel+contract.SSOCallbackPath || out["groupsClaim"] != "groups" {
		t.Fatalf("GET /api/sso: %s", rec.Body.String())
	}
	// An empty secret keeps the stored one.
	v.must(http.StatusOK, http.MethodPut, "/api/sso", map[string]any{"enabled": true, "issuer": issuer, "clientId": "g2"}, &out)
	d, err := v.acc.loadSSO(context.Background())
	if err != nil || d.ClientID != "g2" {
		t.Fatalf("stored: %+v %v", d.ClientID, err)
	}
	// At rest the secret is sealed with the panel's age identity.
	var raw string
	if err := v.acc.db.Raw("SELECT value FROM app_config WHERE key = 'sso'").Scan(&raw).Error; err != nil {
		t.Fatal(err)
	}
	if contains(raw, "s3cret-value") || !sealbox.IsSealed(d.ClientSecret) {
		t.Fatalf("the client secret is stored in the clear: %s", raw)
	}
	if plain, err := v.acc.secrets.Open(d.ClientSecret); err != nil || plain != "s3cret-value" {
		t.Fatalf("sealed secret opens to %q, %v", plain, err)
	}
	v.must(http.StatusUnprocessableEntity, http.MethodPut, "/api/sso", map[string]any{"enabled": true, "issuer": "not a url", "clientId": "x"}, nil)
	v.must(http.StatusUnprocessableEntity, http.MethodPut, "/api/sso", map[string]any{"enabled": true, "issuer": "https://id.example.com"}, nil)
}

func TestSSORedirectStatusAndClients(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso"})
	tests := []struct {
		name    string
		f       fwd
		want    int
		wantLoc bool
	}{
		{"browser GET", fwd{method: "GET", browser: true}, 302, true},
		{"browser HEAD", fwd{method: "HEAD", browser: true}, 302, true},
		{"browser POST", fwd{method: "POST", browser: true}, 303, true},
		{"API client", fwd{method: "GET"}, 401, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.service, tt.f.host = id, "app.example.com"
			rec := v.verify(tt.f)
			loc := rec.Header().Get("Location")
			if rec.Code != tt.want || (loc != "") != tt.wantLoc || (tt.wantLoc && !strings.HasPrefix(loc, "https://")) {
				t.Fatalf("%d %q", rec.Code, loc)
			}
			if rec.Header().Get("WWW-Authenticate") != "" {
				t.Fatalf("sso-only service must not ask for basic auth")
			}
		})
	}
}

// TestSSOSaveChecksDiscovery: switching the provider on reads its discovery
// document; an issuer that does not answer, or answers as another issuer, is
// refused on the issuer field with the reason, and nothing is stored.
func TestSSOSaveChecksDiscovery(t *testing.T) {
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close() // a port nothing listens on
	// An internal URL that answers with something secret, on any status.
	const secret = "internal-secret-body"
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("ok") != "" || strings.HasSuffix(r.URL.Path, "/ok/.well-known/openid-configuration") {
			_, _ = w.Write([]byte(`{"not":"` + secret + `"`))
			return
		}
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(secret))
	}))
	t.Cleanup(internal.Close)
	tests := []struct {
		name    string
		body    map[string]any
		status  int
		message string
	}{
		{"reachable provider", map[string]any{"enabled": true, "issuer": m.Config().Issuer, "clientId": "g"}, http.StatusOK, ""},
		{"unreachable issuer", map[string]any{"enabled": true, "issuer": dead.URL, "clientId": "g"}, http.StatusUnprocessableEntity, "the connection was refused"},
		{"another issuer's document", map[string]any{"enabled": true, "issuer": m.Config().Issuer + "/", "clientId": "g"}, http.StatusUnprocessableEntity, "names another issuer"},
		{"internal URL, error status", map[string]any{"enabled": true, "issuer": internal.URL + "/anything", "clientId": "g"}, http.StatusUnprocessableEntity, "answered with status 403"},
		{"internal URL, not a document", map[string]any{"enabled": true, "issuer": internal.URL + "/ok", "clientId": "g"}, http.StatusUnprocessableEntity, "not an OpenID discovery document"},
		{"off: not contacted", map[string]any{"enabled": false, "issuer": dead.URL, "clientId": "g"}, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			rec := v.do(http.MethodPut, "/api/sso", tt.body, nil)
			if rec.Code != tt.status {
				t.Fatalf("PUT /api/sso = %d %s", rec.Code, rec.Body)
			}
			if tt.message == "" {
				return
			}
			body := rec.Body.String()
			if contains(body, secret) || contains(body, "127.0.0.1") || contains(body, "dial") {
				t.Fatalf("the answer shows what the fetched URL said or where it dialled: %s", body)
			}
			if !contains(body, `"field":"issuer"`) || !contains(body, "discovery document could not be read") || !contains(body, tt.message) {
				t.Fatalf("envelope: %s", body)
			}
			if d, err := v.acc.loadSSO(context.Background()); err != nil || d.Enabled {
				t.Fatalf("stored after refusal: %+v %v", d, err)
			}
		})
	}
}
