package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestDeviceFlow: x/oauth2's DeviceAuth and DeviceAccessToken as the
// device, the portal API as the person who types the code.
func TestDeviceFlow(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "family")
	e.client("tv", func(c *store.OIDCClient) {
		c.Public = true
		c.Name = "Television"
		c.GrantTypes = store.NewJSON([]string{"urn:ietf:params:oauth:grant-type:device_code", "refresh_token"})
	})
	r := e.rp("tv", true, "openid", "profile", "offline_access")
	ctx, cancel := context.WithTimeout(e.ctx(), 20*time.Second)
	defer cancel()
	da, err := r.cfg.DeviceAuth(ctx)
	if err != nil {
		t.Fatalf("device authorization: %v", err)
	}
	if da.UserCode == "" || !strings.HasSuffix(da.VerificationURI, "/apps/device") || !strings.Contains(da.VerificationURIComplete, "user_code=") {
		t.Fatalf("device answer %+v", da)
	}
	b := e.signIn(alice)
	// The person types the code, in lower case and without its dash.
	typed := strings.ToLower(strings.ReplaceAll(da.UserCode, "-", ""))
	code, body := e.api(b, http.MethodGet, "/api/portal/oidc/device?userCode="+typed, "")
	var info DeviceInfo
	if code != http.StatusOK || json.Unmarshal(body, &info) != nil || info.App.Name != "Television" {
		t.Fatalf("look up the code = %d %s", code, body)
	}
	code, body = e.api(b, http.MethodPost, "/api/portal/oidc/device", `{"userCode":"`+typed+`","approve":true}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"approved":true`) {
		t.Fatalf("approve = %d %s", code, body)
	}
	tok, err := r.cfg.DeviceAccessToken(ctx, da)
	if err != nil {
		t.Fatalf("device token: %v", err)
	}
	idt, err := r.verifier.Verify(ctx, tok.Extra("id_token").(string))
	if err != nil || idt.Subject != alice.ID {
		t.Fatalf("ID token: %v", err)
	}
	if c := e.userinfo(tok.AccessToken); c != http.StatusOK {
		t.Fatalf("userinfo = %d", c)
	}
	if tok.RefreshToken == "" {
		t.Fatal("no refresh token with offline_access")
	}
	// The device code gives tokens once.
	if _, err := r.cfg.DeviceAccessToken(ctx, da); err == nil {
		t.Fatal("the device code gave tokens twice")
	}
	// The code is answered: typing it again finds nothing.
	if code, _ := e.api(b, http.MethodGet, "/api/portal/oidc/device?userCode="+typed, ""); code != http.StatusUnprocessableEntity {
		t.Fatalf("an answered code = %d", code)
	}
}

// TestDeviceFlowDeniedAndRefused: a person who refuses, and a person
// outside the app's groups, give the device no token.
func TestDeviceFlowDeniedAndRefused(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "family")
	bob := e.person("bob", "guests")
	e.client("tv", func(c *store.OIDCClient) {
		c.Public = true
		c.GrantTypes = store.NewJSON([]string{"urn:ietf:params:oauth:grant-type:device_code"})
		c.AllowedGroups = store.NewJSON([]string{e.groupID("family")})
	})
	r := e.rp("tv", true, "openid")
	ctx, cancel := context.WithTimeout(e.ctx(), 20*time.Second)
	defer cancel()
	da, err := r.cfg.DeviceAuth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	code, body := e.api(e.signIn(bob), http.MethodPost, "/api/portal/oidc/device", `{"userCode":"`+da.UserCode+`","approve":true}`)
	if code != http.StatusForbidden || !strings.Contains(string(body), "not in a group") {
		t.Fatalf("bob approves = %d %s", code, body)
	}
	code, body = e.api(e.signIn(alice), http.MethodPost, "/api/portal/oidc/device", `{"userCode":"`+da.UserCode+`","approve":false}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"approved":false`) {
		t.Fatalf("alice refuses = %d %s", code, body)
	}
	if _, err := r.cfg.DeviceAccessToken(ctx, da); err == nil || !strings.Contains(err.Error(), "access_denied") {
		t.Fatalf("device token after a refusal: %v", err)
	}
	// Without a portal session the API says so.
	if code, _ := e.api(e.browser(), http.MethodGet, "/api/portal/oidc/device?userCode=ABCD", ""); code != http.StatusUnauthorized {
		t.Fatalf("no session = %d", code)
	}
}

// TestDeviceCodeGuessesLimited: a person who types wrong codes is slowed
// down before they can walk the code space.
func TestDeviceCodeGuessesLimited(t *testing.T) {
	e := newEnv(t)
	b := e.signIn(e.person("mallory"))
	last := 0
	for range maxDeviceGuesses + 1 {
		last, _ = e.api(b, http.MethodGet, "/api/portal/oidc/device?userCode=BCDFGHJK", "")
	}
	if last != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong codes = %d, want 429", maxDeviceGuesses+1, last)
	}
}
