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
	// Kind is "invitation" (an administrator's) or "registration" (a
	// visitor's, migration 0025).
	Kind      string
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

// RegistrationSettings is the one row saying whether visitors may register
// themselves (migration 0025). Domains and GroupIDs are JSON lists.
type RegistrationSettings struct {
	ID        int
	Mode      string
	Domains   JSON[[]string]
	GroupIDs  JSON[[]string] `gorm:"column:group_ids"`
	UpdatedAt time.Time
}
