package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func kidOf(t *testing.T, raw string) string {
	t.Helper()
	sig, err := jose.ParseSignedCompact(raw, []jose.SignatureAlgorithm{jose.RS256, jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	return sig.Signatures[0].Header.KeyID
}

func (e *env) jwks() []string {
	e.t.Helper()
	resp, err := http.Get(e.issuer + "/oidc/keys")
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		e.t.Fatal(err)
	}
	ids := []string{}
	for _, k := range set.Keys {
		ids = append(ids, k.KeyID+"/"+k.Algorithm)
	}
	return ids
}

// TestKeyRotationKeepsOldTokensVerifiable: the leader publishes a new key
// before it signs; the old key stays in the JWKS for the overlap, so ID
// tokens it signed still verify in go-oidc, then it leaves.
func TestKeyRotationKeepsOldTokensVerifiable(t *testing.T) {
	clock := testutil.NewClock(time.Now().UTC())
	e := newEnv(t, func(d *Deps) {
		d.Now = clock.Now
		d.RotateEvery, d.PublishAhead, d.Overlap = 30*24*time.Hour, time.Hour, 7*24*time.Hour
	})
	alice := e.person("alice")
	e.client("app")
	r := e.rp("app", false)
	b := e.signIn(alice)
	old := e.tokens(r, b, "n").Extra("id_token").(string)
	oldKid := kidOf(t, old)
	ctx := context.Background()
	if len(e.jwks()) != 2 {
		t.Fatalf("JWKS at start: %v (want one RS256 and one ES256 key)", e.jwks())
	}

	clock.Add(31 * 24 * time.Hour)
	if err := e.svc.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(e.jwks()); n != 4 {
		t.Fatalf("after rotation the JWKS has %d keys, want 4 (new ones published ahead)", n)
	}
	if k := kidOf(t, e.tokens(r, b, "n").Extra("id_token").(string)); k != oldKid {
		t.Fatal("the new key signed before every replica could publish it")
	}
	clock.Add(2 * time.Hour)
	if err := e.svc.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	e.svc.reloadKeys(ctx)
	fresh := e.tokens(r, b, "n").Extra("id_token").(string)
	if kidOf(t, fresh) == oldKid {
		t.Fatal("the new key does not sign after publishAhead")
	}
	// A relying party that cached nothing verifies both.
	v := gooidc.NewRemoteKeySet(ctx, e.issuer+"/oidc/keys")
	for _, raw := range []string{old, fresh} {
		if _, err := v.VerifySignature(ctx, raw); err != nil {
			t.Fatalf("verify after rotation: %v", err)
		}
	}
	// After the overlap the old key leaves.
	clock.Add(8 * 24 * time.Hour)
	if err := e.svc.Rotate(ctx); err != nil {
		t.Fatal(err)
	}
	e.svc.reloadKeys(ctx)
	for _, k := range e.jwks() {
		if strings.HasPrefix(k, oldKid+"/") {
			t.Fatal("the replaced key is still published after the overlap")
		}
	}
	if _, err := gooidc.NewRemoteKeySet(ctx, e.issuer+"/oidc/keys").VerifySignature(ctx, fresh); err != nil {
		t.Fatalf("the current key: %v", err)
	}
}

// TestSigningKeysSealedAndShared: private keys are sealed with the age
// identity at rest, and a second replica publishes the same keys.
func TestSigningKeysSealedAndShared(t *testing.T) {
	e := newEnv(t)
	var rows []signingKey
	if err := e.db.Find(&rows).Error; err != nil || len(rows) != 2 {
		t.Fatalf("keys: %d %v", len(rows), err)
	}
	for _, r := range rows {
		if !sealbox.IsSealed(r.PrivateKey) || strings.Contains(r.PrivateKey, "PRIVATE") {
			t.Fatalf("key %s is not sealed", r.ID)
		}
	}
	other := newReplica(t, e.database, e.box, e.portal)
	if a, b := strings.Join(e.jwks(), ","), strings.Join(other.jwks(), ","); a != b {
		t.Fatalf("replicas publish different keys: %s / %s", a, b)
	}
}

// TestES256PerClient: a client that asks for ES256 gets ES256 ID tokens;
// others keep RS256.
func TestES256PerClient(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("ec", func(c *store.OIDCClient) { c.SigningAlg = "ES256" })
	e.client("rsa", func(c *store.OIDCClient) { c.Name = "RSA" })
	b := e.signIn(alice)
	for id, alg := range map[string]string{"ec": "ES256", "rsa": "RS256"} {
		r := e.rp(id, false)
		r.verifier = r.provider.Verifier(&gooidc.Config{ClientID: id, SupportedSigningAlgs: []string{alg}})
		tok := e.tokens(r, b, "n")
		if err := checkNonce(e, r, tok, "n"); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
}

// TestKeysSealedWithAnotherIdentity: a database restored beside another
// age identity still starts: the keys it cannot open are skipped and new
// ones are made.
func TestKeysSealedWithAnotherIdentity(t *testing.T) {
	e := newEnv(t)
	other, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	moved := newReplica(t, e.database, other, e.portal)
	if n := len(moved.jwks()); n != 2 {
		t.Fatalf("the panel with another identity publishes %d keys, want its own 2", n)
	}
	alice := moved.person("alice")
	moved.client("app")
	moved.tokens(moved.rp("app", false), moved.signIn(alice), "n")
}
