package app

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/oidc/provider"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestOIDCProviderSignsInThroughThePortal: an app (go-oidc, x/oauth2)
// sends a person to the portal's host; without a portal session they go to
// the portal's sign-in (package admin, password), come back, consent, and
// the app gets a code, tokens, a verified ID token and userinfo. The
// provider answers nothing on the panel's own host.
func TestOIDCProviderSignsInThroughThePortal(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	caseyID := a.createUser(t, "casey", "none")
	f := newPortalRP(t, a, nil)
	ctx, p, cfg, step := f.ctx, f.p, f.cfg, f.step
	verifier := oauth2.GenerateVerifier()

	login := step(cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n-1")))
	if login.Path != "/oidc/login" {
		t.Fatalf("authorize sent the browser to %s", login)
	}
	signIn := step(login.String())
	if signIn.Path != "/login" || signIn.Query().Get("rd") != login.String() {
		t.Fatalf("without a portal session: %s", signIn)
	}
	// The person signs in on the portal (its own API, on its host).
	cookie := a.login(t, "casey", "correct-horse-battery", owner, "Host", portalHost)
	f.setSession(cookie)
	consent := step(login.String())
	if consent.Path != "/apps/consent" {
		t.Fatalf("first visit: %s, want the consent page", consent)
	}
	rec := a.do("POST", "/api/portal/oidc/requests/"+consent.Query().Get("id")+"/consent", `{"approve":true}`,
		"Host", portalHost, "Cookie", "gatehouse_admin="+cookie)
	next := decode[provider.Next](t, rec)
	if rec.Code != http.StatusOK || next.Redirect != login.RequestURI() {
		t.Fatalf("consent = %d %s", rec.Code, rec.Body)
	}
	callback := step(login.String())
	back := step(callback.String())
	if back.Host != "grafana.example.com" || back.Query().Get("state") != "st" {
		t.Fatalf("back at %s", back)
	}
	tok, err := cfg.Exchange(ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	idt, err := p.Verifier(&gooidc.Config{ClientID: "grafana"}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil || idt.Subject != caseyID || idt.Nonce != "n-1" {
		t.Fatalf("ID token %+v %v", idt, err)
	}
	info, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil || info.Subject != caseyID {
		t.Fatalf("userinfo %+v %v", info, err)
	}

	// Signing out of the portal ends the app's session.
	if rec := a.do("POST", "/api/admin/logout", "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie); rec.Code/100 != 2 {
		t.Fatalf("portal sign-out = %d %s", rec.Code, rec.Body)
	}
	if _, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err == nil {
		t.Fatal("userinfo answered after the portal sign-out")
	}

	// A passkey alone, on the portal: casey adds one to her portal account,
	// signs out, and the app's next sign-in goes through the portal's
	// passkey sign-in; the consent she gave is remembered.
	cookie = a.login(t, "casey", "correct-horse-battery", owner, "Host", portalHost)
	key := f.addPasskey(t, a, cookie)
	if rec := a.do("POST", "/api/admin/logout", "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie); rec.Code/100 != 2 {
		t.Fatalf("portal sign-out = %d", rec.Code)
	}
	f.jar, _ = cookiejar.New(nil)
	f.browser.Jar = f.jar
	verifier = oauth2.GenerateVerifier()
	login = step(cfg.AuthCodeURL("st-2", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n-2")))
	if signIn := step(login.String()); signIn.Path != "/login" {
		t.Fatalf("signed out: %s, want the portal's sign-in", signIn)
	}
	f.setSession(f.passkeySignIn(t, a, key))
	callback = step(login.String())
	if callback.Path == "/apps/consent" {
		t.Fatal("the consent casey gave was asked again")
	}
	back = step(callback.String())
	tok, err = cfg.Exchange(ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil || back.Query().Get("state") != "st-2" {
		t.Fatalf("exchange after the passkey sign-in: %v (back at %s)", err, back)
	}
	idt, err = p.Verifier(&gooidc.Config{ClientID: "grafana"}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil || idt.Subject != caseyID || idt.Nonce != "n-2" {
		t.Fatalf("ID token after the passkey sign-in %+v %v", idt, err)
	}
	var amr struct {
		AMR []string `json:"amr"`
	}
	// A passkey that verified its user is a second factor in itself.
	if err := idt.Claims(&amr); err != nil || !slices.Contains(amr.AMR, "mfa") {
		t.Fatalf("amr after a passkey sign-in = %v, %v", amr.AMR, err)
	}

	// Not on the panel's host.
	if rec := a.do("GET", "/.well-known/openid-configuration", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("discovery on the panel's host = %d", rec.Code)
	}
}

// portalRP is an app (go-oidc, x/oauth2, client "grafana") and a browser,
// both reaching the panel's portal host over TLS.
type portalRP struct {
	ctx       context.Context
	p         *gooidc.Provider
	cfg       oauth2.Config
	browser   *http.Client
	jar       *cookiejar.Jar
	issuer    string
	issuerURL *url.URL
	// step GETs u in the browser and returns where it is sent.
	step func(u string) *url.URL
}

func newPortalRP(t *testing.T, a *testApp, edit func(*store.OIDCClient)) *portalRP {
	t.Helper()
	now := store.Now()
	c := store.OIDCClient{ID: "grafana", Name: "Grafana", SecretHash: provider.SecretHash("s3cret-s3cret-s3cret"),
		RedirectURIs: store.NewJSON([]string{"https://grafana.example.com/login/generic_oauth"}),
		GrantTypes:   store.NewJSON([]string{"authorization_code", "refresh_token"}), SigningAlg: "RS256",
		CreatedAt: now, UpdatedAt: now}
	if edit != nil {
		edit(&c)
	}
	if err := a.c.db.Create(&c).Error; err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(a.handler)
	t.Cleanup(srv.Close)
	// Every name resolves to the test server: the portal's host, as a
	// browser and the app reach it through Traefik.
	transport := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // the test server's own certificate
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
		}}
	f := &portalRP{ctx: gooidc.ClientContext(context.Background(), &http.Client{Transport: transport}), issuer: "https://" + portalHost}
	f.issuerURL, _ = url.Parse(f.issuer)
	p, err := gooidc.NewProvider(f.ctx, f.issuer)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	f.p = p
	f.cfg = oauth2.Config{ClientID: "grafana", ClientSecret: "s3cret-s3cret-s3cret", Endpoint: p.Endpoint(),
		RedirectURL: "https://grafana.example.com/login/generic_oauth", Scopes: []string{"openid", "profile", "email", "groups"}}
	f.jar, _ = cookiejar.New(nil)
	f.browser = &http.Client{Transport: transport, Jar: f.jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f.step = func(u string) *url.URL {
		t.Helper()
		resp, err := f.browser.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || err != nil {
			t.Fatalf("GET %s = %d", u, resp.StatusCode)
		}
		return loc
	}
	return f
}

// setSession makes cookie the browser's portal session.
func (f *portalRP) setSession(cookie string) {
	f.jar.SetCookies(f.issuerURL, []*http.Cookie{{Name: "gatehouse_admin", Value: cookie, Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}})
}

// portalCookies is the Cookie header of rec's cookies and more.
func portalCookies(rec *httptest.ResponseRecorder, more ...string) string {
	for _, c := range rec.Result().Cookies() {
		more = append(more, c.Name+"="+c.Value)
	}
	return strings.Join(more, "; ")
}

// addPasskey registers a passkey on the portal account of the session
// cookie (package admin, WebAuthn with a software authenticator).
func (f *portalRP) addPasskey(t *testing.T, a *testApp, cookie string) *testutil.Authenticator {
	t.Helper()
	key := testutil.NewAuthenticator(t, f.issuer)
	rec := a.do("POST", "/api/admin/me/passkeys/register/begin", "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie)
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey begin = %d %s", rec.Code, rec.Body)
	}
	body, _ := json.Marshal(map[string]any{"name": "phone", "credential": key.Create(rec.Body.Bytes())})
	if rec := a.do("POST", "/api/admin/me/passkeys/register/finish", string(body), "Host", portalHost,
		"Cookie", portalCookies(rec, "gatehouse_admin="+cookie)); rec.Code != http.StatusCreated {
		t.Fatalf("passkey finish = %d %s", rec.Code, rec.Body)
	}
	return key
}

// passkeySignIn signs in on the portal with key alone and returns the
// session cookie.
func (f *portalRP) passkeySignIn(t *testing.T, a *testApp, key *testutil.Authenticator) string {
	t.Helper()
	rec := a.do("POST", "/api/admin/login/passkey/begin", "", "Host", portalHost, "RemoteAddr", owner)
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey sign-in begin = %d %s", rec.Code, rec.Body)
	}
	body, _ := json.Marshal(map[string]any{"credential": key.Get(rec.Body.Bytes())})
	rec = a.do("POST", "/api/admin/login/passkey/finish", string(body), "Host", portalHost, "RemoteAddr", owner, "Cookie", portalCookies(rec))
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey sign-in = %d %s", rec.Code, rec.Body)
	}
	return sessionCookie(t, rec)
}

// TestOIDCStepUpThroughThePortal: an app that asks for a second factor,
// with package admin's real portal sessions and passkeys. casey, signed in
// with her password and without any second factor, is told to add one;
// she adds a passkey from that same session, so her session still has no
// second factor: the app sends her to the portal's step-up, she signs in
// with the passkey and the app gets an ID token whose acr is mfa.
func TestOIDCStepUpThroughThePortal(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	a.createUser(t, "casey", "none")
	f := newPortalRP(t, a, func(c *store.OIDCClient) { c.SecondFactor, c.ImpliedConsent = true, true })
	cookie := a.login(t, "casey", "correct-horse-battery", owner, "Host", portalHost)
	f.setSession(cookie)
	verifier := oauth2.GenerateVerifier()
	login := f.step(f.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n")))
	refused := f.step(login.String())
	if refused.Path != "/apps/refused" {
		t.Fatalf("without any second factor: %s, want the refusal page", refused)
	}
	rec := a.do("GET", "/api/portal/oidc/requests/"+refused.Query().Get("id"), "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie)
	if info := decode[provider.RequestInfo](t, rec); rec.Code != http.StatusOK || !info.SecondFactorMissing || info.Refused {
		t.Fatalf("refusal info = %d %s", rec.Code, rec.Body)
	}
	key := f.addPasskey(t, a, cookie)
	again := f.step(login.String())
	if again.Path != "/login" || again.Query().Get("stepup") != "1" || again.Query().Get("rd") != login.String() {
		t.Fatalf("with a passkey but a password sign-in: %s, want the step-up", again)
	}
	f.setSession(f.passkeySignIn(t, a, key))
	back := f.step(f.step(login.String()).String())
	tok, err := f.cfg.Exchange(f.ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange after the step-up: %v (back at %s)", err, back)
	}
	idt, err := f.p.Verifier(&gooidc.Config{ClientID: "grafana"}).Verify(f.ctx, tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		ACR string `json:"acr"`
	}
	if err := idt.Claims(&claims); err != nil || claims.ACR != "mfa" {
		t.Fatalf("acr after the step-up = %q, %v", claims.ACR, err)
	}
}
