package testutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
)

// Authenticator is a software passkey for tests: one ES256 key, "none"
// attestation, user present and verified, for the relying party at Origin.
type Authenticator struct {
	t          testing.TB
	origin     string
	rpID       string
	key        *ecdsa.PrivateKey
	id         []byte
	userHandle []byte
	count      uint32
	// NoUserVerification answers as a key that checks presence only (no
	// PIN or biometric).
	NoUserVerification bool
}

func (k *Authenticator) flags() byte {
	if k.NoUserVerification {
		return 0x01 // user present
	}
	return 0x05 // user present and verified
}

// NewAuthenticator returns a passkey for the site at origin
// (https://host[:port]).
func NewAuthenticator(t testing.TB, origin string) *Authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(origin)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	return &Authenticator{t: t, origin: origin, rpID: u.Hostname(), key: key, id: id}
}

var rawURL = base64.RawURLEncoding

type ceremonyOptions struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		User      struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"publicKey"`
}

func (k *Authenticator) authData(flags byte, attested []byte) []byte {
	rp := sha256.Sum256([]byte(k.rpID))
	k.count++
	out := append(rp[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	return append(out, attested...)
}

func (k *Authenticator) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]string{"type": typ, "challenge": challenge, "origin": k.origin})
	return b
}

// Create answers navigator.credentials.create for the options JSON.
func (k *Authenticator) Create(optionsJSON []byte) json.RawMessage {
	k.t.Helper()
	var o ceremonyOptions
	if err := json.Unmarshal(optionsJSON, &o); err != nil {
		k.t.Fatal(err)
	}
	k.userHandle, _ = rawURL.DecodeString(o.PublicKey.User.ID)
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
		"id": rawURL.EncodeToString(k.id), "rawId": rawURL.EncodeToString(k.id), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON":    rawURL.EncodeToString(k.clientData("webauthn.create", o.PublicKey.Challenge)),
			"attestationObject": rawURL.EncodeToString(att),
		},
	})
	return b
}

// Get answers navigator.credentials.get for the options JSON.
func (k *Authenticator) Get(optionsJSON []byte) json.RawMessage {
	k.t.Helper()
	var o ceremonyOptions
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
		"id": rawURL.EncodeToString(k.id), "rawId": rawURL.EncodeToString(k.id), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON": rawURL.EncodeToString(cd), "authenticatorData": rawURL.EncodeToString(ad),
			"signature": rawURL.EncodeToString(sig), "userHandle": rawURL.EncodeToString(k.userHandle),
		},
	})
	return b
}

// ClaimUserOf makes this key answer with other's user handle: a key the
// relying party never registered, claiming someone else's account.
func (k *Authenticator) ClaimUserOf(other *Authenticator) { k.userHandle = other.userHandle }
