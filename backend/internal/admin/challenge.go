package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ChallengeCookie binds a pending sign-in or a WebAuthn ceremony to the
// browser that started it; the server keeps only the value's hash.
const ChallengeCookie = "gatehouse_admin_challenge"

// ChallengeTTL is how long a pending sign-in or ceremony lives.
const ChallengeTTL = 5 * time.Minute

const (
	purposeSecondFactor    = "second_factor"
	purposePasskeyLogin    = "passkey_login"
	purposePasskeyRegister = "passkey_register"
)

// newChallenge stores a challenge and returns the token for its cookie.
// Expired challenges are swept on the way.
func (s *Service) newChallenge(ctx context.Context, purpose, userID, address, data string) (string, error) {
	tok, err := bearer.New()
	if err != nil {
		return "", err
	}
	now := s.now()
	ch := store.AdminChallenge{
		ID: store.NewID(), TokenHash: bearer.Hash(tok), Purpose: purpose, Address: address, Data: data,
		ExpiresAt: now.Add(ChallengeTTL), CreatedAt: now,
	}
	if userID != "" {
		ch.UserID = &userID
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("expires_at <= ?", now).Delete(&store.AdminChallenge{}).Error; err != nil {
			return err
		}
		return tx.Create(&ch).Error
	})
	if err != nil {
		return "", fmt.Errorf("create sign-in challenge: %w", err)
	}
	return tok, nil
}

// challenge finds the unexpired challenge behind tok with one of purposes.
func (s *Service) challenge(ctx context.Context, tok string, purposes ...string) (store.AdminChallenge, error) {
	var ch store.AdminChallenge
	expired := apperr.Unauthenticated("this sign-in has expired; start again")
	if tok == "" {
		return ch, expired
	}
	err := s.db.WithContext(ctx).Where("token_hash = ? AND purpose IN ? AND expires_at > ?", bearer.Hash(tok), purposes, s.now()).
		Take(&ch).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ch, expired
	}
	if err != nil {
		return ch, fmt.Errorf("find sign-in challenge: %w", err)
	}
	return ch, nil
}

// takeChallenge deletes the challenge, failing when another request used it
// first: each challenge completes once.
func (s *Service) takeChallenge(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.AdminChallenge{})
	if res.Error != nil {
		return fmt.Errorf("delete sign-in challenge: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.Unauthenticated("this sign-in has expired; start again")
	}
	return nil
}

func challengeToken(c echo.Context) string {
	if ck, err := c.Cookie(ChallengeCookie); err == nil {
		return ck.Value
	}
	return ""
}

// setChallengeCookie writes (or, with maxAge -1, clears) the challenge
// cookie, scoped to the admin API.
func setChallengeCookie(c echo.Context, tok string, maxAge int) {
	c.SetCookie(&http.Cookie{ //nolint:gosec // Secure whenever the browser used https, as the session cookie
		Name: ChallengeCookie, Value: tok, Path: "/api/admin", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: c.Scheme() == "https",
	})
}
