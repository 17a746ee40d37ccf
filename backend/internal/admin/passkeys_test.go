package admin_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// authenticator is a software passkey: one ES256 key, "none" attestation,
// user verification on unless told otherwise.
type authenticator struct {
	t          *testing.T
	key        *ecdsa.PrivateKey
	id         []byte
	userHandle []byte
	count      uint32
	noUV       bool
	// rp and origin are the relying party's id and origin; empty means
	// the panel's (panel.example.test, publicURL).
	rp, origin string
}

func newAuthenticator(t *testing.T) *authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return &authenticator{t: t, key: key, id: id}
}

var b64 = base64.RawURLEncoding

// options is the part of the server's ceremony options the authenticator reads.
type options struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		User      struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func (k *authenticator) authData(flags byte, attested []byte) []byte {
	id := k.rp
	if id == "" {
		id = "panel.example.test"
	}
	rp := sha256.Sum256([]byte(id))
	k.count++
	out := append(rp[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	return append(out, attested...)
}

func (k *authenticator) flags() byte {
	if k.noUV {
		return 0x01 // user present
	}
	return 0x05 // user present and verified
}

func (k *authenticator) clientData(typ, challenge string) []byte {
	origin := k.origin
	if origin == "" {
		origin = publicURL
	}
	b, _ := json.Marshal(map[string]string{"type": typ, "challenge": challenge, "origin": origin})
	return b
}

// create answers navigator.credentials.create.
func (k *authenticator) create(optionsJSON []byte) json.RawMessage {
	k.t.Helper()
	var o options
	if err := json.Unmarshal(optionsJSON, &o); err != nil {
		k.t.Fatal(err)
	}
	k.userHandle, _ = b64.DecodeString(o.PublicKey.User.ID)
	cose, err := webauthncbor.Marshal(map[int]any{
		1: 2, 3: -7, -1: 1, -2: k.key.X.FillBytes(make([]byte, 32)), -3: k.key.Y.FillBytes(make([]byte, 32)),
	})
	if err != nil {
		k.t.Fatal(err)
	}
	attested := make([]byte, 16)                                          // AAGUID
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(k.id))) //nolint:gosec // the id is 16 bytes
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{
		"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(k.flags()|0x40, attested),
	})
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON":    b64.EncodeToString(k.clientData("webauthn.create", o.PublicKey.Challenge)),
			"attestationObject": b64.EncodeToString(att),
		},
	})
	return b
}

// get answers navigator.credentials.get.
func (k *authenticator) get(optionsJSON []byte) json.RawMessage {
	k.t.Helper()
	var o options
	if err := json.Unmarshal(optionsJSON, &o); err != nil {
		k.t.Fatal(err)
	}
	cd := k.clientData("webauthn.get", o.PublicKey.Challenge)
	ad := k.authData(k.flags(), nil)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(ad),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(k.userHandle),
		},
	})
	return b
}

func (a *tfApp) registerPasskey(k *authenticator, name string) admin.Passkey {
	a.t.Helper()
	opts := a.expect("POST", "/api/admin/me/passkeys/register/begin", "", http.StatusOK)
	body, _ := json.Marshal(map[string]any{"name": name, "credential": k.create(opts.Body.Bytes())})
	var p admin.Passkey
	decode(a.t, a.expect("POST", "/api/admin/me/passkeys/register/finish", string(body), http.StatusCreated), &p)
	return p
}

func (a *tfApp) passkeyLogin(k *authenticator, status int) {
	a.t.Helper()
	opts := a.expect("POST", "/api/admin/login/passkey/begin", "", http.StatusOK)
	body, _ := json.Marshal(map[string]any{"credential": k.get(opts.Body.Bytes())})
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
	body, _ := json.Marshal(map[string]any{"credential": k.create(opts.Body.Bytes())})
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
		k.noUV = true
		defer func() { k.noUV = false }()
		a.passkeyLogin(k, http.StatusUnauthorized)
		if a.signedIn() {
			t.Fatal("a passkey without user verification signed in")
		}
	})
	t.Run("another key is refused", func(t *testing.T) {
		a.t = t
		a.jar = map[string]string{}
		other := newAuthenticator(t)
		other.userHandle = k.userHandle
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
