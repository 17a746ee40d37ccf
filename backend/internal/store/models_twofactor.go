package store

import "time"

// AdminTOTP is an administrator's TOTP enrolment (migration 0007). Secret is
// sealed with the panel's age identity; the enrolment counts only once
// ConfirmedAt is set.
type AdminTOTP struct {
	UserID      string `gorm:"primaryKey"`
	Secret      string
	ConfirmedAt *time.Time
	LastStep    int64
	CreatedAt   time.Time
}

// TableName is the table's name in migration 0007.
func (AdminTOTP) TableName() string { return "admin_totp" }

// AdminRecoveryCode is one one-use recovery code, stored as its SHA-256 hash.
type AdminRecoveryCode struct {
	ID        string
	UserID    string
	CodeHash  string
	UsedAt    *time.Time
	CreatedAt time.Time
}

// AdminPasskey is a WebAuthn credential of an administrator. Credential holds
// the go-webauthn credential as JSON.
type AdminPasskey struct {
	ID           string
	UserID       string
	CredentialID string
	Name         string
	Credential   string
	CreatedAt    time.Time
	LastUsedAt   *time.Time
}

// AdminChallenge is short-lived sign-in or WebAuthn ceremony state bound to
// a browser by a cookie stored here as TokenHash.
type AdminChallenge struct {
	ID        string
	TokenHash string
	Purpose   string
	UserID    *string
	Address   string
	Data      string
	ExpiresAt time.Time
	CreatedAt time.Time
}

// AdminSecurity is the panel-wide sign-in policy (one row, id 1).
type AdminSecurity struct {
	ID               int
	RequireTwoFactor bool
	UpdatedAt        *time.Time
}

// TableName is the table's name in migration 0007.
func (AdminSecurity) TableName() string { return "admin_security" }
