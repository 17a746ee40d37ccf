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
	now := store.Now()
	if err := a.c.db.Create(&store.OIDCClient{ID: "grafana", Name: "Grafana", SecretHash: provider.SecretHash("s3cret-s3cret-s3cret"),
		RedirectURIs: store.NewJSON([]string{"https://grafana.example.com/login/generic_oauth"}),
		GrantTypes:   store.NewJSON([]string{"authorization_code", "refresh_token"}), SigningAlg: "RS256",
		CreatedAt: now, UpdatedAt: now}).Error; err != nil {
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
	appClient := &http.Client{Transport: transport}
	ctx := gooidc.ClientContext(context.Background(), appClient)
	issuer := "https://" + portalHost
	p, err := gooidc.NewProvider(ctx, issuer)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	cfg := oauth2.Config{ClientID: "grafana", ClientSecret: "s3cret-s3cret-s3cret", Endpoint: p.Endpoint(),
		RedirectURL: "https://grafana.example.com/login/generic_oauth", Scopes: []string{"openid", "profile", "email", "groups"}}
	verifier := oauth2.GenerateVerifier()

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Transport: transport, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	step := func(u string) *url.URL {
		t.Helper()
		resp, err := browser.Get(u)
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
	u, _ := url.Parse(issuer)
	jar.SetCookies(u, []*http.Cookie{{Name: "gatehouse_admin", Value: cookie, Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}})
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
	key := testutil.NewAuthenticator(t, issuer)
	rec = a.do("POST", "/api/admin/me/passkeys/register/begin", "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie)
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey begin = %d %s", rec.Code, rec.Body)
	}
	cookies := func(rec *httptest.ResponseRecorder, more ...string) string {
		for _, c := range rec.Result().Cookies() {
			more = append(more, c.Name+"="+c.Value)
		}
		return strings.Join(more, "; ")
	}
	body, _ := json.Marshal(map[string]any{"name": "phone", "credential": key.Create(rec.Body.Bytes())})
	if rec := a.do("POST", "/api/admin/me/passkeys/register/finish", string(body), "Host", portalHost,
		"Cookie", cookies(rec, "gatehouse_admin="+cookie)); rec.Code != http.StatusCreated {
		t.Fatalf("passkey finish = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/admin/logout", "", "Host", portalHost, "Cookie", "gatehouse_admin="+cookie); rec.Code/100 != 2 {
		t.Fatalf("portal sign-out = %d", rec.Code)
	}
	jar, _ = cookiejar.New(nil)
	browser.Jar = jar
	verifier = oauth2.GenerateVerifier()
	login = step(cfg.AuthCodeURL("st-2", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n-2")))
	if signIn := step(login.String()); signIn.Path != "/login" {
		t.Fatalf("signed out: %s, want the portal's sign-in", signIn)
	}
	rec = a.do("POST", "/api/admin/login/passkey/begin", "", "Host", portalHost, "RemoteAddr", owner)
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey sign-in begin = %d %s", rec.Code, rec.Body)
	}
	body, _ = json.Marshal(map[string]any{"credential": key.Get(rec.Body.Bytes())})
	rec = a.do("POST", "/api/admin/login/passkey/finish", string(body), "Host", portalHost, "RemoteAddr", owner, "Cookie", cookies(rec))
	if rec.Code != http.StatusOK {
		t.Fatalf("passkey sign-in = %d %s", rec.Code, rec.Body)
	}
	jar.SetCookies(u, []*http.Cookie{{Name: "gatehouse_admin", Value: sessionCookie(t, rec), Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}})
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
