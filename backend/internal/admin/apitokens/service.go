package apitokens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ValuePrefix starts every token value, so a leaked one is recognisable
// (and secret scanners can be taught it). Machine tokens use "ght_".
const ValuePrefix = "gha_"

// MaxValueLen bounds a presented token (real ones are about 50 bytes): a
// longer one is refused, and counted, without a look-up.
const MaxValueLen = 256

const (
	// MaxFailures wrong, expired or revoked tokens from one address within
	// FailureWindow block that address, like failed admin sign-ins.
	MaxFailures = 20
	// FailureWindow is how long failures are remembered.
	FailureWindow = 15 * time.Minute
)

// Service manages API tokens and authenticates requests that carry one.
type Service struct {
	db     *gorm.DB
	now    func() time.Time
	log    *slog.Logger
	failed *ratelimit.Limiter // keyed by address

	// standing, if set, refuses a token whose creator may not act now
	// (admin.Service.TokenStanding: a second factor the panel requires).
	standing func(ctx context.Context, creatorID string) error

	mu      sync.Mutex
	pending map[string]use // token id -> last use not yet written
}

type use struct {
	at   time.Time
	addr string
}

// Deps are the Service's collaborators.
type Deps struct {
	DB     *gorm.DB
	Now    func() time.Time
	Logger *slog.Logger
	// Standing makes every token act with its creator's current standing:
	// it answers the error a token of creatorID gets, or nil. A token is
	// checked on every request, as a session is. Nil checks nothing.
	Standing func(ctx context.Context, creatorID string) error
}

// NewService returns the API-token service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, now: d.Now, log: d.Logger, standing: d.Standing, pending: map[string]use{},
		failed: ratelimit.Shared(d.DB, "apitoken", MaxFailures, FailureWindow, d.Now, ratelimit.WithLogger(d.Logger))}
}

// Create stores a new token for creator and returns its value, once. Only
// a signed-in administrator creates tokens: a token that could mint tokens
// would let a leaked one outlive its own revocation.
func (s *Service) Create(ctx context.Context, creator actor.Actor, in CreateRequest) (Created, error) {
	if creator.Kind != actor.KindAdmin {
		return Created{}, apperr.Forbidden("API tokens are created by a signed-in administrator")
	}
	now := s.now()
	if err := in.normalize(creator.Role, now); err != nil {
		return Created{}, err
	}
	v, err := bearer.New()
	if err != nil {
		return Created{}, err
	}
	value := ValuePrefix + v
	row := store.AdminToken{
		ID: store.NewID(), Name: in.Name, TokenHash: bearer.Hash(value), Prefix: value[:len(ValuePrefix)+6],
		Role: string(in.Role), CreatedBy: creator.ID, CreatedAt: now, ExpiresAt: in.ExpiresAt,
	}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return Created{}, fmt.Errorf("create API token %q: %w", in.Name, err)
	}
	t, err := s.Get(ctx, row.ID)
	if err != nil {
		return Created{}, err
	}
	audit.Changed(ctx, nil, t)
	return Created{Token: t, Value: value}, nil
}

// listed is a token row with its creator's username.
type listed struct {
	store.AdminToken
	Username string
}

func (s *Service) query(ctx context.Context) *gorm.DB {
	return s.db.WithContext(ctx).Table("admin_tokens").
		Select("admin_tokens.*, people.username AS username").
		Joins("JOIN people ON people.id = admin_tokens.created_by")
}

// List returns every token, newest first.
func (s *Service) List(ctx context.Context) ([]Token, error) {
	var rows []listed
	if err := s.query(ctx).Order("admin_tokens.created_at DESC, admin_tokens.id DESC").Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list API tokens: %w", err)
	}
	out := make([]Token, 0, len(rows))
	for _, r := range rows {
		out = append(out, s.toDTO(r))
	}
	return out, nil
}

// Get returns one token.
func (s *Service) Get(ctx context.Context, id string) (Token, error) {
	var rows []listed
	if err := s.query(ctx).Where("admin_tokens.id = ?", id).Limit(1).Scan(&rows).Error; err != nil {
		return Token{}, fmt.Errorf("read API token %s: %w", id, err)
	}
	if len(rows) == 0 {
		return Token{}, apperr.NotFound("API token")
	}
	return s.toDTO(rows[0]), nil
}

func (s *Service) toDTO(r listed) Token {
	t := Token{ID: r.ID, Name: r.Name, Prefix: r.Prefix, Role: actor.Role(r.Role), CreatedBy: r.Username,
		CreatedAt: r.CreatedAt.UTC(), ExpiresAt: utc(r.ExpiresAt), RevokedAt: utc(r.RevokedAt),
		LastUsedAt: utc(r.LastUsedAt), LastUsedAddress: r.LastUsedAddress, Status: StatusActive}
	s.mu.Lock()
	if u, ok := s.pending[r.ID]; ok {
		t.LastUsedAt, t.LastUsedAddress = &u.at, u.addr
	}
	s.mu.Unlock()
	switch {
	case r.RevokedAt != nil:
		t.Status = StatusRevoked
	case r.ExpiresAt != nil && !s.now().Before(*r.ExpiresAt):
		t.Status = StatusExpired
	}
	return t
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Revoke stops a token from working; it stays listed. Revoking a revoked
// token changes nothing.
func (s *Service) Revoke(ctx context.Context, id string) error {
	before, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	now := s.now()
	res := s.db.WithContext(ctx).Model(&store.AdminToken{}).Where("id = ? AND revoked_at IS NULL", id).
		Update("revoked_at", now)
	if res.Error != nil {
		return fmt.Errorf("revoke API token %s: %w", id, res.Error)
	}
	after := before
	if res.RowsAffected == 1 {
		after.RevokedAt, after.Status = utc(&now), StatusRevoked
	}
	audit.Changed(ctx, before, after)
	return nil
}

// Authenticate resolves a token value sent from address to the actor it
// acts as. Unknown, expired and revoked tokens, and tokens of a disabled
// creator, answer unauthenticated and count against the address; once the
// address reaches MaxFailures it is answered rate_limited without a look-up.
func (s *Service) Authenticate(ctx context.Context, value, address string) (actor.Actor, error) {
	key := "ip:" + address
	if blocked, wait := s.failed.Blocked(key); blocked {
		return actor.Actor{}, apperr.RateLimited("too many invalid API tokens; try again later", wait)
	}
	if len(value) > MaxValueLen {
		s.failed.Fail(key)
		return actor.Actor{}, &apperr.Error{Code: apperr.CodeUnauthenticated, Message: "invalid, expired or revoked API token",
			Fields: []apperr.FieldError{{Field: "Authorization", Message: fmt.Sprintf("must be at most %d bytes", MaxValueLen)}}}
	}
	a, err := s.resolve(ctx, value, address)
	if apperr.IsCode(err, apperr.CodeUnauthenticated) {
		s.failed.Fail(key)
	}
	return a, err
}

func (s *Service) resolve(ctx context.Context, value, address string) (actor.Actor, error) {
	invalid := apperr.Unauthenticated("invalid, expired or revoked API token")
	if !strings.HasPrefix(value, ValuePrefix) {
		return actor.Actor{}, invalid
	}
	var row struct {
		store.AdminToken
		CreatorRole     string
		CreatorDisabled *time.Time
	}
	err := s.db.WithContext(ctx).Table("admin_tokens").
		Select("admin_tokens.*, people.panel_role AS creator_role, people.disabled_at AS creator_disabled").
		Joins("JOIN people ON people.id = admin_tokens.created_by").
		Where("admin_tokens.token_hash = ?", bearer.Hash(value)).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return actor.Actor{}, invalid
	}
	if err != nil {
		return actor.Actor{}, fmt.Errorf("find API token: %w", err)
	}
	now := s.now()
	if row.RevokedAt != nil || row.CreatorDisabled != nil || !actor.Role(row.CreatorRole).Valid() || (row.ExpiresAt != nil && !now.Before(*row.ExpiresAt)) {
		return actor.Actor{}, invalid
	}
	if s.standing != nil {
		if err := s.standing(ctx, row.CreatedBy); err != nil {
			return actor.Actor{}, err
		}
	}
	s.mu.Lock()
	s.pending[row.ID] = use{at: now, addr: address}
	s.mu.Unlock()
	return actor.Actor{
		Kind: actor.KindToken, ID: row.ID, Name: row.Name, Address: address,
		Role: lesser(actor.Role(row.Role), actor.Role(row.CreatorRole)),
	}, nil
}

// Flush writes the last uses noted since the previous flush, off the
// request path.
func (s *Service) Flush(ctx context.Context) error {
	s.mu.Lock()
	batch := s.pending
	s.pending = map[string]use{}
	s.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for id, u := range batch {
			err := tx.Model(&store.AdminToken{}).Where("id = ?", id).
				Updates(map[string]any{"last_used_at": u.at, "last_used_address": u.addr}).Error
			if err != nil {
				return fmt.Errorf("record API token use: %w", err)
			}
		}
		return nil
	})
}

// flushInterval is how often the last uses noted in memory are written:
// half of an administrator session's last-seen interval, so a token's last
// use shows as soon as a session's does.
const flushInterval = 30 * time.Second

// Loops are the background work every replica runs: writing the last uses
// it noted off the hot path.
func (s *Service) Loops() []background.Loop {
	return []background.Loop{{Name: "API tokens last use", Run: s.loop(flushInterval)}}
}

// loop flushes last uses every interval until ctx ends, then once more.
func (s *Service) loop(interval time.Duration) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				if err := s.Flush(context.WithoutCancel(ctx)); err != nil {
					s.log.Warn("record API token use", "err", err)
				}
				return
			case <-t.C:
				if err := s.Flush(ctx); err != nil && ctx.Err() == nil {
					s.log.Warn("record API token use", "err", err)
				}
			}
		}
	}
}
