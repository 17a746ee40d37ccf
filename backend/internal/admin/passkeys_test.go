package admin_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// authenticator is a software passkey for the panel (package testutil).
type authenticator = testutil.Authenticator

func newAuthenticator(t *testing.T) *authenticator {
	t.Helper()
	return testutil.NewAuthenticator(t, publicURL)
}

func (a *tfApp) registerPasskey(k *authenticator, name string) admin.Passkey {
	a.t.Helper()
	opts := a.expect("POST", "/api/admin/me/passkeys/register/begin", "", http.StatusOK)
	body, _ := json.Marshal(map[string]any{"name": name, "credential": k.Create(opts.Body.Bytes())})
	var p admin.Passkey
	decode(a.t, a.expect("POST", "/api/admin/me/passkeys/register/finish", string(body), http.StatusCreated), &p)
	return p
}

func (a *tfApp) passkeyLogin(k *authenticator, status int) {
	a.t.Helper()
	opts := a.expect("POST", "/api/admin/login/passkey/begin", "", http.StatusOK)
	body, _ := json.Marshal(map[string]any{"credential": k.Get(opts.Body.Bytes())})
	a.expect("POST", "/api/admin/login/passkey/finish", string(body), status)
}

func TestPasskeys(t *testing.T) {
	a := newTFApp(t)
	k := newAuthenticator(t)
	p := a.registerPasskey(k, "Laptop")
	if p.Name != "Laptop" || p.LastUsedAt != nil {
		t.Fatalf("passkey = %+v", p)
	}
	// The same credential again is excluded.
	opts := a.expect("POST", "/api/admin/me/passkeys/register/begin", "", http.StatusOK)
	body, _ := json.Marshal(map[string]any{"credential": k.Create(opts.Body.Bytes())})
	a.expect("POST", "/api/admin/me/passkeys/register/finish", string(body), http.StatusConflict)

	a.expect("PATCH", "/api/admin/me/passkeys/"+p.ID, `{"name":"Work laptop"}`, http.StatusOK)
	var list struct{ Items []admin.Passkey }
	decode(t, a.expect("GET", "/api/admin/me/passkeys", "", http.StatusOK), &list)
	if len(list.Items) != 1 || list.Items[0].Name != "Work laptop" {
		t.Fatalf("passkeys = %+v", list)
	}

	t.Run("second factor", func(t *testing.T) {
		a.t = t
		a.signOut()
		if m := a.password(); len(m) != 1 || m[0] != "passkey" {
			t.Fatalf("methods = %v", m)
		}
		a.passkeyLogin(k, http.StatusOK)
		if !a.signedIn() {
			t.Fatal("no session")
		}
	})
	t.Run("passwordless", func(t *testing.T) {
		a.t = t
		a.signOut()
		a.passkeyLogin(k, http.StatusOK)
		a.expect("GET", "/api/admin/me", "", http.StatusOK)
	})
	t.Run("passwordless needs user verification", func(t *testing.T) {
		a.t = t
		a.signOut()
		k.NoUserVerification = true
		defer func() { k.NoUserVerification = false }()
		a.passkeyLogin(k, http.StatusUnauthorized)
		if a.signedIn() {
			t.Fatal("a passkey without user verification signed in")
		}
	})
	t.Run("another key is refused", func(t *testing.T) {
		a.t = t
		a.jar = map[string]string{}
		other := newAuthenticator(t)
		other.ClaimUserOf(k)
		a.passkeyLogin(other, http.StatusUnauthorized)
		a.password()
		a.passkeyLogin(other, http.StatusUnauthorized)
	})
	t.Run("delete", func(t *testing.T) {
		a.t = t
		a.jar = map[string]string{}
		a.password()
		a.passkeyLogin(k, http.StatusOK)
		a.expect("DELETE", "/api/admin/me/passkeys/"+p.ID, "", http.StatusNoContent)
		a.expect("DELETE", "/api/admin/me/passkeys/"+p.ID, "", http.StatusNotFound)
		a.signOut()
		if m := a.password(); m != nil {
			t.Fatalf("methods after deleting the passkey = %v", m)
		}
	})
}

func TestPasskeysNeedPublicURL(t *testing.T) {
	a := newTFApp(t, func(d *admin.Deps) { d.PublicURL = "" })
	var st admin.TwoFactorStatus
	decode(t, a.expect("GET", "/api/admin/me/2fa", "", http.StatusOK), &st)
	if st.PasskeysAvailable || st.PasskeysProblem == "" {
		t.Fatalf("status = %+v", st)
	}
	rec := a.expect("POST", "/api/admin/me/passkeys/register/begin", "", http.StatusConflict)
	a.signOut()
	a.expect("POST", "/api/admin/login/passkey/begin", "", http.StatusConflict)
	_ = rec
}

// Passkeys have no GET of their own: the audit log records the one passkey
// each write changed, as the handlers report it, never the account's list.
func TestPasskeyChangesAreAudited(t *testing.T) {
	db := testutil.NewDB(t)
	log := audit.NewService(audit.Deps{DB: db, Now: time.Now, Logger: slog.New(slog.DiscardHandler), SessionCookie: admin.CookieName})
	a := newTFAppOn(t, db, log.Middleware)
	laptop := a.registerPasskey(newAuthenticator(t), "Laptop")
	phone := a.registerPasskey(newAuthenticator(t), "Phone")
	a.expect("PATCH", "/api/admin/me/passkeys/"+laptop.ID, `{"name":"Work laptop"}`, http.StatusOK)
	a.expect("DELETE", "/api/admin/me/passkeys/"+phone.ID, "", http.StatusNoContent)

	p, err := log.List(t.Context(), audit.Filter{Limit: audit.MaxLimit, ResourceType: "admin.me.passkeys"})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		action, id, name string
		changes          []audit.Change
	}
	at := laptop.CreatedAt.Format(time.RFC3339Nano)
	pt := phone.CreatedAt.Format(time.RFC3339Nano)
	wants := []want{ // newest first
		{audit.ActionDelete, phone.ID, "Phone", []audit.Change{{Path: "createdAt", Before: pt}, {Path: "id", Before: phone.ID}, {Path: "name", Before: "Phone"}}},
		{audit.ActionUpdate, laptop.ID, "Work laptop", []audit.Change{{Path: "name", Before: "Laptop", After: "Work laptop"}}},
		{audit.ActionCreate, phone.ID, "Phone", []audit.Change{{Path: "createdAt", After: pt}, {Path: "id", After: phone.ID}, {Path: "name", After: "Phone"}}},
		{audit.ActionCreate, laptop.ID, "Laptop", []audit.Change{{Path: "createdAt", After: at}, {Path: "id", After: laptop.ID}, {Path: "name", After: "Laptop"}}},
	}
	if len(p.Items) != len(wants) {
		t.Fatalf("entries = %+v", p.Items)
	}
	for i, w := range wants {
		e := p.Items[i]
		got, _ := json.Marshal(e.Changes)
		exp, _ := json.Marshal(w.changes)
		if e.Action != w.action || e.Resource.ID != w.id || e.Resource.Name != w.name || string(got) != string(exp) {
			t.Errorf("entry %d = %s %s %q %s; want %s %s %q %s", i, e.Action, e.Resource.ID, e.Resource.Name, got, w.action, w.id, w.name, exp)
		}
	}
}
