package store

import "time"

// AdminToken is an administrator's API token (migration 0006); only the
// value's hash is stored.
type AdminToken struct {
	ID              string
	Name            string
	TokenHash       string
	Prefix          string
	Role            string
	CreatedBy       string
	CreatedAt       time.Time
	ExpiresAt       *time.Time
	RevokedAt       *time.Time
	LastUsedAt      *time.Time
	LastUsedAddress string
}
