package oidc

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// A sign-in in progress (OAuth state, nonce, PKCE verifier, where to go
// back) travels in a cookie of the browser that started it, sealed with a
// key every replica derives from the shared age identity. Starting a
// sign-in writes nothing shared, so no number of starts, from one address
// or many, can fill anything that other people's sign-ins need. The
// callback opens the cookie only with the state the provider sends back,
// and records the state as used once the provider has confirmed the
// sign-in, so a cookie works once: only sign-ins the provider completed
// write a row.

// SignInKeyPurpose names the key SignIns seal with (sealbox.Box.DeriveKey).
const SignInKeyPurpose = "sso sign-in cookie v1"

// SignInTTL is how long a sign-in may take, from start to callback.
const SignInTTL = 10 * time.Minute

// Sign-in flows: each seals with its own additional data, so a cookie of
// one flow never opens in another, and records used states apart.
const (
	FlowService = "service" // a visitor signing in to a protected service
	FlowAdmin   = "admin"   // an administrator signing in to the panel
	FlowPortal  = "portal"  // a person signing in on the portal
)

// maxSignInCookie bounds a sealed value: browsers keep cookies up to 4096 bytes.
const maxSignInCookie = 3800

// SignIns seals sign-ins in progress with AES-256-GCM and records the
// completed ones. The additional data binds a value to its flow and state:
// a value is useless with any other state.
type SignIns struct {
	aead cipher.AEAD
	db   *gorm.DB
	now  func() time.Time
}

// NewSignIns returns the sign-ins sealed with key (32 bytes, derived with
// SignInKeyPurpose) and recorded in db.
func NewSignIns(key []byte, db *gorm.DB, now func() time.Time) (*SignIns, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("sign-in key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("sign-in key: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	return &SignIns{aead: aead, db: db, now: now}, nil
}

// sealed is the plain text of a sealed sign-in.
type sealed struct {
	Expires int64           `json:"exp"` // Unix seconds
	V       json.RawMessage `json:"v"`
}

func additional(flow, state string) []byte {
	return []byte("gatehouse sign-in\x00" + flow + "\x00" + state)
}

// Seal returns the cookie value carrying v (JSON) for the sign-in of flow
// with state, valid for SignInTTL.
func (s *SignIns) Seal(flow, state string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode sign-in: %w", err)
	}
	pt, err := json.Marshal(sealed{Expires: s.now().Add(SignInTTL).Unix(), V: b})
	if err != nil {
		return "", fmt.Errorf("encode sign-in: %w", err)
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("sign-in nonce: %w", err)
	}
	out := base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, pt, additional(flow, state)))
	if len(out) > maxSignInCookie {
		return "", fmt.Errorf("sign-in state of %d bytes does not fit a cookie", len(out))
	}
	return out, nil
}

// Open decodes into v the sign-in that value (a cookie Seal made) carries
// for flow and state. It reports false for anything else: a value made for
// another state or flow, altered, sealed by a panel with another identity,
// or expired.
func (s *SignIns) Open(flow, state, value string, v any) bool {
	if state == "" || len(value) > maxSignInCookie {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(value)
	n := s.aead.NonceSize()
	if err != nil || len(raw) < n {
		return false
	}
	pt, err := s.aead.Open(nil, raw[:n], raw[n:], additional(flow, state))
	if err != nil {
		return false
	}
	var env sealed
	if json.Unmarshal(pt, &env) != nil || !s.now().Before(time.Unix(env.Expires, 0)) {
		return false
	}
	return json.Unmarshal(env.V, v) == nil
}

// Use records that the sign-in of flow with state has been completed and
// reports whether it was the first time: false means the same cookie and
// state came back before (on this replica or another), and must be
// refused. The record lasts as long as any cookie of that state could.
func (s *SignIns) Use(ctx context.Context, flow, state string) (bool, error) {
	return store.MarkPending(ctx, s.db, store.PendingUsed+flow, state, s.now().Add(SignInTTL))
}
