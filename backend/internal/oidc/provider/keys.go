package provider

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/op"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Algorithms the provider signs with: RS256 for every client unless one
// asks for ES256.
const (
	algRS256 = string(jose.RS256)
	algES256 = string(jose.ES256)
)

var algorithms = []string{algRS256, algES256}

// Sealer seals secrets at rest (package sealbox).
type Sealer interface {
	Seal(s string) (string, error)
	Open(s string) (string, error)
}

// liveKey is a signing key opened in memory.
type liveKey struct {
	id         string
	alg        jose.SignatureAlgorithm
	priv       crypto.Signer
	activeFrom time.Time
	expiresAt  *time.Time
}

func (k *liveKey) SignatureAlgorithm() jose.SignatureAlgorithm { return k.alg }
func (k *liveKey) Key() any                                    { return k.priv }
func (k *liveKey) ID() string                                  { return k.id }

// publicKey is a key of the JWKS (op.Key).
type publicKey struct{ k *liveKey }

func (p publicKey) ID() string                         { return p.k.id }
func (p publicKey) Algorithm() jose.SignatureAlgorithm { return p.k.alg }
func (p publicKey) Use() string                        { return "sig" }
func (p publicKey) Key() any                           { return p.k.priv.Public() }

// keyring holds every published key in memory, loaded from the database
// by each replica (reload), so signing, discovery and the JWKS read no
// database on a request.
type keyring struct {
	log    *slog.Logger
	db     *gorm.DB
	sealer Sealer
	now    func() time.Time
	// rotateEvery is how long a key signs before a newer one takes over;
	// publishAhead how long a new key is published before it signs;
	// overlap how long a replaced key stays published.
	rotateEvery, publishAhead, overlap time.Duration

	mu   sync.RWMutex
	keys []*liveKey // newest first
	jwks []byte
	etag string
	sig  string // ids of the loaded keys, to notice a change
}

// reload reads the published keys; it opens only keys it has not opened.
func (kr *keyring) reload(ctx context.Context) error {
	var rows []signingKey
	now := kr.now()
	if err := kr.db.WithContext(ctx).Where("expires_at IS NULL OR expires_at > ?", now).
		Order("active_from DESC, id DESC").Find(&rows).Error; err != nil {
		return fmt.Errorf("read signing keys: %w", err)
	}
	kr.mu.RLock()
	have := map[string]*liveKey{}
	for _, k := range kr.keys {
		have[k.id] = k
	}
	kr.mu.RUnlock()
	keys := make([]*liveKey, 0, len(rows))
	sig := ""
	for _, r := range rows {
		if k, ok := have[r.ID]; ok {
			k.expiresAt = r.ExpiresAt
			keys = append(keys, k)
		} else {
			k, err := kr.open(r)
			if err != nil {
				// Sealed with another age identity (a restore elsewhere):
				// unusable here; ensure makes a new key if none is left.
				kr.log.Warn("skip a signing key this panel cannot open", "key", r.ID, "error", err)
				continue
			}
			keys = append(keys, k)
		}
		sig += r.ID + ","
	}
	jwks, err := marshalJWKS(keys)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(jwks)
	kr.mu.Lock()
	kr.keys, kr.jwks, kr.etag, kr.sig = keys, jwks, `"`+hex.EncodeToString(sum[:8])+`"`, sig
	kr.mu.Unlock()
	return nil
}

func (kr *keyring) open(r signingKey) (*liveKey, error) {
	plain, err := kr.sealer.Open(r.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("open signing key %s: %w", r.ID, err)
	}
	der, err := base64.StdEncoding.DecodeString(plain)
	if err != nil {
		return nil, fmt.Errorf("decode signing key %s: %w", r.ID, err)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("parse signing key %s: %w", r.ID, err)
	}
	signer, ok := parsed.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("signing key %s: not a signer", r.ID)
	}
	return &liveKey{id: r.ID, alg: jose.SignatureAlgorithm(r.Alg), priv: signer, activeFrom: r.ActiveFrom, expiresAt: r.ExpiresAt}, nil
}

func marshalJWKS(keys []*liveKey) ([]byte, error) {
	set := jose.JSONWebKeySet{Keys: make([]jose.JSONWebKey, 0, len(keys))}
	for _, k := range keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: k.priv.Public(), KeyID: k.id, Algorithm: string(k.alg), Use: "sig"})
	}
	return json.Marshal(set)
}

// create generates, seals and stores a key of alg that signs from
// activeFrom.
func (kr *keyring) create(ctx context.Context, alg string, activeFrom time.Time) error {
	var priv crypto.Signer
	var err error
	switch alg {
	case algES256:
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		return fmt.Errorf("generate %s key: %w", alg, err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return fmt.Errorf("encode %s key: %w", alg, err)
	}
	sealed, err := kr.sealer.Seal(base64.StdEncoding.EncodeToString(der))
	if err != nil {
		return fmt.Errorf("seal %s key: %w", alg, err)
	}
	row := signingKey{ID: store.NewID(), Alg: alg, PrivateKey: sealed, CreatedAt: kr.now(), ActiveFrom: activeFrom}
	if err := kr.db.WithContext(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("store %s key: %w", alg, err)
	}
	return nil
}

// ensure makes a key of each algorithm that has none this panel can sign
// with (first start, or keys sealed with another identity).
func (kr *keyring) ensure(ctx context.Context) error {
	if err := kr.reload(ctx); err != nil {
		return err
	}
	made := false
	for _, alg := range algorithms {
		if _, err := kr.signing(alg); err == nil {
			continue
		}
		if err := kr.create(ctx, alg, kr.now()); err != nil {
			return err
		}
		made = true
	}
	if !made {
		return nil
	}
	return kr.reload(ctx)
}

// rotate, run by the leader, publishes a new key of each algorithm whose
// newest key has signed for rotateEvery (it signs publishAhead later, once
// every replica publishes it), and sets when replaced keys leave the JWKS.
// It reports whether it changed anything.
func (kr *keyring) rotate(ctx context.Context) (bool, error) {
	now := kr.now()
	changed := false
	for _, alg := range algorithms {
		var rows []signingKey
		if err := kr.db.WithContext(ctx).Where("alg = ? AND (expires_at IS NULL OR expires_at > ?)", alg, now).
			Order("active_from DESC, id DESC").Find(&rows).Error; err != nil {
			return changed, fmt.Errorf("read signing keys: %w", err)
		}
		if len(rows) == 0 || !now.Before(rows[0].ActiveFrom.Add(kr.rotateEvery)) {
			if err := kr.create(ctx, alg, now.Add(kr.publishAhead)); err != nil {
				return changed, err
			}
			changed = true
		}
		// Keys replaced by one that signs now leave the JWKS overlap later.
		for i, r := range rows {
			if i == 0 || r.ExpiresAt != nil {
				continue
			}
			newer := rows[i-1]
			if newer.ActiveFrom.After(now) {
				continue
			}
			until := newer.ActiveFrom.Add(kr.overlap)
			if err := kr.db.WithContext(ctx).Model(&signingKey{}).Where("id = ?", r.ID).Update("expires_at", until).Error; err != nil {
				return changed, fmt.Errorf("retire signing key: %w", err)
			}
			changed = true
		}
	}
	if err := kr.db.WithContext(ctx).Where("expires_at IS NOT NULL AND expires_at <= ?", now).Delete(&signingKey{}).Error; err != nil {
		return changed, fmt.Errorf("delete expired signing keys: %w", err)
	}
	return changed, nil
}

// signing returns the key that signs for alg now: the newest one active.
func (kr *keyring) signing(alg string) (*liveKey, error) {
	now := kr.now()
	kr.mu.RLock()
	defer kr.mu.RUnlock()
	for _, k := range kr.keys {
		if string(k.alg) == alg && !k.activeFrom.After(now) {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no %s signing key", alg)
}

func (kr *keyring) published() []op.Key {
	kr.mu.RLock()
	defer kr.mu.RUnlock()
	out := make([]op.Key, 0, len(kr.keys))
	for _, k := range kr.keys {
		out = append(out, publicKey{k})
	}
	return out
}

// document returns the JWKS and its ETag.
func (kr *keyring) document() ([]byte, string) {
	kr.mu.RLock()
	defer kr.mu.RUnlock()
	return kr.jwks, kr.etag
}
