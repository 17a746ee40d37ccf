package admin

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// RecoveryCodeCount is how many recovery codes a set holds.
const RecoveryCodeCount = 10

// recoveryAlphabet leaves out 0, 1, l and o, which people misread.
const recoveryAlphabet = "23456789abcdefghijkmnpqrstuvwxyz"

// newRecoveryCode returns 16 characters of a 32-letter alphabet (80 bits),
// grouped by four: random enough that a plain SHA-256 hash stores it safely.
func newRecoveryCode() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	var sb strings.Builder
	for i, v := range b {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(recoveryAlphabet[int(v)%len(recoveryAlphabet)])
	}
	return sb.String()
}

// normalizeRecoveryCode ignores case, spaces and dashes.
func normalizeRecoveryCode(code string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(code)))
}

// replaceRecoveryCodes stores a new set of codes for the administrator,
// dropping the old set, and returns them (the only time they are readable).
func (s *Service) replaceRecoveryCodes(tx *gorm.DB, userID string) ([]string, error) {
	if err := tx.Where("user_id = ?", userID).Delete(&store.AdminRecoveryCode{}).Error; err != nil {
		return nil, fmt.Errorf("delete recovery codes: %w", err)
	}
	now := s.now()
	codes := make([]string, RecoveryCodeCount)
	rows := make([]store.AdminRecoveryCode, RecoveryCodeCount)
	for i := range codes {
		codes[i] = newRecoveryCode()
		rows[i] = store.AdminRecoveryCode{ID: store.NewID(), UserID: userID,
			CodeHash: bearer.Hash(normalizeRecoveryCode(codes[i])), CreatedAt: now}
	}
	if err := tx.Create(&rows).Error; err != nil {
		return nil, fmt.Errorf("store recovery codes: %w", err)
	}
	return codes, nil
}

// RegenerateRecoveryCodes replaces the administrator's recovery codes. They
// exist only beside a second factor.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, userID string) ([]string, error) {
	var codes []string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		has, err := hasSecondFactor(tx, userID)
		if err != nil {
			return err
		}
		if !has {
			return apperr.Conflict("recoveryCodes", "set up an authenticator app or a passkey first")
		}
		codes, err = s.replaceRecoveryCodes(tx, userID)
		return err
	})
	return codes, err
}

// useRecoveryCode spends one unused recovery code of the administrator.
func (s *Service) useRecoveryCode(ctx context.Context, userID, code string) (bool, error) {
	code = normalizeRecoveryCode(code)
	if code == "" {
		return false, nil
	}
	res := s.db.WithContext(ctx).Model(&store.AdminRecoveryCode{}).
		Where("user_id = ? AND code_hash = ? AND used_at IS NULL", userID, bearer.Hash(code)).
		Update("used_at", s.now())
	if res.Error != nil {
		return false, fmt.Errorf("use recovery code: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// dropOrphanRecoveryCodes deletes the recovery codes once no second factor
// is left: they would otherwise stand in for a factor that no longer exists.
func (s *Service) dropOrphanRecoveryCodes(tx *gorm.DB, userID string) error {
	has, err := hasSecondFactor(tx, userID)
	if err != nil || has {
		return err
	}
	if err := tx.Where("user_id = ?", userID).Delete(&store.AdminRecoveryCode{}).Error; err != nil {
		return fmt.Errorf("delete recovery codes: %w", err)
	}
	return nil
}
