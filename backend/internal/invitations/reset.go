package invitations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Reset request limits: per username or address asked for, and per client
// address, shared by every replica.
const (
	ResetsPerLogin   = 3
	ResetsPerIP      = 10
	ResetLimitWindow = time.Hour
	// MaxLogin bounds the username or address before it reaches a limiter.
	MaxLogin = people.MaxEmail
)

type resetLimits struct{ login, ip, regEmail, regIP *ratelimit.Limiter }

func newResetLimits(db *gorm.DB, now func() time.Time, opts ...ratelimit.Option) resetLimits {
	return resetLimits{
		login:    ratelimit.Shared(db, "password-reset-login", ResetsPerLogin, ResetLimitWindow, now, opts...),
		ip:       ratelimit.Shared(db, "password-reset-ip", ResetsPerIP, ResetLimitWindow, now, opts...),
		regEmail: ratelimit.Shared(db, "registration-email", RegistrationsPerEmail, ResetLimitWindow, now, opts...),
		regIP:    ratelimit.Shared(db, "registration-ip", RegistrationsPerIP, ResetLimitWindow, now, opts...),
	}
}

// ResetAvailable says whether password reset is offered: only when mail
// can be sent.
func (s *Service) ResetAvailable(ctx context.Context) bool {
	return s.mailer != nil && s.mailer.MailReady(ctx)
}

// normalLogin bounds and folds a username or address as the limiter keys it.
func normalLogin(login string) (string, error) {
	login = strings.ToLower(strings.TrimSpace(login))
	if login == "" {
		return "", apperr.Field("login", "is required")
	}
	if len(login) > MaxLogin {
		return "", apperr.Field("login", "must be at most %d characters", MaxLogin)
	}
	for _, r := range login {
		if r < 0x20 || r == 0x7f {
			return "", apperr.Field("login", "must not contain control characters")
		}
	}
	return login, nil
}

// Forgot asks for a reset link. The answer never depends on whether the
// account exists: the lookup and the mail happen off the request.
func (s *Service) Forgot(ctx context.Context, login, ip string) error {
	if !s.ResetAvailable(ctx) {
		return apperr.NotFound("password reset")
	}
	login, err := normalLogin(login)
	if err != nil {
		return err
	}
	if blocked, wait := s.limits.login.Blocked(login); blocked {
		return apperr.RateLimited("Too many reset links were asked for this account. Wait and try again.", wait)
	}
	if blocked, wait := s.limits.ip.Blocked(ip); blocked {
		return apperr.RateLimited("Too many reset links were asked from your network. Wait and try again.", wait)
	}
	s.limits.login.Fail(login)
	s.limits.ip.Fail(ip)
	select {
	case s.slots <- struct{}{}:
	default:
		s.log.Warn("password reset not sent: too many mails in flight")
		return nil
	}
	go func() {
		defer func() { <-s.slots }()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := s.sendReset(ctx, login); err != nil {
			s.log.Warn("password reset not sent", "err", err)
		}
	}()
	return nil
}

// Settle waits until every reset being mailed is done (tests, shutdown).
func (s *Service) Settle() {
	for i := 0; i < cap(s.slots); i++ {
		s.slots <- struct{}{}
	}
	for i := 0; i < cap(s.slots); i++ {
		<-s.slots
	}
}

func (s *Service) sendReset(ctx context.Context, login string) error {
	var p store.Person
	err := s.db.WithContext(ctx).
		Where("(lower(username) = ? OR lower(email) = ?) AND email <> '' AND disabled_at IS NULL", login, login).
		Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil // no such account: no mail, same answer
	}
	if err != nil {
		return fmt.Errorf("find person: %w", err)
	}
	base, err := s.base(ctx)
	if err != nil {
		return err
	}
	tok, err := bearer.New()
	if err != nil {
		return err
	}
	now := s.now()
	row := store.PasswordReset{TokenHash: bearer.Hash(tok), PersonID: p.ID, ExpiresAt: now.Add(ResetTTL), CreatedAt: now}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("store password reset: %w", err)
	}
	return s.mailer.SendMail(ctx, resetMail(p, base+"/reset-password/"+tok))
}

// CheckReset says whether a reset token still works.
func (s *Service) CheckReset(ctx context.Context, tok string) error {
	_, err := s.liveReset(s.db.WithContext(ctx), tok)
	return err
}

func (s *Service) liveReset(db *gorm.DB, tok string) (store.PasswordReset, error) {
	gone := apperr.NotFound("password reset")
	if tok == "" || len(tok) > MaxToken {
		return store.PasswordReset{}, gone
	}
	var row store.PasswordReset
	err := db.Where("token_hash = ? AND used_at IS NULL AND expires_at > ?", bearer.Hash(tok), s.now()).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return store.PasswordReset{}, gone
	}
	if err != nil {
		return store.PasswordReset{}, fmt.Errorf("find password reset: %w", err)
	}
	return row, nil
}

// Reset sets a new password with a reset token, once, and ends every
// session of the person.
func (s *Service) Reset(ctx context.Context, in ResetRequest) error {
	if msg := admin.PasswordProblem(in.Password); msg != "" {
		return apperr.Field("password", "%s", msg)
	}
	row, err := s.liveReset(s.db.WithContext(ctx), in.Token)
	if err != nil {
		return err
	}
	hash, err := s.accounts.HashPassword(in.Password)
	if err != nil {
		return err
	}
	now := s.now()
	var ended admin.EndedSessions
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&store.PasswordReset{}).
			Where("token_hash = ? AND used_at IS NULL AND expires_at > ?", row.TokenHash, now).Update("used_at", now)
		if res.Error != nil {
			return fmt.Errorf("use password reset: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("password reset")
		}
		// Every other link mailed to this person stops working too.
		if err := tx.Model(&store.PasswordReset{}).Where("person_id = ? AND used_at IS NULL", row.PersonID).
			Update("used_at", now).Error; err != nil {
			return fmt.Errorf("end password resets: %w", err)
		}
		ok, gone, err := people.SetSignInTx(tx, row.PersonID, hash, false, now)
		if err == nil && !ok {
			err = apperr.NotFound("password reset")
		}
		ended = gone
		return err
	})
	if err != nil {
		return err
	}
	s.accounts.SessionsEnded(ctx, ended)
	s.changed(row.PersonID)
	return nil
}
