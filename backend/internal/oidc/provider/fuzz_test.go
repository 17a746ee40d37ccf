package provider

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// FuzzTokenCrypto: any bearer value decodes or is refused, never panics,
// and what the provider encodes decodes back.
func FuzzTokenCrypto(f *testing.F) {
	f.Add("aWQ6c3ViamVjdA")
	f.Add("")
	f.Add(strings.Repeat("A", 600))
	f.Fuzz(func(t *testing.T, s string) {
		out, err := tokenCrypto{}.Decrypt(s)
		if err == nil && len(out) > 512 {
			t.Fatalf("decoded %d bytes", len(out))
		}
		enc, _ := tokenCrypto{}.Encrypt(s)
		if len(s) <= 300 {
			if back, err := (tokenCrypto{}).Decrypt(enc); err != nil || back != s {
				t.Fatalf("round trip of %q: %q %v", s, back, err)
			}
		}
	})
}

// FuzzNormalizeUserCode: bounded, no dashes or spaces, no lower case.
func FuzzNormalizeUserCode(f *testing.F) {
	f.Add("bcdf-ghjk")
	f.Add(" WXYZ-1234 ")
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeUserCode(s)
		if len(n) > 64 || strings.ContainsAny(n, "- ") || strings.ToUpper(n) != n && utf8.ValidString(n) && strings.ContainsAny(n, "abcdefghijklmnopqrstuvwxyz") {
			t.Fatalf("NormalizeUserCode(%q) = %q", s, n)
		}
	})
}

// FuzzAuthorize: whatever the parameters, the authorization endpoint never
// answers 5xx and never sends the browser to a redirect URI that is not
// registered byte for byte.
func FuzzAuthorize(f *testing.F) {
	fe := newEnv(f)
	fe.client("app")
	fe.client("public", func(c *store.OIDCClient) { c.Public = true; c.Name = "Public" })
	f.Add("app", appRedirect, "code", "openid", "S256", strings.Repeat("a", 43), "st", "")
	f.Add("app", appRedirect+"/", "code", "openid profile", "plain", "x", "", "none")
	f.Add("", "", "", "", "", "", "", "")
	f.Add("public", "https://APP.example.com/oauth/callback", "token", "openid", "S256", "", "s", "login")
	f.Fuzz(func(t *testing.T, client, redirect, responseType, scope, method, challenge, state, prompt string) {
		q := url.Values{"client_id": {client}, "redirect_uri": {redirect}, "response_type": {responseType}, "scope": {scope},
			"code_challenge_method": {method}, "code_challenge": {challenge}, "state": {state}, "prompt": {prompt}}
		req := httptest.NewRequest(http.MethodGet, fe.issuer+"/oidc/authorize?"+q.Encode(), nil)
		rec := httptest.NewRecorder()
		fe.svc.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("authorize answered %d: %s", rec.Code, rec.Body)
		}
		if loc := rec.Header().Get("Location"); loc != "" && !strings.HasPrefix(loc, "/") {
			if !strings.HasPrefix(loc, appRedirect+"?") || redirect != appRedirect {
				t.Fatalf("sent to %s for redirect_uri %q", loc, redirect)
			}
		}
	})
}

// FuzzTokenEndpoint: any form at the token endpoint is a 4xx, never a 5xx.
func FuzzTokenEndpoint(f *testing.F) {
	fe := newEnv(f)
	fe.client("app")
	fe.client("public", func(c *store.OIDCClient) { c.Public = true; c.Name = "Public" })
	f.Add("authorization_code", "code", "app", appSecret, "verifier", appRedirect, "")
	f.Add("refresh_token", "", "public", "", "", "", "rt")
	f.Add("urn:ietf:params:oauth:grant-type:device_code", "", "tv", "", "", "", "")
	f.Add("", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, grant, code, client, secret, verifier, redirect, refresh string) {
		form := url.Values{"grant_type": {grant}, "code": {code}, "client_id": {client}, "client_secret": {secret},
			"code_verifier": {verifier}, "redirect_uri": {redirect}, "refresh_token": {refresh}, "device_code": {code}}
		req := httptest.NewRequest(http.MethodPost, fe.issuer+"/oidc/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		fe.svc.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("token answered %d: %s", rec.Code, rec.Body)
		}
	})
}
