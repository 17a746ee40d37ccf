// Package bearer makes and hashes the bearer secrets the panel hands out:
// admin sessions, forward-auth sessions, shared links and sign-in state.
package bearer

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

// New returns 32 random bytes, base64url-encoded.
func New() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// Hash is how tokens are stored: hex SHA-256. Tokens are 256-bit random,
// so a fast hash is enough (no password-style stretching needed). It
// allocates once, for the result: the verify hot path hashes the session
// cookie on every request.
func Hash(token string) string {
	// []byte(token) of more than 32 bytes escapes to the heap; a stack copy
	// keeps the hot path at one allocation for the tokens the panel issues.
	var in [128]byte
	var sum [sha256.Size]byte
	if len(token) <= len(in) {
		sum = sha256.Sum256(in[:copy(in[:], token)])
	} else {
		sum = sha256.Sum256([]byte(token))
	}
	var buf [sha256.Size * 2]byte
	hex.Encode(buf[:], sum[:])
	return string(buf[:])
}
