package provider

import (
	"slices"
	"testing"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// TestCodeFlowWithGoOIDC: discovery, authorize with PKCE, token, ID token
// verified by go-oidc with its nonce, and userinfo.
func TestCodeFlowWithGoOIDC(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "family")
	e.client("grafana")
	r := e.rp("grafana", false)
	b := e.signIn(alice)
	verifier, _ := pkce()
	code, at := e.authorize(b, r.cfg.AuthCodeURL("state-1", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("nonce-1")))
	if code == "" || at.Query().Get("state") != "state-1" {
		t.Fatalf("no code: ended at %s", at)
	}
	tok, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	idt, err := r.verifier.Verify(e.ctx(), raw)
	if err != nil {
		t.Fatalf("verify ID token: %v", err)
	}
	if idt.Nonce != "nonce-1" || idt.Subject != alice.ID {
		t.Fatalf("ID token nonce %q subject %q", idt.Nonce, idt.Subject)
	}
	var claims struct {
		PreferredUsername string   `json:"preferred_username"`
		Name              string   `json:"name"`
		Email             string   `json:"email"`
		EmailVerified     bool     `json:"email_verified"`
		Groups            []string `json:"groups"`
	}
	if err := idt.Claims(&claims); err != nil {
		t.Fatal(err)
	}
	if claims.PreferredUsername != "alice" || claims.Name != "Alice" || claims.Email != "alice@example.com" || !claims.EmailVerified ||
		!slices.Equal(claims.Groups, []string{"family"}) {
		t.Fatalf("ID token claims %+v", claims)
	}
	if tok.RefreshToken == "" {
		t.Fatal("no refresh token with offline_access")
	}
	info, err := r.provider.UserInfo(e.ctx(), oauth2.StaticTokenSource(tok))
	if err != nil {
		t.Fatalf("userinfo: %v", err)
	}
	if info.Subject != alice.ID || info.Email != "alice@example.com" {
		t.Fatalf("userinfo %+v", info)
	}
}
