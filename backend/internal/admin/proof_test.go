package admin_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
)

// staleRoutes are the changes of one's second factors that need a proof of
// who one is from the last few minutes: a stolen session alone must not
// turn into a permanent account.
var staleRoutes = []struct{ method, path string }{
	{"POST", "/api/admin/me/2fa/totp"},
	{"POST", "/api/admin/me/2fa/totp/confirm"},
	{"POST", "/api/admin/me/2fa/recovery-codes"},
	{"POST", "/api/admin/me/passkeys/register/begin"},
	{"DELETE", "/api/admin/me/passkeys/any"},
}

func (a *tfApp) wantReauth(method, path string) {
	a.t.Helper()
	rec := a.expect(method, path, `{"code":"123456"}`, http.StatusForbidden)
	if code := errorCode(a.t, rec); code != string(admin.CodeReauthenticationRequired) {
		a.t.Fatalf("%s %s = %s; want reauthentication_required", method, path, rec.Body)
	}
}

func TestSecondFactorChangesNeedAFreshProof(t *testing.T) {
	t.Run("signing in is a proof, for a few minutes", func(t *testing.T) {
		a := newTFApp(t)
		secret, _ := a.enrolTOTP() // right after sign-in
		a.expect("POST", "/api/admin/me/2fa/recovery-codes", "", http.StatusOK)
		a.clock.Add(admin.ProofTTL)
		for _, r := range staleRoutes {
			a.wantReauth(r.method, r.path)
		}
		// Renaming and reading need no proof.
		a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK)
		a.expect("PATCH", "/api/admin/me/passkeys/any", `{"name":"x"}`, http.StatusNotFound)

		a.expect("POST", "/api/admin/me/reauthenticate", `{}`, http.StatusUnprocessableEntity)
		a.expect("POST", "/api/admin/me/reauthenticate", `{"password":"not-my-password"}`, http.StatusUnprocessableEntity)
		a.expect("POST", "/api/admin/me/reauthenticate", `{"code":"000000"}`, http.StatusUnprocessableEntity)
		a.wantReauth("POST", "/api/admin/me/2fa/recovery-codes")
		a.expect("POST", "/api/admin/me/reauthenticate", `{"password":"`+password+`"}`, http.StatusNoContent)
		a.expect("POST", "/api/admin/me/2fa/recovery-codes", "", http.StatusOK)

		a.clock.Add(admin.ProofTTL)
		a.wantReauth("POST", "/api/admin/me/2fa/recovery-codes")
		code := a.code(secret)
		a.expect("POST", "/api/admin/me/reauthenticate", `{"code":"`+code+`"}`, http.StatusNoContent)
		a.expect("POST", "/api/admin/me/2fa/recovery-codes", "", http.StatusOK)
		// A code is good once.
		a.expect("POST", "/api/admin/me/reauthenticate", `{"code":"`+code+`"}`, http.StatusUnprocessableEntity)
	})
	t.Run("a proof belongs to its session", func(t *testing.T) {
		a := newTFApp(t)
		a.clock.Add(admin.ProofTTL)
		a.expect("POST", "/api/admin/me/reauthenticate", `{"password":"`+password+`"}`, http.StatusNoContent)
		other := *a
		other.jar = map[string]string{}
		other.password() // a new sign-in: its own session, proved now
		a.clock.Add(admin.ProofTTL)
		a.wantReauth("POST", "/api/admin/me/passkeys/register/begin")
	})
	t.Run("wrong answers count as failed sign-ins", func(t *testing.T) {
		a := newTFApp(t)
		a.clock.Add(admin.ProofTTL)
		for range admin.MaxFailures {
			a.expect("POST", "/api/admin/me/reauthenticate", `{"password":"not-my-password"}`, http.StatusUnprocessableEntity)
		}
		rec := a.expect("POST", "/api/admin/me/reauthenticate", `{"password":"`+password+`"}`, http.StatusTooManyRequests)
		if rec.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		a.jar = map[string]string{}
		a.expect("POST", "/api/admin/login", `{"username":"admin","password":"`+password+`"}`, http.StatusTooManyRequests)
	})
	t.Run("a passkey is a proof", func(t *testing.T) {
		a := newTFApp(t)
		k := newAuthenticator(t)
		p := a.registerPasskey(k, "Laptop")
		a.clock.Add(admin.ProofTTL)
		a.wantReauth("DELETE", "/api/admin/me/passkeys/"+p.ID)

		other := newAuthenticator(t)
		other.ClaimUserOf(k)
		opts := a.expect("POST", "/api/admin/me/reauthenticate/passkey/begin", "", http.StatusOK)
		body, _ := json.Marshal(map[string]any{"credential": other.Get(opts.Body.Bytes())})
		a.expect("POST", "/api/admin/me/reauthenticate/passkey/finish", string(body), http.StatusUnprocessableEntity)
		a.wantReauth("DELETE", "/api/admin/me/passkeys/"+p.ID)

		opts = a.expect("POST", "/api/admin/me/reauthenticate/passkey/begin", "", http.StatusOK)
		body, _ = json.Marshal(map[string]any{"credential": k.Get(opts.Body.Bytes())})
		a.expect("POST", "/api/admin/me/reauthenticate/passkey/finish", string(body), http.StatusNoContent)
		a.expect("DELETE", "/api/admin/me/passkeys/"+p.ID, "", http.StatusNoContent)
	})
	t.Run("no passkey to prove with", func(t *testing.T) {
		a := newTFApp(t)
		a.expect("POST", "/api/admin/me/reauthenticate/passkey/begin", "", http.StatusConflict)
	})
	t.Run("the first factor while the panel requires one", func(t *testing.T) {
		a := newTFApp(t)
		a.expect("PUT", "/api/admin/security", `{"requireTwoFactor":true}`, http.StatusOK)
		a.signOut()
		a.password()
		a.enrolTOTP() // the sign-in is the proof
		a.signOut()

		b := newTFApp(t)
		b.expect("PUT", "/api/admin/security", `{"requireTwoFactor":true}`, http.StatusOK)
		b.clock.Add(admin.ProofTTL)
		b.wantReauth("POST", "/api/admin/me/2fa/totp")
		b.expect("POST", "/api/admin/me/reauthenticate", `{"password":"`+password+`"}`, http.StatusNoContent)
		b.enrolTOTP()
	})
}
