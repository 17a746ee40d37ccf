package store

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// KeyAccessRules is the app_config key of the global access rules.
const KeyAccessRules = "access_rules"

// ServiceAccess is a service's access rules (see migration 0003).
type ServiceAccess struct {
	ServiceID     string `gorm:"primaryKey"`
	DefaultAction string
	Rules         JSON[[]rules.Rule]
	UpdatedAt     time.Time
}

// TableName pins the table name.
func (ServiceAccess) TableName() string { return "service_access" }

// MachineToken is a bearer credential for clients that cannot sign in.
type MachineToken struct {
	ID              string
	Name            string
	TokenHash       string
	Prefix          string
	ScopePath       string
	ScopeMethods    JSON[[]string]
	ExpiresAt       *time.Time
	RevokedAt       *time.Time
	LastUsedAt      *time.Time
	LastUsedAddress string
	CreatedAt       time.Time
}

// MachineTokenService binds a token to a service it may open.
type MachineTokenService struct {
	TokenID   string `gorm:"primaryKey"`
	ServiceID string `gorm:"primaryKey"`
}
