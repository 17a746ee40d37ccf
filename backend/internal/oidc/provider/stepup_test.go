package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// prove changes the portal session of b's person: with or without a
// second factor, proved at when.
func (e *env) prove(p store.Person, secondFactor bool, when time.Time) *browser {
	e.t.Helper()
	b := e.signIn(p)
	e.portal.mu.Lock()
	defer e.portal.mu.Unlock()
	for k, s := range e.portal.m {
		if s.PersonID == p.ID {
			s.SecondFactor, s.ProvedAt = secondFactor, when
			e.portal.m[k] = s
		}
	}
	return b
}

func (e *env) enrol(p store.Person) {
	e.portal.mu.Lock()
	defer e.portal.mu.Unlock()
	if e.portal.factors == nil {
		e.portal.factors = map[string]bool{}
	}
	e.portal.factors[p.ID] = true
}

type idClaims struct {
	ACR string   `json:"acr"`
	AMR []string `json:"amr"`
}

func (e *env) claimsOf(r *rp, tok *oauth2.Token) idClaims {
	e.t.Helper()
	idt, err := r.verifier.Verify(e.ctx(), tok.Extra("id_token").(string))
	if err != nil {
		e.t.Fatalf("ID token: %v", err)
	}
	var c idClaims
	if err := idt.Claims(&c); err != nil {
		e.t.Fatal(err)
	}
	return c
}

// TestClientRequiresSecondFactor: an app that asks for a second factor
// sends a person signed in with a password alone to the portal's step-up
// (and back), and one without any second factor to a page that says to
// add one; prompt=none answers login_required; the ID token says mfa.
func TestClientRequiresSecondFactor(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.person("alice"), e.person("bob")
	e.enrol(alice)
	e.client("app", func(c *store.OIDCClient) { c.SecondFactor = true })
	r := e.rp("app", false)
	verifier, _ := pkce()
	authURL := r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier))

	b := e.prove(alice, false, time.Now().UTC())
	_, at := e.authorize(b, authURL)
	if at.Path != "/login" || at.Query().Get("stepup") != "1" || !strings.Contains(at.Query().Get("rd"), "/oidc/login?id=") {
		t.Fatalf("alice without her second factor ended at %s", at)
	}
	if _, at := e.authorize(b, authURL+"&prompt=none"); at.Query().Get("error") != "login_required" {
		t.Fatalf("prompt=none without the second factor: %s", at)
	}
	// She signs in again with it; the portal sends her back to rd.
	b = e.prove(alice, true, time.Now().UTC())
	if got := e.claimsOf(r, e.tokens(r, b, "n")); got.ACR != acrMFA || !slices.Equal(got.AMR, []string{"mfa"}) {
		t.Fatalf("after the step-up: %+v", got)
	}

	// bob has no second factor: the refusal page says to add one.
	bb := e.prove(bob, false, time.Now().UTC())
	_, at = e.authorize(bb, authURL)
	if at.Path != "/apps/refused" {
		t.Fatalf("bob without any second factor ended at %s", at)
	}
	code, body := e.api(bb, http.MethodGet, "/api/portal/oidc/requests/"+at.Query().Get("id"), "")
	var info RequestInfo
	if code != http.StatusOK || json.Unmarshal(body, &info) != nil || !info.SecondFactorMissing || info.Refused {
		t.Fatalf("bob's refusal info = %d %s", code, body)
	}
	// Once he has one, the same request goes through the step-up.
	e.enrol(bob)
	if _, at := e.authorize(bb, authURL); at.Query().Get("stepup") != "1" {
		t.Fatalf("bob with a second factor ended at %s", at)
	}
	code, body = e.api(bb, http.MethodGet, "/api/portal/oidc/requests/"+at.Query().Get("id"), "")
	if code != http.StatusOK || json.Unmarshal(body, &info) != nil || info.SecondFactorMissing {
		t.Fatalf("bob's request info once enrolled = %d %s", code, body)
	}
}

// TestACRValues: an app asks per request (acr_values); the provider steps
// up only when every class it accepts needs a second factor, and says in
// acr which class the sign-in met.
func TestACRValues(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.enrol(alice)
	e.client("app")
	r := e.rp("app", false)
	for _, tc := range []struct {
		name, acrValues string
		secondFactor    bool
		stepUp          bool
		acr             string
	}{
		{"none asked, password", "", false, false, acrPassword},
		{"none asked, second factor", "", true, false, acrMFA},
		{"mfa asked, password", "mfa", false, true, ""},
		{"PAPE asked, password", acrPAPEMFA, false, true, ""},
		{"PAPE asked, second factor", acrPAPEMFA, true, false, acrPAPEMFA},
		{"pwd or mfa, password", "mfa pwd", false, false, acrPassword},
		{"pwd or mfa, second factor", "mfa pwd", true, false, acrMFA},
		{"unknown class ignored", "urn:example:gold", false, false, acrPassword},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := e.prove(alice, tc.secondFactor, time.Now().UTC())
			verifier, _ := pkce()
			opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), gooidc.Nonce("n")}
			if tc.acrValues != "" {
				opts = append(opts, oauth2.SetAuthURLParam("acr_values", tc.acrValues))
			}
			code, at := e.authorize(b, r.cfg.AuthCodeURL("st", opts...))
			if tc.stepUp {
				if code != "" || at.Query().Get("stepup") != "1" {
					t.Fatalf("want the step-up, ended at %s", at)
				}
				return
			}
			if code == "" {
				t.Fatalf("no code: ended at %s", at)
			}
			tok, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier))
			if err != nil {
				t.Fatal(err)
			}
			if got := e.claimsOf(r, tok); got.ACR != tc.acr {
				t.Fatalf("acr = %q, want %q", got.ACR, tc.acr)
			}
		})
	}
	var doc struct {
		ACR []string `json:"acr_values_supported"`
	}
	resp, err := http.Get(e.issuer + DiscoveryPath)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil || !slices.Equal(doc.ACR, acrSupported) {
		t.Fatalf("acr_values_supported = %v (%v)", doc.ACR, err)
	}
}

// TestSignInAge: a client's maximum sign-in age and a request's max_age
// send an older portal sign-in to sign in again; a sign-in made after the
// request always passes, so max_age=0 (and prompt=login) never loop.
func TestSignInAge(t *testing.T) {
	e := newEnv(t)
	alice := e.person("alice")
	e.client("strict", func(c *store.OIDCClient) { c.MaxAgeSeconds = 600 })
	e.client("easy")
	strict, easy := e.rp("strict", false), e.rp("easy", false)
	old := time.Now().UTC().Add(-time.Hour)
	for _, tc := range []struct {
		name   string
		r      *rp
		extra  string
		reauth bool
	}{
		{"client max age, an hour old", strict, "", true},
		{"no limit", easy, "", false},
		{"max_age longer than the hour", easy, "&max_age=7200", false},
		{"max_age shorter than the hour", easy, "&max_age=60", true},
		{"max_age=0", easy, "&max_age=0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := e.prove(alice, false, old)
			verifier, _ := pkce()
			authURL := tc.r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)) + tc.extra
			code, at := e.authorize(b, authURL)
			if !tc.reauth {
				if code == "" {
					t.Fatalf("no code: ended at %s", at)
				}
				return
			}
			if code != "" || at.Query().Get("reauth") != "1" {
				t.Fatalf("want a fresh sign-in, ended at %s", at)
			}
			// The portal signs her in again and sends her back to rd.
			back := at.Query().Get("rd")
			e.prove(alice, false, time.Now().UTC())
			if code, at := e.authorize(b, back); code == "" {
				t.Fatalf("after signing in again: ended at %s", at)
			}
		})
	}
}

// TestConsentOnlyByThePersonAsked: another signed-in person who learns a
// request's id cannot answer its consent page.
func TestConsentOnlyByThePersonAsked(t *testing.T) {
	e := newEnv(t)
	alice, eve := e.person("alice"), e.person("eve")
	e.client("app", func(c *store.OIDCClient) { c.ImpliedConsent = false })
	r := e.rp("app", false)
	verifier, _ := pkce()
	_, at := e.authorize(e.signIn(alice), r.cfg.AuthCodeURL("st", oauth2.S256ChallengeOption(verifier)))
	if at.Path != "/apps/consent" {
		t.Fatalf("alice ended at %s", at)
	}
	for _, approve := range []string{"true", "false"} {
		code, _ := e.api(e.signIn(eve), http.MethodPost, "/api/portal/oidc/requests/"+at.Query().Get("id")+"/consent", `{"approve":`+approve+`}`)
		if code != http.StatusNotFound {
			t.Fatalf("eve answers alice's consent (approve %s) = %d", approve, code)
		}
	}
}

// TestDeviceStepUp: a device app that asks for a second factor cannot be
// allowed from a portal session without one: the page says where to sign
// in again (or to add a factor), and the approval is refused until then.
func TestDeviceStepUp(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.person("alice"), e.person("bob")
	e.enrol(alice)
	e.client("tv", func(c *store.OIDCClient) {
		c.Public, c.SecondFactor = true, true
		c.GrantTypes = store.NewJSON([]string{"urn:ietf:params:oauth:grant-type:device_code"})
	})
	r := e.rp("tv", true, "openid")
	ctx, cancel := context.WithTimeout(e.ctx(), 20*time.Second)
	defer cancel()
	da, err := r.cfg.DeviceAuth(ctx)
	if err != nil {
		t.Fatal(err)
	}
	look := func(b *browser) DeviceInfo {
		t.Helper()
		code, body := e.api(b, http.MethodGet, "/api/portal/oidc/device?userCode="+da.UserCode, "")
		var info DeviceInfo
		if code != http.StatusOK || json.Unmarshal(body, &info) != nil {
			t.Fatalf("look up = %d %s", code, body)
		}
		return info
	}
	approve := func(b *browser) (int, string) {
		code, body := e.api(b, http.MethodPost, "/api/portal/oidc/device", `{"userCode":"`+da.UserCode+`","approve":true}`)
		return code, string(body)
	}
	bb := e.prove(bob, false, time.Now().UTC())
	if info := look(bb); !info.SecondFactorMissing || info.SignInAgain != "" {
		t.Fatalf("bob (no second factor) sees %+v", info)
	}
	if code, body := approve(bb); code != http.StatusForbidden || !strings.Contains(body, "none yet") {
		t.Fatalf("bob approves = %d %s", code, body)
	}
	ab := e.prove(alice, false, time.Now().UTC())
	info := look(ab)
	again, err := url.Parse(info.SignInAgain)
	if err != nil || info.SecondFactorMissing || again.Path != "/login" || again.Query().Get("stepup") != "1" ||
		!strings.HasPrefix(again.Query().Get("rd"), e.issuer+"/apps/device?user_code=") {
		t.Fatalf("alice without her second factor sees %+v", info)
	}
	if code, body := approve(ab); code != http.StatusForbidden || !strings.Contains(body, "second factor") {
		t.Fatalf("alice approves without it = %d %s", code, body)
	}
	ab = e.prove(alice, true, time.Now().UTC())
	if info := look(ab); info.SignInAgain != "" || info.SecondFactorMissing {
		t.Fatalf("alice with her second factor sees %+v", info)
	}
	if code, body := approve(ab); code != http.StatusOK {
		t.Fatalf("alice approves = %d %s", code, body)
	}
	tok, err := r.cfg.DeviceAccessToken(ctx, da)
	if err != nil {
		t.Fatalf("device token: %v", err)
	}
	if got := e.claimsOf(r, tok); !slices.Equal(got.AMR, []string{"mfa"}) {
		t.Fatalf("device ID token amr = %v", got.AMR)
	}
}

// TestDevicePollingTooFastIsSlowedDown: a device polling sooner than its
// interval is told slow_down, and its interval grows by 5 seconds (RFC
// 8628 section 3.5), on every replica.
func TestDevicePollingTooFastIsSlowedDown(t *testing.T) {
	e := newEnv(t)
	e.client("tv", func(c *store.OIDCClient) {
		c.Public = true
		c.GrantTypes = store.NewJSON([]string{"urn:ietf:params:oauth:grant-type:device_code"})
	})
	r := e.rp("tv", true, "openid")
	da, err := r.cfg.DeviceAuth(e.ctx())
	if err != nil {
		t.Fatal(err)
	}
	other := newReplica(t, e.database, e.box, e.portal)
	poll := func(issuer string) string {
		t.Helper()
		form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:device_code"}, "device_code": {da.DeviceCode}, "client_id": {"tv"}}
		resp, err := http.PostForm(issuer+"/oidc/token", form)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out struct {
			Error string `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out.Error
	}
	if got := poll(e.issuer); got != "authorization_pending" {
		t.Fatalf("first poll = %q", got)
	}
	if got := poll(other.issuer); got != "slow_down" {
		t.Fatalf("second poll at once, on another replica = %q", got)
	}
	var row deviceRow
	if err := e.db.Where("client_id = ?", "tv").Take(&row).Error; err != nil || row.PollInterval != 1+5 {
		t.Fatalf("interval after slow_down = %d (%v)", row.PollInterval, err)
	}
	// 1.2 s later is still too soon for the grown interval.
	time.Sleep(1200 * time.Millisecond)
	if got := poll(e.issuer); got != "slow_down" {
		t.Fatalf("poll before the grown interval = %q", got)
	}
}

// TestClientStartsAskingForSecondFactor: once an app asks for a second
// factor, tokens from a sign-in without one stop working at their next
// use (userinfo, introspection, refresh); those from a sign-in with one
// go on.
func TestClientStartsAskingForSecondFactor(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.person("alice"), e.person("bob")
	e.client("app")
	r := e.rp("app", false)
	weak := e.tokens(r, e.prove(alice, false, time.Now().UTC()), "n")
	strong := e.tokens(r, e.prove(bob, true, time.Now().UTC()), "n")
	if weak.RefreshToken == "" || strong.RefreshToken == "" {
		t.Fatal("no refresh tokens to try")
	}
	if err := e.db.Model(&store.OIDCClient{}).Where("id = ?", "app").Update("second_factor", true).Error; err != nil {
		t.Fatal(err)
	}
	e.svc.clients.drop()
	if c := e.userinfo(weak.AccessToken); c != http.StatusUnauthorized && c != http.StatusForbidden {
		t.Fatalf("userinfo with a password-only token = %d", c)
	}
	if e.introspect("app", weak.AccessToken) {
		t.Fatal("a password-only token is still active")
	}
	if _, err := r.cfg.TokenSource(e.ctx(), &oauth2.Token{RefreshToken: weak.RefreshToken}).Token(); err == nil {
		t.Fatal("a password-only refresh token still refreshes")
	}
	if c := e.userinfo(strong.AccessToken); c != http.StatusOK {
		t.Fatalf("userinfo with a second-factor token = %d", c)
	}
	if _, err := r.cfg.TokenSource(e.ctx(), &oauth2.Token{RefreshToken: strong.RefreshToken}).Token(); err != nil {
		t.Fatalf("refresh of a second-factor token: %v", err)
	}
}
