package store

import "time"

// Invitation is a one-use link that lets an invited person choose how they
// sign in (migration 0023). PersonID is nil once the person was removed.
type Invitation struct {
	ID        string
	TokenHash string
	PersonID  *string
	Username  string
	Email     string
	CreatedBy string
	ExpiresAt time.Time
	UsedAt    *time.Time
	RevokedAt *time.Time
	CreatedAt time.Time
}

// PasswordReset is a one-use password reset token mailed to a person
// (migration 0023), stored as its SHA-256 hash.
type PasswordReset struct {
	TokenHash string `gorm:"primaryKey"`
	PersonID  string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}
