package provider

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestRedirectURIExactMatch: redirect URIs that differ from the registered
// one in any way are refused, and the browser is never sent to them
// (RFC 9700, 4.1.3; 2.1).
func TestRedirectURIExactMatch(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	e.client("public", func(c *store.OIDCClient) { c.Public = true; c.Name = "Public" })
	b := e.signIn(alice)
	_, challenge := pkce()
	for _, tc := range []struct{ name, uri string }{
		{"prefix", "https://app.example.com/oauth/callback/more"},
		{"shorter", "https://app.example.com/oauth/callbac"},
		{"host prefix", "https://app.example.com.evil.example/oauth/callback"},
		{"case of host", "https://APP.example.com/oauth/callback"},
		{"case of path", "https://app.example.com/OAuth/callback"},
		{"trailing slash", "https://app.example.com/oauth/callback/"},
		{"port", "https://app.example.com:8443/oauth/callback"},
		{"default port", "https://app.example.com:443/oauth/callback"},
		{"userinfo", "https://evil@app.example.com/oauth/callback"},
		{"encoding", "https://app.example.com/oauth%2Fcallback"},
		{"encoded letter", "https://app.example.com/oauth/c%61llback"},
		{"query", "https://app.example.com/oauth/callback?next=evil"},
		{"fragment", "https://app.example.com/oauth/callback#x"},
		{"scheme", "http://app.example.com/oauth/callback"},
		{"empty", ""},
	} {
		for _, client := range []string{"app", "public"} {
			t.Run(client+"/"+tc.name, func(t *testing.T) {
				q := url.Values{"client_id": {client}, "response_type": {"code"}, "scope": {"openid"}, "state": {"s"},
					"redirect_uri": {tc.uri}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
				at := b.visit(t, e.issuer+"/oidc/authorize?"+q.Encode())
				if at.Host != strings.TrimPrefix(e.issuer, "http://") {
					t.Fatalf("the browser was sent to %s", at)
				}
				if at.Path == "/oidc/login" || at.Path == "/oidc/authorize/callback" {
					t.Fatalf("the request was accepted: %s", at)
				}
			})
		}
	}
}

// TestPKCE: S256 only; required of public clients; a wrong or missing
// verifier and a downgrade (a verifier without a challenge) are refused.
func TestPKCE(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	e.client("public", func(c *store.OIDCClient) { c.Public = true; c.Name = "Public" })
	b := e.signIn(alice)
	pub := e.rp("public", true)
	conf := e.rp("app", false)
	verifier, challenge := pkce()

	refused := func(t *testing.T, r *rp, opts ...oauth2.AuthCodeOption) {
		t.Helper()
		code, at := e.authorize(b, r.cfg.AuthCodeURL("st", opts...))
		if code != "" || at.Host == "app.example.com" && at.Query().Get("error") == "" {
			t.Fatalf("authorize was not refused: %s", at)
		}
	}
	t.Run("public client without PKCE", func(t *testing.T) { refused(t, pub) })
	t.Run("plain", func(t *testing.T) {
		refused(t, pub, oauth2.SetAuthURLParam("code_challenge", verifier), oauth2.SetAuthURLParam("code_challenge_method", "plain"))
	})
	t.Run("method left out (plain by default)", func(t *testing.T) {
		refused(t, pub, oauth2.SetAuthURLParam("code_challenge", challenge))
	})
	t.Run("plain for a confidential client", func(t *testing.T) {
		refused(t, conf, oauth2.SetAuthURLParam("code_challenge", verifier), oauth2.SetAuthURLParam("code_challenge_method", "plain"))
	})
	exchange := func(t *testing.T, r *rp, authOpts []oauth2.AuthCodeOption, tokenOpts ...oauth2.AuthCodeOption) error {
		t.Helper()
		code, at := e.authorize(b, r.cfg.AuthCodeURL("st", authOpts...))
		if code == "" {
			t.Fatalf("no code: %s", at)
		}
		_, err := r.cfg.Exchange(e.ctx(), code, tokenOpts...)
		return err
	}
	s256 := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}
	t.Run("wrong verifier", func(t *testing.T) {
		other, _ := pkce()
		if err := exchange(t, pub, s256, oauth2.VerifierOption(other)); err == nil {
			t.Fatal("a wrong verifier was accepted")
		}
	})
	t.Run("missing verifier", func(t *testing.T) {
		if err := exchange(t, pub, s256); err == nil {
			t.Fatal("a missing verifier was accepted")
		}
	})
	t.Run("downgrade: a verifier without a challenge", func(t *testing.T) {
		if err := exchange(t, conf, nil, oauth2.VerifierOption(verifier)); err == nil {
			t.Fatal("a verifier for a request without a challenge was accepted")
		}
	})
	t.Run("public client with S256", func(t *testing.T) {
		if err := exchange(t, pub, s256, oauth2.VerifierOption(verifier)); err != nil {
			t.Fatalf("the right verifier was refused: %v", err)
		}
	})
}

// checkNonce is what a relying party does with the ID token: go-oidc
// verifies it, the app compares its nonce with the one it sent.
func checkNonce(e *env, r *rp, tok *oauth2.Token, want string) error {
	raw, _ := tok.Extra("id_token").(string)
	idt, err := r.verifier.Verify(e.ctx(), raw)
	if err != nil {
		return err
	}
	if idt.Nonce != want {
		return errNonce
	}
	return nil
}

var errNonce = &nonceError{}

type nonceError struct{}

func (*nonceError) Error() string { return "nonce mismatch" }

// TestNonceMissingOrReplayedFailsInTheRelyingParty.
func TestNonceMissingOrReplayedFailsInTheRelyingParty(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	b := e.signIn(alice)
	first := e.tokens(r, b, "nonce-A")
	if err := checkNonce(e, r, first, "nonce-A"); err != nil {
		t.Fatalf("the right nonce: %v", err)
	}
	// Replayed: the first ID token presented to a sign-in that sent nonce-B.
	if err := checkNonce(e, r, first, "nonce-B"); err == nil {
		t.Fatal("a replayed ID token passed the relying party's nonce check")
	}
	// Missing: a request without a nonce gives an ID token without one.
	none := e.tokens(r, b, "")
	if err := checkNonce(e, r, none, "nonce-C"); err == nil {
		t.Fatal("an ID token without a nonce passed the relying party's nonce check")
	}
	// The provider puts back exactly the nonce it received.
	verifier, _ := pkce()
	code, _ := e.authorize(b, r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n-D")))
	tok, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier))
	if err != nil || checkNonce(e, r, tok, "n-D") != nil {
		t.Fatalf("nonce round trip: %v", err)
	}
}

// TestUnknownOrDisabledClientRefused: no redirect for an unknown client.
func TestUnknownOrDisabledClientRefused(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	now := store.Now()
	e.client("off", func(c *store.OIDCClient) { c.DisabledAt = &now })
	b := e.signIn(alice)
	for _, id := range []string{"nobody", "off"} {
		q := url.Values{"client_id": {id}, "response_type": {"code"}, "scope": {"openid"}, "redirect_uri": {appRedirect}}
		at := b.visit(t, e.issuer+"/oidc/authorize?"+q.Encode())
		if at.Host == "app.example.com" || at.Path == "/oidc/login" {
			t.Fatalf("client %s: sent to %s", id, at)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, e.issuer+"/oidc/token", strings.NewReader("grant_type=authorization_code&code=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("off", appSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 4 {
		t.Fatalf("token for a disabled client = %d", resp.StatusCode)
	}
}
