package provider

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// refresh uses a refresh token once, as x/oauth2 does when the access
// token has expired.
func refresh(e *env, r *rp, rt string) (*oauth2.Token, error) {
	return r.cfg.TokenSource(e.ctx(), &oauth2.Token{RefreshToken: rt, Expiry: time.Now().Add(-time.Hour)}).Token()
}

// TestRefreshRotationAndReuseRevokesFamily: each refresh gives a new
// refresh token; presenting a used one revokes every token of its family,
// the newest refresh token and the access tokens included.
func TestRefreshRotationAndReuseRevokesFamily(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	first := e.tokens(r, e.signIn(alice), "n")
	second, err := refresh(e, r, first.RefreshToken)
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if second.RefreshToken == "" || second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken {
		t.Fatal("the refresh token was not rotated")
	}
	if raw, _ := second.Extra("id_token").(string); raw == "" {
		t.Fatal("no ID token on refresh")
	}
	if code := e.userinfo(second.AccessToken); code != http.StatusOK {
		t.Fatalf("userinfo with the refreshed token = %d", code)
	}
	// The old refresh token again: a replay.
	if _, err := refresh(e, r, first.RefreshToken); err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("reused refresh token = %v, want invalid_grant", err)
	}
	if _, err := refresh(e, r, second.RefreshToken); err == nil {
		t.Fatal("the family's newest refresh token still works after a reuse")
	}
	for _, at := range []string{first.AccessToken, second.AccessToken} {
		if code := e.userinfo(at); code == http.StatusOK {
			t.Fatal("an access token of the revoked family still answers userinfo")
		}
	}
}

// TestCodeUsedTwiceRevokesWhatItGave (RFC 9700, 4.4.1.12).
func TestCodeUsedTwiceRevokesWhatItGave(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	verifier, _ := pkce()
	code, at := e.authorize(e.signIn(alice), r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
	if code == "" {
		t.Fatalf("no code: %s", at)
	}
	tok, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier)); err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("second exchange = %v, want invalid_grant", err)
	}
	if c := e.userinfo(tok.AccessToken); c == http.StatusOK {
		t.Fatal("the first exchange's access token survived the code's reuse")
	}
	if _, err := refresh(e, r, tok.RefreshToken); err == nil {
		t.Fatal("the first exchange's refresh token survived the code's reuse")
	}
}

// TestDisabledPersonRefusedOnEveryReplica: disabling a person stops their
// tokens at userinfo, introspection and refresh from the next call, on
// this replica and on another one sharing the database.
func TestDisabledPersonRefusedOnEveryReplica(t *testing.T) {
	e := newEnv(t)
	other := newReplica(t, e.database, e.box, e.portal)
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	tok := e.tokens(r, e.signIn(alice), "n")
	for _, x := range []*env{e, other} {
		if c := x.userinfo(tok.AccessToken); c != http.StatusOK {
			t.Fatalf("userinfo before = %d", c)
		}
		if !x.introspect("app", tok.AccessToken) {
			t.Fatal("introspection before: inactive")
		}
	}
	now := store.Now()
	if err := e.db.Model(&store.Person{}).Where("id = ?", alice.ID).Update("disabled_at", now).Error; err != nil {
		t.Fatal(err)
	}
	for i, x := range []*env{e, other} {
		if c := x.userinfo(tok.AccessToken); c == http.StatusOK {
			t.Fatalf("replica %d: userinfo answered a disabled person", i)
		}
		if x.introspect("app", tok.AccessToken) {
			t.Fatalf("replica %d: introspection says a disabled person's token is active", i)
		}
	}
	if _, err := refresh(e, r, tok.RefreshToken); err == nil {
		t.Fatal("a disabled person's refresh token still works")
	}
}

// TestIntrospectionOnlyForTheTokensApp: another client learns nothing.
func TestIntrospectionOnlyForTheTokensApp(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	e.client("other", func(c *store.OIDCClient) { c.Name = "Other" })
	tok := e.tokens(e.rp("app", false), e.signIn(alice), "n")
	if !e.introspect("app", tok.AccessToken) || e.introspect("other", tok.AccessToken) {
		t.Fatal("introspection: want active for its app only")
	}
}

// TestRevocation: a revoked refresh token and its family stop; a revoked
// access token stops.
func TestRevocation(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	tok := e.tokens(r, e.signIn(alice), "n")
	revoke := func(token, hint string) {
		form := url.Values{"token": {token}}
		if hint != "" {
			form.Set("token_type_hint", hint)
		}
		req, _ := http.NewRequest(http.MethodPost, e.issuer+"/oidc/revoke", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("app", appSecret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("revoke = %d", resp.StatusCode)
		}
	}
	revoke(tok.AccessToken, "access_token")
	if c := e.userinfo(tok.AccessToken); c == http.StatusOK {
		t.Fatal("revoked access token answers")
	}
	second, err := refresh(e, r, tok.RefreshToken)
	if err != nil {
		t.Fatalf("refresh after revoking only the access token: %v", err)
	}
	revoke(second.RefreshToken, "")
	if c := e.userinfo(second.AccessToken); c == http.StatusOK {
		t.Fatal("revoking the refresh token left its family's access token")
	}
	if _, err := refresh(e, r, second.RefreshToken); err == nil {
		t.Fatal("revoked refresh token works")
	}
}

// TestRemovedFromAllowedGroupStopsAtOnce: leaving the app's group stops
// userinfo, introspection and refresh from the next call.
func TestRemovedFromAllowedGroupStopsAtOnce(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice", "family")
	e.client("app", func(c *store.OIDCClient) { c.AllowedGroups = store.NewJSON([]string{e.groupID("family")}) })
	r := e.rp("app", false)
	tok := e.tokens(r, e.signIn(alice), "n")
	if c := e.userinfo(tok.AccessToken); c != http.StatusOK {
		t.Fatalf("userinfo before = %d", c)
	}
	if err := e.db.Where("person_id = ?", alice.ID).Delete(&store.GroupMember{}).Error; err != nil {
		t.Fatal(err)
	}
	if c := e.userinfo(tok.AccessToken); c == http.StatusOK {
		t.Fatal("userinfo answered after the person left the app's group")
	}
	if e.introspect("app", tok.AccessToken) {
		t.Fatal("introspection says active after the person left the app's group")
	}
	if _, err := refresh(e, r, tok.RefreshToken); err == nil {
		t.Fatal("refresh worked after the person left the app's group")
	}
}

// TestPruneDropsWhatExpired: the leader's sweep removes expired requests,
// tokens and device codes once past their keeping time, and keeps the rest.
func TestPruneDropsWhatExpired(t *testing.T) {
	clock := testutil.NewClock(time.Now().UTC())
	e := newEnv(t, func(d *Deps) { d.Now = clock.Now })
	alice := e.person("alice")
	e.client("app")
	e.tokens(e.rp("app", false), e.signIn(alice), "n")
	count := func(model any) int64 {
		var n int64
		if err := e.db.Model(model).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := e.svc.prune(e.ctx()); err != nil {
		t.Fatal(err)
	}
	if count(&token{}) != 2 || count(&authRequest{}) != 1 {
		t.Fatal("prune removed live rows")
	}
	clock.Add(40 * 24 * time.Hour)
	if err := e.svc.prune(e.ctx()); err != nil {
		t.Fatal(err)
	}
	if n, r := count(&token{}), count(&authRequest{}); n != 0 || r != 0 {
		t.Fatalf("after expiry: %d tokens, %d requests left", n, r)
	}
}
