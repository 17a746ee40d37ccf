package store

import "time"

// AppPassword is a person's named password for a basic-auth client
// (migration 0024). Only the SHA-256 of the secret is stored.
type AppPassword struct {
	ID         string
	PersonID   string
	Name       string
	SecretHash string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}
