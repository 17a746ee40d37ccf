package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestOutsideAllowedGroupsSeesRefusalPage: the browser stays on the
// portal's refusal page (never a broken redirect to the app), and the
// page's API says why; a person in the group signs in.
func TestOutsideAllowedGroupsSeesRefusalPage(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "family")
	bob := e.person("bob", "guests")
	e.client("app", func(c *store.OIDCClient) { c.AllowedGroups = store.NewJSON([]string{e.groupID("family")}) })
	r := e.rp("app", false)
	verifier, _ := pkce()
	b := e.signIn(bob)
	authCode, at := e.authorize(b, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
	if authCode != "" || at.Path != "/apps/refused" {
		t.Fatalf("bob ended at %s", at)
	}
	code, body := e.api(b, http.MethodGet, "/api/portal/oidc/requests/"+at.Query().Get("id"), "")
	var info RequestInfo
	if code != http.StatusOK || json.Unmarshal(body, &info) != nil || !info.Refused || info.App.Name != "App app" {
		t.Fatalf("refusal info = %d %s", code, body)
	}
	// The request was never shown to bob as a consent: it is not his to
	// answer.
	if code, _ := e.api(b, http.MethodPost, "/api/portal/oidc/requests/"+at.Query().Get("id")+"/consent", `{"approve":true}`); code != http.StatusNotFound {
		t.Fatalf("bob consents anyway = %d", code)
	}
	e.tokens(r, e.signIn(alice), "n")
}

// TestConsentRemembered: the first sign-in asks, the answer is kept per
// person, client and scopes; a new scope asks again; refusing answers
// access_denied to the app.
func TestConsentRemembered(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app", func(c *store.OIDCClient) { c.ImpliedConsent = false })
	b := e.signIn(alice)
	ask := func(scopes ...string) *url.URL {
		r := e.rp("app", false, scopes...)
		verifier, _ := pkce()
		_, at := e.authorize(b, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
		return at
	}
	at := ask("openid", "profile")
	if at.Path != "/apps/consent" {
		t.Fatalf("first sign-in: %s", at)
	}
	code, body := e.api(b, http.MethodPost, "/api/portal/oidc/requests/"+at.Query().Get("id")+"/consent", `{"approve":true}`)
	var next Next
	if code != http.StatusOK || json.Unmarshal(body, &next) != nil {
		t.Fatalf("consent = %d %s", code, body)
	}
	if back := b.visit(t, e.issuer+next.Redirect); back.Host != "app.example.com" || back.Query().Get("code") == "" {
		t.Fatalf("after consent: %s", back)
	}
	if at := ask("openid", "profile"); at.Host != "app.example.com" {
		t.Fatalf("second sign-in asked again: %s", at)
	}
	at = ask("openid", "profile", "email")
	if at.Path != "/apps/consent" {
		t.Fatalf("a new scope did not ask: %s", at)
	}
	_, body = e.api(b, http.MethodPost, "/api/portal/oidc/requests/"+at.Query().Get("id")+"/consent", `{"approve":false}`)
	_ = json.Unmarshal(body, &next)
	u, _ := url.Parse(next.Redirect)
	if u.Host != "app.example.com" || u.Query().Get("error") != "access_denied" || u.Query().Get("state") != "st" {
		t.Fatalf("refusal sends to %s", next.Redirect)
	}
}

// TestSignInGoesThroughThePortal: without a portal session the browser
// goes to the portal's sign-in with a way back; prompt=none answers
// login_required to the app instead.
func TestSignInGoesThroughThePortal(t *testing.T) {
	e := newEnv(t)
	e.client("app")
	r := e.rp("app", false)
	verifier, _ := pkce()
	b := e.browser()
	at := b.visit(t, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
	rd, _ := url.Parse(at.Query().Get("rd"))
	if at.Path != "/login" || rd.Path != "/oidc/login" || rd.Query().Get("id") == "" {
		t.Fatalf("without a session: %s", at)
	}
	at = b.visit(t, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("prompt", "none")))
	if at.Host != "app.example.com" || at.Query().Get("error") != "login_required" {
		t.Fatalf("prompt=none: %s", at)
	}
	// prompt=login with a session proved before the request: sign in again.
	alice := e.person("alice")
	b = e.signIn(alice)
	for k, v := range e.portal.m {
		v.ProvedAt = time.Now().Add(-time.Hour)
		e.portal.m[k] = v
	}
	at = b.visit(t, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("prompt", "login")))
	if at.Path != "/login" || at.Query().Get("reauth") != "1" {
		t.Fatalf("prompt=login: %s", at)
	}
}

// TestClaimMappings: a role claim built from groups (Grafana's
// role_attribute_path), a static claim, a renamed claim; reserved claims
// cannot be replaced.
func TestClaimMappings(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "admins", "family")
	e.client("grafana", func(c *store.OIDCClient) {
		c.ClaimMappings = store.NewJSON([]store.OIDCClaimMapping{
			{Claim: "role", Kind: "groups", Values: []store.OIDCClaimValue{{Group: "admins", Value: "Admin"}, {Group: "family", Value: "Editor"}}, Default: "Viewer"},
			{Claim: "tenant", Kind: "static", Default: "home"},
			{Claim: "login", Kind: "rename", From: "preferred_username"},
			{Claim: "sub", Kind: "static", Default: "forged"},
		})
	})
	r := e.rp("grafana", false)
	tok := e.tokens(r, e.signIn(alice), "n")
	idt, err := r.verifier.Verify(e.ctx(), tok.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	_ = idt.Claims(&c)
	if c["role"] != "Admin" || c["tenant"] != "home" || c["login"] != "alice" || c["sub"] != alice.ID {
		t.Fatalf("ID token claims %v", c)
	}
	info, err := r.provider.UserInfo(e.ctx(), oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatal(err)
	}
	var u map[string]any
	_ = info.Claims(&u)
	if u["role"] != "Admin" || u["sub"] != alice.ID {
		t.Fatalf("userinfo claims %v", u)
	}
	groups, _ := u["groups"].([]any)
	if !slices.Equal(groups, []any{"admins", "family"}) {
		t.Fatalf("groups %v", u["groups"])
	}
}

// TestLogout: RP-initiated logout with an exact post_logout_redirect_uri
// ends the portal session and the app sessions, and each app with a
// back-channel logout URI receives a signed logout token.
func TestLogout(t *testing.T) {
	var mu sync.Mutex
	var received []string
	bc := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		received = append(received, r.PostForm.Get("logout_token"))
		mu.Unlock()
	}))
	defer bc.Close()
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	e.client("wiki", func(c *store.OIDCClient) { c.Name = "Wiki"; c.BackchannelLogoutURI = bc.URL })
	b := e.signIn(alice)
	app := e.tokens(e.rp("app", false), b, "n")
	wiki := e.tokens(e.rp("wiki", false), b, "n")

	wikiID, err := e.rp("wiki", false).verifier.Verify(e.ctx(), wiki.Extra("id_token").(string))
	if err != nil {
		t.Fatal(err)
	}
	var wikiClaims struct {
		SID string `json:"sid"`
	}
	_ = wikiID.Claims(&wikiClaims)
	if wikiClaims.SID == "" {
		t.Fatal("the ID token has no sid")
	}
	// A post-logout URI that is not registered exactly: refused.
	q := url.Values{"id_token_hint": {app.Extra("id_token").(string)}, "post_logout_redirect_uri": {logoutPage + "/"}}
	if at := b.visit(t, e.issuer+"/oidc/end_session?"+q.Encode()); at.Host == "app.example.com" {
		t.Fatalf("an unregistered post-logout URI was followed: %s", at)
	}
	q.Set("post_logout_redirect_uri", logoutPage)
	q.Set("state", "bye")
	at := b.visit(t, e.issuer+"/oidc/end_session?"+q.Encode())
	if at.String() != logoutPage+"?state=bye" {
		t.Fatalf("after logout: %s", at)
	}
	if len(e.portal.m) != 0 {
		t.Fatal("the portal session survived the app's logout")
	}
	for _, tok := range []*oauth2.Token{app, wiki} {
		if c := e.userinfo(tok.AccessToken); c == http.StatusOK {
			t.Fatal("an app session survived the logout")
		}
	}
	var raw string
	deadline := time.Now().Add(5 * time.Second)
	for raw == "" && time.Now().Before(deadline) {
		mu.Lock()
		if len(received) > 0 {
			raw = received[0]
		}
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	if raw == "" {
		t.Fatal("no back-channel logout token")
	}
	ks := gooidc.NewRemoteKeySet(context.Background(), e.issuer+"/oidc/keys")
	payload, err := ks.VerifySignature(context.Background(), raw)
	if err != nil {
		t.Fatalf("logout token signature: %v", err)
	}
	var claims map[string]any
	_ = json.Unmarshal(payload, &claims)
	events, _ := claims["events"].(map[string]any)
	if claims["sub"] != alice.ID || claims["aud"] != "wiki" || claims["iss"] != e.issuer || claims["sid"] != wikiClaims.SID ||
		events["http://schemas.openid.net/event/backchannel-logout"] == nil || claims["nonce"] != nil {
		t.Fatalf("logout token claims %v", claims)
	}
	mu.Lock()
	n := len(received)
	mu.Unlock()
	if n != 1 {
		t.Fatalf("%d back-channel calls, want 1 (only wiki has a URI)", n)
	}
}

// TestDiscoveryAndJWKSFromMemory: ETags, 304s, S256 only, and no database
// query on either.
func TestDiscoveryAndJWKSFromMemory(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	queries := 0
	count := func(*gormDB) { mu.Lock(); queries++; mu.Unlock() }
	registerCounter(t, e.db, count)
	for _, path := range []string{DiscoveryPath, "/oidc/keys"} {
		resp, err := http.Get(e.issuer + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		etag := resp.Header.Get("ETag")
		if resp.StatusCode != http.StatusOK || etag == "" {
			t.Fatalf("%s = %d etag %q", path, resp.StatusCode, etag)
		}
		if path == DiscoveryPath {
			var doc map[string]any
			_ = json.Unmarshal(body, &doc)
			m, _ := doc["code_challenge_methods_supported"].([]any)
			if doc["issuer"] != e.issuer || len(m) != 1 || m[0] != "S256" || doc["device_authorization_endpoint"] != e.issuer+"/oidc/device_authorization" {
				t.Fatalf("discovery %s", body)
			}
		}
		req, _ := http.NewRequest(http.MethodGet, e.issuer+path, nil)
		req.Header.Set("If-None-Match", etag)
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			t.Fatalf("%s with its ETag = %d", path, resp.StatusCode)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if queries != 0 {
		t.Fatalf("%d database queries for discovery and JWKS", queries)
	}
}

// TestCORSWithoutCredentials: a browser app on another origin may call the
// endpoints, never with the portal's cookies.
func TestCORSWithoutCredentials(t *testing.T) {
	e := newEnv(t)
	req, _ := http.NewRequest(http.MethodOptions, e.issuer+"/oidc/token", nil)
	req.Header.Set("Origin", "https://spa.example.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") == "" || resp.Header.Get("Access-Control-Allow-Credentials") == "true" {
		t.Fatalf("preflight: %v", resp.Header)
	}
}
