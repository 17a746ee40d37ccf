package admin

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ChangePassword sets a signed-in administrator's new password after
// checking the current one, and ends every other session of theirs (keep is
// the current session). A wrong current password counts as a failed sign-in
// of that username from address.
func (s *Service) ChangePassword(ctx context.Context, u User, keep, current, next, address string) error {
	if err := s.checkLimit(u.Username, address); err != nil {
		return err
	}
	var row store.Person
	if err := s.db.WithContext(ctx).Where("id = ?", u.ID).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.Unauthenticated("session expired; sign in again")
		}
		return fmt.Errorf("find admin: %w", err)
	}
	var c apperr.Collector
	switch {
	case current == "":
		c.Add("currentPassword", "is required")
	case bcrypt.CompareHashAndPassword([]byte(row.PasswordHash), []byte(current)) != nil:
		s.fail(u.Username, address)
		c.Add("currentPassword", "is wrong")
	}
	if msg := passwordProblem(next); msg != "" {
		c.Add("newPassword", "%s", msg)
	}
	if err := c.Err(); err != nil {
		return err
	}
	return s.setPassword(ctx, u.ID, keep, next)
}

// ResetPassword sets an administrator's password without the current one
// (command-line recovery) and ends all of their sessions.
func (s *Service) ResetPassword(ctx context.Context, username, password string) (User, error) {
	if msg := passwordProblem(password); msg != "" {
		return User{}, apperr.Field("password", "%s", msg)
	}
	var row store.Person
	err := s.db.WithContext(ctx).Where("username = ?", username).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, apperr.NotFound(fmt.Sprintf("administrator %q", username))
	}
	if err != nil {
		return User{}, fmt.Errorf("find admin %q: %w", username, err)
	}
	if err := s.setPassword(ctx, row.ID, "", password); err != nil {
		return User{}, err
	}
	return User{ID: row.ID, Username: row.Username}, nil
}

// setPassword stores the hash of password and ends the administrator's
// sessions except keep, in one transaction. The hashes are computed first:
// bcrypt is slow and the write lock is not held meanwhile.
func (s *Service) setPassword(ctx context.Context, userID, keep, password string) error {
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	var ended EndedSessions
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&store.Person{}).Where("id = ?", userID).Updates(map[string]any{
			"password_hash": string(hash), "updated_at": s.now(),
		})
		if res.Error != nil {
			return fmt.Errorf("update admin password: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("administrator")
		}
		ended, err = endSessions(tx, userID, keep)
		return err
	})
	if err != nil {
		return err
	}
	s.SessionsEnded(ctx, ended)
	s.changed(userID)
	return nil
}
