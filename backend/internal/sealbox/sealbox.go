// Package sealbox encrypts small secrets at rest (the SSO client secret) with
// an age X25519 identity kept in the data directory. It shares the identity
// file with managed mode's DNS-credentials vault, so one key protects every
// secret the panel stores and one file must be backed up with the database.
package sealbox

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"
)

// IdentityFile is the identity's file name inside the data directory.
const IdentityFile = "age.key"

// prefix marks a sealed string, so plaintext written by older versions is
// recognised (and sealed on its next write).
const prefix = "age:"

// ErrOpen means a sealed value could not be decrypted with this identity.
var ErrOpen = errors.New("sealed value cannot be decrypted with the configured age identity")

// Box seals and opens secrets with one identity.
type Box struct {
	id *age.X25519Identity
}

// Load takes the identity from identityText (PANEL_AGE_IDENTITY[_FILE]) or
// from <dataDir>/age.key, creating that file with mode 0600 on first use.
func Load(dataDir, identityText string) (*Box, error) {
	if identityText != "" {
		id, err := Parse(identityText)
		if err != nil {
			return nil, fmt.Errorf("PANEL_AGE_IDENTITY: %w", err)
		}
		return &Box{id: id}, nil
	}
	path := filepath.Join(dataDir, IdentityFile)
	b, err := os.ReadFile(path) //nolint:gosec // the identity file in the operator's data directory
	if err == nil {
		// A key others can read protects nothing: restrict it (it may have
		// been restored from a backup with loose permissions).
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return nil, fmt.Errorf("restrict %s to mode 0600: %w", path, err)
			}
		}
		id, err := Parse(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &Box{id: id}, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, fmt.Errorf("generate age identity: %w", err)
	}
	text := fmt.Sprintf("# created: %s\n# public key: %s\n%s\n",
		time.Now().UTC().Format(time.RFC3339), id.Recipient(), id)
	if err := writeExclusive(path, []byte(text)); err != nil {
		if errors.Is(err, os.ErrExist) { // created concurrently: use that one
			return Load(dataDir, "")
		}
		return nil, err
	}
	return &Box{id: id}, nil
}

// Ephemeral returns a box with a fresh identity that is never written
// anywhere: what it seals cannot be opened after the process ends (tests).
func Ephemeral() (*Box, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, fmt.Errorf("generate age identity: %w", err)
	}
	return &Box{id: id}, nil
}

// writeExclusive creates path with mode 0600, failing if it exists, and syncs it.
func writeExclusive(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // a path under the operator's data directory
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close() // the write error is the one to report
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close() // the sync error is the one to report
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return f.Close()
}

// Parse reads the first AGE-SECRET-KEY-1 line, skipping the comment lines
// age-keygen writes.
func Parse(text string) (*age.X25519Identity, error) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, err := age.ParseX25519Identity(line)
		if err != nil {
			return nil, errors.New("not an age X25519 identity (AGE-SECRET-KEY-1...)")
		}
		return id, nil
	}
	return nil, errors.New("no AGE-SECRET-KEY-1 line found")
}

// Identity returns the identity, for components that encrypt files with it.
func (b *Box) Identity() *age.X25519Identity { return b.id }

// Seal encrypts s; the empty string stays empty (nothing to protect).
func (b *Box) Seal(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, b.id.Recipient())
	if err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	if _, err := io.WriteString(w, s); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	return prefix + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// Open decrypts a value produced by Seal. A value without the sealed prefix
// is returned as is (written before sealing existed).
func (b *Box) Open(s string) (string, error) {
	raw, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return s, nil
	}
	ct, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return "", ErrOpen
	}
	r, err := age.Decrypt(bytes.NewReader(ct), b.id)
	if err != nil {
		return "", ErrOpen
	}
	pt, err := io.ReadAll(r)
	if err != nil {
		return "", ErrOpen
	}
	return string(pt), nil
}

// IsSealed reports whether s was produced by Seal.
func IsSealed(s string) bool { return strings.HasPrefix(s, prefix) }

// DeriveKey returns a 32-byte key for purpose, derived (HKDF-SHA256) from
// the identity: every replica that shares the identity derives the same
// key, and no key of one purpose tells anything about another or about the
// identity.
func (b *Box) DeriveKey(purpose string) ([]byte, error) {
	return DeriveKey(b.id, purpose)
}

// DeriveKey is Box.DeriveKey for an identity held without a Box.
func DeriveKey(id *age.X25519Identity, purpose string) ([]byte, error) {
	k, err := hkdf.Key(sha256.New, []byte(id.String()), nil, "gatehouse "+purpose, 32)
	if err != nil {
		return nil, fmt.Errorf("derive key: %w", err)
	}
	return k, nil
}
