package managed

import (
	"encoding/hex"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
)

// ProviderToken is the token managed mode gives Traefik's HTTP provider
// when PANEL_PROVIDER_TOKEN is not set. It is derived from the panel's age
// identity, which every replica shares (the credentials vault needs it), so
// every replica serves the same static configuration and accepts the same
// token without storing or exchanging one. It reveals nothing about the
// identity (HKDF, as every key derived from it). Never log it.
func ProviderToken(id *age.X25519Identity) (string, error) {
	k, err := sealbox.DeriveKey(id, "provider token v1")
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(k), nil
}
