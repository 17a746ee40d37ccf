// Package transfer exports the panel's configuration as one versioned
// document (package document) and imports such a document, or another
// tool's configuration through a document.Reader, by planning every change
// against the database first and applying the plan in one transaction.
package transfer

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// Credentials reads and writes the managed-mode DNS credentials' values
// (managed.Service) through the export's or the import's transaction, so
// they are read at the same moment as the rest and written with the rest.
type Credentials interface {
	CredentialValues(ctx context.Context, db *gorm.DB) (map[string]string, error)
	UpdateSecrets(ctx context.Context, tx *gorm.DB, upsert map[string]string, remove []string) error
}

// Deps are the Service's dependencies.
type Deps struct {
	DB  *gorm.DB
	Bus *change.Bus
	Now func() time.Time
	// Box opens and seals the secrets the panel keeps sealed at rest (SSO
	// client secret, notification channels' secrets).
	Box *sealbox.Box
	// Credentials is nil outside managed mode.
	Credentials Credentials
	// Readers read other tools' configuration (format=npm, traefik, ...).
	Readers []document.Reader
	// PanelVersion goes into every export.
	PanelVersion string
	// GeoIP: a country database is loaded (country conditions are valid).
	GeoIP bool
	// ScryptWorkFactor (log2) of the passphrase encryption; 0 is age's default.
	ScryptWorkFactor int
	Logger           *slog.Logger
	// Accounts ends the service sessions opened from the portal sessions
	// an import ended (a disabled person, a replaced password).
	Accounts Accounts
}

// Accounts is the sign-in side of people (admin.Service).
type Accounts interface {
	SessionsEnded(ctx context.Context, ended admin.EndedSessions)
}

// Service exports and imports the configuration.
type Service struct {
	o      Deps
	failAt int // tests: fail the apply at this write (1-based)
}

// NewService returns the transfer service.
func NewService(o Deps) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{o: o}
}
