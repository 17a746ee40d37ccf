package managed

import (
	"crypto/sha256"
	"encoding/hex"

	"filippo.io/age"
)

// ProviderToken is the token managed mode gives Traefik's HTTP provider
// when PANEL_PROVIDER_TOKEN is not set. It is derived from the panel's age
// identity, which every replica shares (the credentials vault needs it), so
// every replica serves the same static configuration and accepts the same
// token without storing or exchanging one. It reveals nothing about the
// identity. Never log it.
func ProviderToken(id *age.X25519Identity) string {
	sum := sha256.Sum256([]byte("gatehouse provider token v1\x00" + id.String()))
	return hex.EncodeToString(sum[:])
}
