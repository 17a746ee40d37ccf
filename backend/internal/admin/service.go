// Package admin authenticates the panel's administrators: first-run setup,
// password login with a failure limit per username and address, password
// changes, and server-side sessions whose tokens are stored only as SHA-256
// hashes.
package admin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const (
	// SessionTTL is how long an idle admin session lives; activity extends it.
	SessionTTL = 12 * time.Hour
	// MaxFailures failed sign-ins for one username from one address within
	// FailureWindow block that username from that address. The username
	// alone is never blocked, so a stranger cannot lock its owner out.
	MaxFailures = 5
	// MaxAddressFailures failed sign-ins from one address within
	// FailureWindow, whatever the usernames, block that address.
	MaxAddressFailures = 20
	// FailureWindow is how long failed sign-ins are remembered.
	FailureWindow = 15 * time.Minute
	// LastSeenInterval is how stale a session's last-seen time may get
	// before a request records a new one.
	LastSeenInterval = time.Minute
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

// Service manages administrators and their sessions.
type Service struct {
	db         *gorm.DB
	now        func() time.Time
	bcryptCost int
	bus        *change.Bus
	log        *slog.Logger
	byUser     *ratelimit.Limiter // keyed by username and address
	byAddress  *ratelimit.Limiter // keyed by address
	dummyHash  []byte
	// passwords reports whether password sign-in is allowed (nil: always).
	passwords func(ctx context.Context) (bool, error)
	tf        twoFactor // TOTP secrets' sealer and the passkeys' relying party
	// policy, portalHost and ender serve the sign-in portal (portal.go).
	policy     func(ctx context.Context) (PortalPolicy, error)
	portalHost func(ctx context.Context) string
	ender      PortalSessionEnder
	portalURL  func(ctx context.Context) string
	portalRP

	seenMu sync.Mutex
	seen   map[string]time.Time // session id -> last request, written by FlushLastSeen
}

// Deps are the Service's collaborators; all but DB are optional.
type Deps struct {
	DB  *gorm.DB
	Now func() time.Time
	// Bus hears whenever administrators are added, removed or change, so
	// the dynamic configuration (whose managed-mode panel router exists
	// only while an active administrator does) is built again.
	Bus    *change.Bus
	Logger *slog.Logger // what the background loops could not do
	// BcryptCost of new password hashes; 0 means bcrypt.DefaultCost+2.
	BcryptCost int
	// Secrets seals TOTP secrets with the panel's age identity; without it
	// they are sealed with a key that lives only in memory (tests, commands
	// that never read a secret).
	Secrets Sealer
	// PublicURL is PANEL_PUBLIC_URL: its host is the passkeys' relying
	// party id and its origin the only origin they are accepted from.
	// Without it passkeys are unavailable (TOTP and recovery codes still
	// work): the relying party id is bound into every credential, so
	// guessing it from a request would register passkeys that stop working
	// once the URL is set.
	PublicURL string
	// LocalPasswords makes password sign-in ask allowed first: when it
	// answers false (the panel's sign-in is SSO only), POST
	// /api/admin/login is refused. Nil always allows.
	LocalPasswords func(ctx context.Context) (bool, error)
	// PortalPolicy is how long portal sessions last; nil means
	// DefaultPortalPolicy.
	PortalPolicy func(ctx context.Context) (PortalPolicy, error)
	// PortalHost names the sign-in portal's host ("" for none); nil means
	// no portal (PortalSignIn finds no session).
	PortalHost func(ctx context.Context) string
	// PortalURL is the portal's address as browsers use it
	// (https://<host>, or PANEL_PORTAL_URL): the origin of passkeys on
	// the portal. Nil or "" means none.
	PortalURL func(ctx context.Context) string
}

// SetPortalSessionEnder hands in what ends the service sessions opened from
// a portal session (package forwardauth, built after this service).
func (s *Service) SetPortalSessionEnder(e PortalSessionEnder) { s.ender = e }

// NewService returns an admin service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.BcryptCost == 0 {
		d.BcryptCost = bcrypt.DefaultCost + 2
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("gatehouse-timing-equaliser"), d.BcryptCost)
	s := &Service{
		db: d.DB, now: d.Now, bcryptCost: d.BcryptCost, dummyHash: dummy, bus: d.Bus, log: d.Logger, passwords: d.LocalPasswords,
		byUser:    ratelimit.Shared(d.DB, "admin.user", MaxFailures, FailureWindow, d.Now),
		byAddress: ratelimit.Shared(d.DB, "admin.address", MaxAddressFailures, FailureWindow, d.Now),
		seen:      map[string]time.Time{},
		tf:        twoFactor{secrets: d.Secrets, publicURL: d.PublicURL},
		policy:    d.PortalPolicy, portalHost: d.PortalHost, portalURL: d.PortalURL,
	}
	s.initTwoFactor()
	return s
}

// ValidateCredentials checks the shape of a new username and password.
func ValidateCredentials(username, password string) error {
	var c apperr.Collector
	if !usernameRE.MatchString(username) {
		c.Add("username", "must be 1-64 letters, digits or . _ @ -")
	}
	if msg := passwordProblem(password); msg != "" {
		c.Add("password", "%s", msg)
	}
	return c.Err()
}

// passwordProblem says what is wrong with a new password, or "".
func passwordProblem(password string) string {
	if n := len([]rune(password)); n < 10 || n > 256 {
		return "must be between 10 and 256 characters"
	}
	return ""
}

// SetupRequired reports whether no administrator exists yet.
func (s *Service) SetupRequired(ctx context.Context) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.Person{}).Count(&n).Error; err != nil {
		return false, fmt.Errorf("count admins: %w", err)
	}
	return n == 0, nil
}

// Setup creates the first administrator; it is refused once one exists. The
// check and the insert share one immediate transaction, so two concurrent
// setups cannot both succeed.
func (s *Service) Setup(ctx context.Context, username, password string) (User, error) {
	var u store.Person
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&store.Person{}).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return apperr.Forbidden("setup is already complete; sign in instead")
		}
		var err error
		u, err = s.create(tx, username, password, actor.RoleAdmin)
		return err
	})
	if err != nil {
		return User{}, err
	}
	s.changed(u.ID)
	return toUser(u), nil
}

// Create adds an administrator (CLI and environment bootstrap).
func (s *Service) Create(ctx context.Context, username, password string) (User, error) {
	return s.CreateWithRole(ctx, username, password, actor.RoleAdmin)
}

// CreateWithRole adds a person with a password and a panel role (the
// command line's `gatehouse admin create`).
func (s *Service) CreateWithRole(ctx context.Context, username, password string, role actor.Role) (User, error) {
	u, err := s.create(s.db.WithContext(ctx), username, password, role)
	if err != nil {
		return User{}, err
	}
	s.changed(u.ID)
	return toUser(u), nil
}

// EnsureBootstrap creates the administrator from the environment when no
// administrator exists yet; it does nothing otherwise.
func (s *Service) EnsureBootstrap(ctx context.Context, username, password string) (bool, error) {
	if username == "" {
		return false, nil
	}
	_, err := s.Setup(ctx, username, password)
	if apperr.IsCode(err, apperr.CodeForbidden) {
		return false, nil
	}
	return err == nil, err
}

func (s *Service) create(tx *gorm.DB, username, password string, role actor.Role) (store.Person, error) {
	if err := ValidateCredentials(username, password); err != nil {
		return store.Person{}, err
	}
	if !role.Valid() {
		return store.Person{}, apperr.Field("role", "must be admin or viewer")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost)
	if err != nil {
		return store.Person{}, fmt.Errorf("hash password: %w", err)
	}
	now := s.now()
	u := store.Person{ID: store.NewID(), Username: username, PasswordHash: string(hash),
		PanelRole: string(role), CreatedAt: now, UpdatedAt: now}
	if err := tx.Create(&u).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return store.Person{}, apperr.Conflict("username", "a person named %q already exists", username)
		}
		return store.Person{}, fmt.Errorf("create admin %q: %w", username, err)
	}
	return u, nil
}

// SetupAndLogin runs Setup and opens a session for the new administrator.
func (s *Service) SetupAndLogin(ctx context.Context, username, password string, client Client) (User, string, error) {
	u, err := s.Setup(ctx, username, password)
	if err != nil {
		return User{}, "", err
	}
	token, err := s.openSession(ctx, u.ID, client)
	return u, token, err
}

// changed tells the rest of the panel that an administrator changed. The
// dynamic configuration counts the active administrators on every rebuild,
// like the security settings, so it needs no finer event.
func (s *Service) changed(userID string) {
	s.bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: userID})
}
