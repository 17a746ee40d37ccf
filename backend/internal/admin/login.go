package admin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Login checks a password and opens a session, returning its token. Failures
// count against the username from this address and against the address
// alone; either reaching its limit answers rate_limited without checking the
// password. The username alone is never limited, so failures from one
// address do not stop its owner signing in from another.
func (s *Service) Login(ctx context.Context, username, password string, client Client) (User, string, error) {
	if s.passwords != nil {
		ok, err := s.passwords(ctx)
		if err != nil {
			return User{}, "", err
		}
		if !ok {
			return User{}, "", ErrLocalPasswordsOff
		}
	}
	if err := s.checkLimit(username, client.Address); err != nil {
		return User{}, "", err
	}
	var u store.Person
	err := s.db.WithContext(ctx).Where("username = ?", username).Take(&u).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, "", fmt.Errorf("find admin: %w", err)
	}
	hash := []byte(u.PasswordHash)
	if u.PasswordHash == "" { // no such user, or one who signs in only with SSO
		hash = s.dummyHash // same cost either way
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil || u.PasswordHash == "" {
		s.fail(username, client.Address)
		return User{}, "", apperr.Unauthenticated("wrong username or password")
	}
	if err := maySignIn(ctx, u); err != nil {
		return User{}, "", err
	}
	if err := s.requireSecondFactor(ctx, u, client); err != nil {
		return User{}, "", err // *SecondFactorRequired when a second factor is enrolled
	}
	// Only a complete sign-in clears the failures: a right password must not
	// wipe the wrong second-factor codes counted before it.
	s.byUser.Reset(userKey(username, client.Address))
	token, err := s.openSession(ctx, u.ID, client)
	if err != nil {
		return User{}, "", err
	}
	return toUser(u), token, nil
}

// ErrLocalPasswordsOff refuses password sign-in while the panel's sign-in is
// SSO only.
var ErrLocalPasswordsOff = apperr.Forbidden("sign-in with a password is turned off: sign in with SSO " +
	"(the command `gatehouse admin local-passwords on` turns passwords back on)")

func userKey(username, address string) string { return "user:" + username + "|ip:" + address }

func addressKey(address string) string { return "ip:" + address }

// checkLimit answers rate_limited while username is blocked from address or
// the address is blocked altogether.
func (s *Service) checkLimit(username, address string) error {
	_, waitUser := s.byUser.Blocked(userKey(username, address))
	_, waitAddr := s.byAddress.Blocked(addressKey(address))
	wait := max(waitUser, waitAddr)
	if wait <= 0 {
		return nil
	}
	return apperr.RateLimited("too many failed sign-in attempts; try again in "+minutes(wait), wait)
}

// fail records a failed sign-in (or a wrong current password).
func (s *Service) fail(username, address string) {
	s.byUser.Fail(userKey(username, address))
	s.byAddress.Fail(addressKey(address))
}

// minutes words a wait for people, to the nearest minute but at least one:
// "1 minute", "12 minutes". Retry-After carries the exact seconds.
func minutes(d time.Duration) string {
	n := int(d.Round(time.Minute) / time.Minute)
	if n <= 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}
