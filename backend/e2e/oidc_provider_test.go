//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/provider"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestOIDCProviderThroughTraefik: an app (go-oidc and x/oauth2) signs ann
// in with Gatehouse as its OpenID provider, every request through a real
// Traefik on the portal's host: discovery, authorize, the portal's sign-in
// with a password, token, ID token and userinfo; then a command-line
// device (x/oauth2's device flow) that ann allows on the portal; and
// disabling ann stops userinfo at once.
func TestOIDCProviderThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, map[string]string{"PANEL_PORTAL_URL": "http://" + portalHost})
	files := t.TempDir()
	dyn := "http:\n  routers:\n    gatehouse-portal:\n      rule: Host(`" + portalHost + "`)\n" +
		"      entryPoints: [web]\n      service: gatehouse\n" +
		"  services:\n    gatehouse:\n      loadBalancer:\n        servers:\n          - url: \"" + p.URL + "\"\n"
	if err := os.WriteFile(filepath.Join(files, "portal.yml"), []byte(dyn), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config", FileDir: files})
	var portal map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"] = portalHost
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)
	const annPassword = "ann-oidc-password"
	var ann struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
		"username": "ann", "email": "ann@example.test", "displayName": "Ann", "panelRole": "none", "password": annPassword}, &ann)

	// The app's registration, as the Apps page stores it.
	db, err := store.Open(context.Background(), filepath.Join(p.DataDir, "gatehouse.db"))
	if err != nil {
		t.Fatal(err)
	}
	now := store.Now()
	const redirect = "https://app.example.test/callback"
	appSecret := "app-secret-" + ann.ID // made up for this test
	for _, c := range []store.OIDCClient{
		{ID: "app", Name: "App", SecretHash: provider.SecretHash(appSecret), RedirectURIs: store.NewJSON([]string{redirect}),
			GrantTypes: store.NewJSON([]string{"authorization_code", "refresh_token"}), SigningAlg: "RS256", ImpliedConsent: true},
		{ID: "cli", Name: "Command line", Public: true, GrantTypes: store.NewJSON([]string{"urn:ietf:params:oauth:grant-type:device_code"}),
			SigningAlg: "RS256", ImpliedConsent: true},
	} {
		c.CreatedAt, c.UpdatedAt = now, now
		if err := db.Create(&c).Error; err != nil {
			t.Fatal(err)
		}
	}
	if sqlDB, err := db.DB(); err == nil {
		_ = sqlDB.Close()
	}

	c := portalBrowser(t, tr)
	issuer := "http://" + portalHost
	harness.Eventually(t, 30*time.Second, func() bool {
		return fetch(t, c, issuer+"/.well-known/openid-configuration", nil).code == http.StatusOK
	}, "discovery never answered through Traefik")
	ctx := gooidc.ClientContext(context.Background(), c)
	op, err := gooidc.NewProvider(ctx, issuer)
	if err != nil {
		t.Fatalf("discovery through Traefik: %v", err)
	}
	cfg := oauth2.Config{ClientID: "app", ClientSecret: appSecret, Endpoint: op.Endpoint(), RedirectURL: redirect,
		Scopes: []string{"openid", "profile", "email", "groups"}}
	verifier := oauth2.GenerateVerifier()
	a := fetch(t, c, cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n-e2e")), nil)
	login := a.location
	if a.code != http.StatusFound || !strings.HasPrefix(login, "/oidc/login?id=") {
		t.Fatalf("authorize: %d %q", a.code, a.location)
	}
	a = fetch(t, c, issuer+login, nil)
	if a.code != http.StatusFound || !strings.HasPrefix(a.location, "/login?rd=") {
		t.Fatalf("without a portal session: %d %q", a.code, a.location)
	}
	if r := portalPost(t, c, "/api/admin/login", map[string]string{"username": "ann", "password": annPassword}); r.code != http.StatusOK {
		t.Fatalf("portal sign-in: %d %s", r.code, r.body)
	}
	// The portal's page goes back to the sign-in's hop, which answers
	// through the provider's callback with the code.
	next, hops := issuer+login, []string{}
	var back *url.URL
	for range 4 {
		a = fetch(t, c, next, nil)
		u, err := url.Parse(a.location)
		if a.code != http.StatusFound || err != nil {
			t.Fatalf("%s: %d %q", next, a.code, a.location)
		}
		hops = append(hops, a.location)
		if u.Host == "app.example.test" {
			back = u
			break
		}
		next = issuer + u.RequestURI()
	}
	if back == nil || back.Query().Get("state") != "st" || back.Query().Get("code") == "" {
		t.Fatalf("after the sign-in: %v", hops)
	}
	tok, err := cfg.Exchange(ctx, back.Query().Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("token through Traefik: %v", err)
	}
	idt, err := op.Verifier(&gooidc.Config{ClientID: "app"}).Verify(ctx, tok.Extra("id_token").(string))
	if err != nil || idt.Subject != ann.ID || idt.Nonce != "n-e2e" {
		t.Fatalf("ID token: %+v %v", idt, err)
	}
	info, err := op.UserInfo(ctx, oauth2.StaticTokenSource(tok))
	if err != nil || info.Email != "ann@example.test" {
		t.Fatalf("userinfo: %+v %v", info, err)
	}

	// A command-line tool: the device flow, ann allows it on the portal.
	cli := oauth2.Config{ClientID: "cli", Endpoint: op.Endpoint(), Scopes: []string{"openid", "profile"}}
	dctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	da, err := cli.DeviceAuth(dctx)
	if err != nil {
		t.Fatalf("device authorization: %v", err)
	}
	if r := portalPost(t, c, "/api/portal/oidc/device", map[string]any{"userCode": da.UserCode, "approve": true}); r.code != http.StatusOK {
		t.Fatalf("ann allows the device: %d %s", r.code, r.body)
	}
	dtok, err := cli.DeviceAccessToken(dctx, da)
	if err != nil {
		t.Fatalf("device token: %v", err)
	}
	if info, err := op.UserInfo(ctx, oauth2.StaticTokenSource(dtok)); err != nil || info.Subject != ann.ID {
		t.Fatalf("device userinfo: %+v %v", info, err)
	}

	// Disabling ann stops her tokens from the next call.
	p.MustJSON(t, http.StatusOK, http.MethodPatch, "/api/people/"+ann.ID, map[string]any{"enabled": false}, nil)
	if _, err := op.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err == nil {
		t.Fatal("userinfo answered a disabled person")
	}
}
