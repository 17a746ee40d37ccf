// Package invitations lets an administrator invite a person through a
// one-use link (shown or mailed) where the person chooses a password or
// registers a passkey, and lets a person reset a forgotten password by
// e-mail. Who a person is stays in internal/people; how they prove it
// (password hashing, passkeys, sessions) stays in internal/admin.
package invitations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Bounds of an invitation's life.
const (
	DefaultTTL = 7 * 24 * time.Hour
	MaxTTL     = 30 * 24 * time.Hour
	// ResetTTL is how long a password reset link works.
	ResetTTL = 30 * time.Minute
	// MaxToken bounds a token before it is hashed (ours are 43 characters).
	MaxToken = 128
)

// People creates and removes the person an invitation is for
// (internal/people owns them).
type People interface {
	Create(ctx context.Context, in people.CreateRequest) (people.Person, error)
	Delete(ctx context.Context, id string) error
}

// Accounts hashes passwords and registers passkeys (internal/admin: one
// implementation for every person).
type Accounts interface {
	HashPassword(password string) (string, error)
	PasskeysAvailable() bool
	BeginPasskeyRegistration(ctx context.Context, userID, address string) (*protocol.CredentialCreation, string, error)
	FinishPasskeyRegistration(ctx context.Context, userID, tok, name string, credential json.RawMessage) (admin.Passkey, error)
	DeletePasskey(ctx context.Context, userID, id string) error
	// SessionsEnded ends the service sessions opened from the portal
	// sessions an accepted invitation or reset ended.
	SessionsEnded(ctx context.Context, ended admin.EndedSessions)
}

// Mailer sends mail to people (notify.Service).
type Mailer interface {
	SendMail(ctx context.Context, m mail.Message) error
	MailReady(ctx context.Context) bool
}

// Service manages invitations and password resets.
type Service struct {
	db       *gorm.DB
	now      func() time.Time
	bus      *change.Bus
	log      *slog.Logger
	people   People
	accounts Accounts
	mailer   Mailer
	linkBase func(ctx context.Context) (string, error)
	limits   resetLimits
	slots    chan struct{}
}

// Deps are the Service's collaborators. LinkBase is the address links in
// mail and on the People page start with: the portal's when one is set,
// else the panel's public address.
type Deps struct {
	DB       *gorm.DB
	Now      func() time.Time
	Bus      *change.Bus
	Logger   *slog.Logger
	People   People
	Accounts Accounts
	Mailer   Mailer
	LinkBase func(ctx context.Context) (string, error)
	// Limits tune the reset limiters (tests).
	Limits []ratelimit.Option
}

// NewService returns an invitations service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, now: d.Now, bus: d.Bus, log: d.Logger, people: d.People, accounts: d.Accounts,
		mailer: d.Mailer, linkBase: d.LinkBase, limits: newResetLimits(d.DB, d.Now, d.Limits...),
		slots: make(chan struct{}, 8)}
}

func stateOf(r store.Invitation, now time.Time) string {
	switch {
	case r.UsedAt != nil:
		return StateUsed
	case r.RevokedAt != nil:
		return StateRevoked
	case !now.Before(r.ExpiresAt):
		return StateExpired
	}
	return StatePending
}

func (s *Service) view(r store.Invitation) Invitation {
	return Invitation{ID: r.ID, PersonID: r.PersonID, Username: r.Username, Email: r.Email, State: stateOf(r, s.now()),
		CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC(), UsedAt: r.UsedAt, RevokedAt: r.RevokedAt}
}

// List returns the newest invitations first (at most MaxList).
func (s *Service) List(ctx context.Context) (List, error) {
	var rows []store.Invitation
	if err := s.db.WithContext(ctx).Order("created_at DESC, id").Limit(MaxList).Find(&rows).Error; err != nil {
		return List{}, fmt.Errorf("list invitations: %w", err)
	}
	out := List{Items: make([]Invitation, len(rows))}
	for i, r := range rows {
		out.Items[i] = s.view(r)
	}
	return out, nil
}

// MaxList bounds the list.
const MaxList = 500

// Create invites a person: they are created disabled (their username and
// e-mail are taken from now on) and the link enables them.
func (s *Service) Create(ctx context.Context, in CreateRequest) (Created, error) {
	ttl, err := normalCreate(&in)
	if err != nil {
		return Created{}, err
	}
	if in.Delivery == DeliveryEmail && (s.mailer == nil || !s.mailer.MailReady(ctx)) {
		return Created{}, apperr.Field("delivery", "needs an e-mail channel: choose one in the notification settings")
	}
	base, err := s.base(ctx)
	if err != nil {
		return Created{}, err
	}
	off := false
	p, err := s.people.Create(ctx, people.CreateRequest{Username: in.Username, Email: in.Email, DisplayName: in.DisplayName,
		PanelRole: in.PanelRole, Enabled: &off, Groups: in.Groups})
	if err != nil {
		return Created{}, err
	}
	tok, err := bearer.New()
	if err != nil {
		return Created{}, err
	}
	now := s.now()
	by := ""
	if a, ok := actor.From(ctx); ok {
		by = a.Name
	}
	row := store.Invitation{ID: store.NewID(), TokenHash: bearer.Hash(tok), PersonID: &p.ID, Username: p.Username,
		Email: p.Email, CreatedBy: by, Kind: KindInvitation, ExpiresAt: now.Add(ttl), CreatedAt: now}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		_ = s.people.Delete(ctx, p.ID)
		return Created{}, fmt.Errorf("store invitation: %w", err)
	}
	out := Created{Invitation: s.view(row), Link: base + "/invite/" + tok}
	audit.Changed(ctx, nil, out.Invitation)
	if in.Delivery == DeliveryEmail {
		if err := s.mailer.SendMail(ctx, inviteMail(p, out.Link, row.ExpiresAt)); err != nil {
			s.log.Warn("invitation not mailed", "invitation", row.ID, "err", err)
			return out, nil
		}
		out.Mailed = true
	}
	return out, nil
}

func (s *Service) base(ctx context.Context) (string, error) {
	if s.linkBase == nil {
		return "", apperr.InvalidRequest("set the panel's public address (PANEL_PUBLIC_URL) first: links need it")
	}
	b, err := s.linkBase(ctx)
	if err != nil || b == "" {
		return "", apperr.InvalidRequest("set the panel's public address (PANEL_PUBLIC_URL) first: links need it")
	}
	return strings.TrimRight(b, "/"), nil
}

// Revoke ends a pending invitation and removes the person it created,
// who never signed in.
func (s *Service) Revoke(ctx context.Context, id string) error {
	var row store.Invitation
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.NotFound("invitation")
		}
		return fmt.Errorf("find invitation: %w", err)
	}
	before := s.view(row)
	if row.UsedAt != nil {
		return apperr.Conflict("id", "this invitation was already used")
	}
	if row.RevokedAt != nil {
		return nil
	}
	now := s.now()
	res := s.db.WithContext(ctx).Model(&store.Invitation{}).Where("id = ? AND used_at IS NULL", id).
		Update("revoked_at", now)
	if res.Error != nil {
		return fmt.Errorf("revoke invitation: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.Conflict("id", "this invitation was already used")
	}
	if row.PersonID != nil {
		if err := s.people.Delete(ctx, *row.PersonID); err != nil && !apperr.IsCode(err, apperr.CodeNotFound) {
			return err
		}
	}
	row.RevokedAt = &now
	row.PersonID = nil
	audit.Changed(ctx, before, s.view(row))
	return nil
}

// pending finds the live invitation a token names; every other case
// (unknown, used, revoked, expired) is the same answer.
func (s *Service) pending(ctx context.Context, tok string) (store.Invitation, error) {
	gone := apperr.NotFound("invitation")
	if tok == "" || len(tok) > MaxToken {
		return store.Invitation{}, gone
	}
	var row store.Invitation
	err := s.db.WithContext(ctx).Where("token_hash = ?", bearer.Hash(tok)).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return store.Invitation{}, gone
	}
	if err != nil {
		return store.Invitation{}, fmt.Errorf("find invitation: %w", err)
	}
	if stateOf(row, s.now()) != StatePending || row.PersonID == nil {
		return store.Invitation{}, gone
	}
	return row, nil
}

// Preview returns what the invitation page shows.
func (s *Service) Preview(ctx context.Context, tok string) (Preview, error) {
	row, err := s.pending(ctx, tok)
	if err != nil {
		return Preview{}, err
	}
	var p store.Person
	if err := s.db.WithContext(ctx).Where("id = ?", *row.PersonID).Take(&p).Error; err != nil {
		return Preview{}, apperr.NotFound("invitation")
	}
	return Preview{Username: p.Username, DisplayName: p.DisplayName, Email: p.Email, ExpiresAt: row.ExpiresAt.UTC(),
		PasskeysAvailable: s.accounts.PasskeysAvailable()}, nil
}

// BeginPasskey starts registering a passkey for the invited person.
func (s *Service) BeginPasskey(ctx context.Context, tok, address string) (PasskeyOptions, error) {
	row, err := s.pending(ctx, tok)
	if err != nil {
		return PasskeyOptions{}, err
	}
	opts, ch, err := s.accounts.BeginPasskeyRegistration(ctx, *row.PersonID, address)
	if err != nil {
		return PasskeyOptions{}, err
	}
	return PasskeyOptions{Options: opts, Challenge: ch}, nil
}

// Accept uses the invitation: the passkey is registered first (the
// authenticator's answer is checked), then one conditional update claims
// the invitation, so of two accepts at once exactly one wins; the loser's
// passkey is taken back.
func (s *Service) Accept(ctx context.Context, in AcceptRequest) (Accepted, error) {
	var c apperr.Collector
	if in.Password == "" && in.Passkey == nil {
		c.Add("password", "choose a password or register a passkey")
	}
	if in.Password != "" {
		if msg := admin.PasswordProblem(in.Password); msg != "" {
			c.Add("password", "%s", msg)
		}
	}
	if in.Passkey != nil && (in.Passkey.Challenge == "" || len(in.Passkey.Challenge) > MaxToken) {
		c.Add("passkey.challenge", "is required")
	}
	if in.Passkey != nil && len(in.Passkey.Credential) > maxCredential {
		c.Add("passkey.credential", "must be at most %d bytes", maxCredential)
	}
	if err := c.Err(); err != nil {
		return Accepted{}, err
	}
	row, err := s.pending(ctx, in.Token)
	if err != nil {
		return Accepted{}, err
	}
	personID := *row.PersonID
	hash := ""
	if in.Password != "" {
		if hash, err = s.accounts.HashPassword(in.Password); err != nil {
			return Accepted{}, err
		}
	}
	var key admin.Passkey
	if in.Passkey != nil {
		if key, err = s.accounts.FinishPasskeyRegistration(ctx, personID, in.Passkey.Challenge, in.Passkey.Name,
			in.Passkey.Credential); err != nil {
			return Accepted{}, err
		}
	}
	now := s.now()
	var ended admin.EndedSessions
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&store.Invitation{}).
			Where("id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?", row.ID, now).
			Update("used_at", now)
		if res.Error != nil {
			return fmt.Errorf("use invitation: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("invitation")
		}
		ok, gone, err := people.SetSignInTx(tx, personID, hash, true, now)
		if err == nil && !ok {
			err = apperr.NotFound("invitation")
		}
		ended = gone
		return err
	})
	if err != nil {
		if key.ID != "" {
			_ = s.accounts.DeletePasskey(context.WithoutCancel(ctx), personID, key.ID)
		}
		return Accepted{}, err
	}
	s.accounts.SessionsEnded(ctx, ended)
	s.changed(personID)
	return Accepted{Username: row.Username}, nil
}

const maxCredential = 64 << 10

func (s *Service) changed(personID string) {
	s.bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: personID})
}
