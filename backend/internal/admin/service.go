// Package admin authenticates the panel's administrators: first-run setup,
// password login with lockout, and server-side sessions whose tokens are
// stored only as SHA-256 hashes.
package admin

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/token"
)

const (
	// SessionTTL is how long an idle admin session lives; activity extends it.
	SessionTTL = 12 * time.Hour
	// ProxyHashCost is the bcrypt cost of the hash Traefik checks on every
	// request through the panel's own router (about 18 ms here, against
	// about 0.3 s at the login cost). It is only ever served to Traefik on
	// the internal network.
	ProxyHashCost = 8
	// MaxFailures failed logins per user or IP within FailureWindow lock them out.
	MaxFailures = 5
	// FailureWindow is how long failed logins are remembered.
	FailureWindow = 15 * time.Minute
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9._@-]{1,64}$`)

// User is an administrator as the API shows it.
type User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// Service manages administrators and their sessions.
type Service struct {
	db         *gorm.DB
	now        func() time.Time
	bcryptCost int
	limiter    *ratelimit.Limiter
	dummyHash  []byte
}

// NewService returns an admin service. bcryptCost 0 means bcrypt.DefaultCost+2.
func NewService(db *gorm.DB, now func() time.Time, bcryptCost int) *Service {
	if bcryptCost == 0 {
		bcryptCost = bcrypt.DefaultCost + 2
	}
	dummy, _ := bcrypt.GenerateFromPassword([]byte("gatehouse-timing-equaliser"), bcryptCost)
	return &Service{
		db: db, now: now, bcryptCost: bcryptCost, dummyHash: dummy,
		limiter: ratelimit.New(MaxFailures, FailureWindow, now),
	}
}

// ValidateCredentials checks the shape of a new username and password.
func ValidateCredentials(username, password string) error {
	var c apperr.Collector
	if !usernameRE.MatchString(username) {
		c.Add("username", "must be 1-64 letters, digits or . _ @ -")
	}
	if n := len([]rune(password)); n < 10 || n > 256 {
		c.Add("password", "must be between 10 and 256 characters")
	}
	return c.Err()
}

// SetupRequired reports whether no administrator exists yet.
func (s *Service) SetupRequired(ctx context.Context) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.AdminUser{}).Count(&n).Error; err != nil {
		return false, fmt.Errorf("count admins: %w", err)
	}
	return n == 0, nil
}

// Setup creates the first administrator; it is refused once one exists. The
// check and the insert share one immediate transaction, so two concurrent
// setups cannot both succeed.
func (s *Service) Setup(ctx context.Context, username, password string) (User, error) {
	var u store.AdminUser
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&store.AdminUser{}).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return apperr.Forbidden("setup is already complete; sign in instead")
		}
		var err error
		u, err = s.create(tx, username, password)
		return err
	})
	if err != nil {
		return User{}, err
	}
	return User{ID: u.ID, Username: u.Username}, nil
}

// Create adds an administrator (CLI and environment bootstrap).
func (s *Service) Create(ctx context.Context, username, password string) (User, error) {
	u, err := s.create(s.db.WithContext(ctx), username, password)
	if err != nil {
		return User{}, err
	}
	return User{ID: u.ID, Username: u.Username}, nil
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

func (s *Service) create(tx *gorm.DB, username, password string) (store.AdminUser, error) {
	if err := ValidateCredentials(username, password); err != nil {
		return store.AdminUser{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost)
	if err != nil {
		return store.AdminUser{}, fmt.Errorf("hash password: %w", err)
	}
	proxy, err := s.proxyHash(password)
	if err != nil {
		return store.AdminUser{}, err
	}
	now := s.now()
	u := store.AdminUser{ID: store.NewID(), Username: username, PasswordHash: string(hash), ProxyHash: proxy,
		CreatedAt: now, UpdatedAt: now}
	if err := tx.Create(&u).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return store.AdminUser{}, apperr.Conflict("username", "administrator %q already exists", username)
		}
		return store.AdminUser{}, fmt.Errorf("create admin %q: %w", username, err)
	}
	return u, nil
}

// Login checks a password and opens a session, returning its token. Failures
// count against both the username and the client IP; either reaching the
// limit answers rate_limited without checking the password.
func (s *Service) Login(ctx context.Context, username, password, ip string) (User, string, error) {
	keys := []string{"user:" + username, "ip:" + ip}
	if blocked, wait := s.limiter.Blocked(keys...); blocked {
		return User{}, "", apperr.RateLimited(
			fmt.Sprintf("too many failed sign-in attempts; try again in %s", wait.Round(time.Minute)), wait)
	}
	var u store.AdminUser
	err := s.db.WithContext(ctx).Where("username = ?", username).Take(&u).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, "", fmt.Errorf("find admin: %w", err)
	}
	hash := []byte(u.PasswordHash)
	if u.ID == "" {
		hash = s.dummyHash // same cost whether or not the user exists
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil || u.ID == "" {
		s.limiter.Fail(keys...)
		return User{}, "", apperr.Unauthenticated("wrong username or password")
	}
	s.limiter.Reset(keys[0])
	if u.ProxyHash == "" { // created before proxy hashes existed: the password is known now
		if proxy, err := s.proxyHash(password); err == nil {
			s.db.WithContext(ctx).Model(&u).Update("proxy_hash", proxy)
		}
	}
	token, err := s.openSession(ctx, u.ID)
	if err != nil {
		return User{}, "", err
	}
	return User{ID: u.ID, Username: u.Username}, token, nil
}

func (s *Service) openSession(ctx context.Context, userID string) (string, error) {
	tok, err := token.New()
	if err != nil {
		return "", err
	}
	now := s.now()
	sess := store.AdminSession{
		ID: store.NewID(), TokenHash: token.Hash(tok), UserID: userID,
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(SessionTTL),
	}
	if err := s.db.WithContext(ctx).Create(&sess).Error; err != nil {
		return "", fmt.Errorf("create admin session: %w", err)
	}
	return tok, nil
}

func (s *Service) proxyHash(password string) (string, error) {
	cost := ProxyHashCost
	if s.bcryptCost < cost {
		cost = s.bcryptCost // tests lower the cost for speed
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// SetupAndLogin runs Setup and opens a session for the new administrator.
func (s *Service) SetupAndLogin(ctx context.Context, username, password string) (User, string, error) {
	u, err := s.Setup(ctx, username, password)
	if err != nil {
		return User{}, "", err
	}
	token, err := s.openSession(ctx, u.ID)
	return u, token, err
}

// Authenticate resolves a session token to its administrator, sliding the
// session's expiry when less than half of it is left.
func (s *Service) Authenticate(ctx context.Context, tok string) (User, error) {
	if tok == "" {
		return User{}, apperr.Unauthenticated("sign in required")
	}
	var sess store.AdminSession
	err := s.db.WithContext(ctx).Where("token_hash = ?", token.Hash(tok)).Take(&sess).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, apperr.Unauthenticated("session expired; sign in again")
	}
	if err != nil {
		return User{}, fmt.Errorf("find admin session: %w", err)
	}
	now := s.now()
	if !now.Before(sess.ExpiresAt) {
		s.db.WithContext(ctx).Delete(&sess)
		return User{}, apperr.Unauthenticated("session expired; sign in again")
	}
	var u store.AdminUser
	if err := s.db.WithContext(ctx).Where("id = ?", sess.UserID).Take(&u).Error; err != nil {
		return User{}, apperr.Unauthenticated("session expired; sign in again")
	}
	if sess.ExpiresAt.Sub(now) < SessionTTL/2 {
		s.db.WithContext(ctx).Model(&sess).Updates(map[string]any{"last_seen_at": now, "expires_at": now.Add(SessionTTL)})
	}
	return User{ID: u.ID, Username: u.Username}, nil
}

// Logout ends the session behind token, if any.
func (s *Service) Logout(ctx context.Context, tok string) error {
	if tok == "" {
		return nil
	}
	if err := s.db.WithContext(ctx).Where("token_hash = ?", token.Hash(tok)).Delete(&store.AdminSession{}).Error; err != nil {
		return fmt.Errorf("delete admin session: %w", err)
	}
	return nil
}

// SweepSessions deletes expired admin sessions.
func (s *Service) SweepSessions(ctx context.Context) error {
	return s.db.WithContext(ctx).Where("expires_at <= ?", s.now()).Delete(&store.AdminSession{}).Error
}
