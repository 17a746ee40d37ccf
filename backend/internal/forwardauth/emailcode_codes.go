package forwardauth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Limits of the e-mail code protection (Pangolin #93, #857 and #1386 are
// brute-force bugs in exactly this feature: every way to try a code is
// counted).
const (
	// EmailCodeTTL is how long a code works.
	EmailCodeTTL = 10 * time.Minute
	// EmailCodeAttempts is how many wrong tries a code survives.
	EmailCodeAttempts = 5
	// Per window: codes sent to one address of one service, and asked for
	// from one client address.
	EmailSendsPerAddress = 5
	EmailSendsPerIP      = 20
	// Per window: wrong codes for one address of one service, and from one
	// client address.
	EmailFailuresPerAddress = 10
	EmailFailuresPerIP      = 20
	EmailLimitWindow        = 15 * time.Minute
	// emailCodeKeyPurpose derives the key codes are hashed with.
	emailCodeKeyPurpose = "gatehouse forward-auth e-mail codes v1"
)

// emailCodeRow is an email_codes row: one code, by its keyed hash.
type emailCodeRow struct {
	ID        string
	ServiceID string
	Email     string
	CodeHash  string
	Attempts  int
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

func (emailCodeRow) TableName() string { return "email_codes" }

// newCode draws six uniform digits.
func newCode() (string, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		// Rejection sampling keeps every code equally likely.
		v := binary.BigEndian.Uint64(b[:])
		if v < (1<<64-1)/1_000_000*1_000_000 {
			return fmt.Sprintf("%06d", v%1_000_000), nil
		}
	}
}

// codeHash is a keyed hash of a code, bound to its row, service and
// address: a copy of the table alone does not give the codes back, even by
// trying all million.
func (s *Service) codeHash(id, serviceID, email, code string) string {
	m := hmac.New(sha256.New, s.codeKey)
	for _, part := range [...]string{id, serviceID, email, code} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// issueCode replaces the address's codes for the service with a new one
// and returns it.
func (s *Service) issueCode(ctx context.Context, serviceID, email string) (string, error) {
	code, err := newCode()
	if err != nil {
		return "", err
	}
	now := s.now()
	row := emailCodeRow{ID: store.NewID(), ServiceID: serviceID, Email: email, ExpiresAt: now.Add(EmailCodeTTL), CreatedAt: now}
	row.CodeHash = s.codeHash(row.ID, serviceID, email, code)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("service_id = ? AND email = ?", serviceID, email).Delete(&emailCodeRow{}).Error; err != nil {
			return err
		}
		return tx.Create(&row).Error
	})
	if err != nil {
		return "", fmt.Errorf("store e-mail code: %w", err)
	}
	return code, nil
}

var errWrongCode = errors.New("wrong or expired code")

// useCode checks a code for the address and uses it up. A wrong code
// counts against the live code, which goes once it has had
// EmailCodeAttempts wrong tries; errWrongCode covers every failure alike
// (no code, expired, used, wrong).
func (s *Service) useCode(ctx context.Context, serviceID, email, code string) error {
	now := s.now()
	ok := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row emailCodeRow
		err := tx.Where("service_id = ? AND email = ? AND used_at IS NULL AND expires_at > ? AND attempts < ?",
			serviceID, email, now, EmailCodeAttempts).Order("created_at DESC").Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("load e-mail code: %w", err)
		}
		want := s.codeHash(row.ID, serviceID, email, code)
		if !validCodeShape(code) || !hmac.Equal([]byte(want), []byte(row.CodeHash)) {
			// The count commits; the answer is a refusal.
			if row.Attempts+1 >= EmailCodeAttempts {
				err = tx.Delete(&row).Error
			} else {
				err = tx.Model(&row).Where("attempts = ?", row.Attempts).Update("attempts", row.Attempts+1).Error
			}
			if err != nil {
				return fmt.Errorf("count e-mail code attempt: %w", err)
			}
			return nil
		}
		// The conditional update is the one-use guarantee under concurrency.
		res := tx.Model(&emailCodeRow{}).Where("id = ? AND used_at IS NULL", row.ID).Update("used_at", now)
		if res.Error != nil {
			return fmt.Errorf("use e-mail code: %w", res.Error)
		}
		ok = res.RowsAffected == 1
		return nil
	})
	switch {
	case err != nil:
		return err
	case !ok:
		return errWrongCode
	}
	return nil
}

func validCodeShape(code string) bool {
	if len(code) != 6 {
		return false
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return false
		}
	}
	return true
}

// sweepCodes deletes expired and used codes.
func (s *Service) sweepCodes(ctx context.Context) error {
	err := s.db.WithContext(ctx).Where("expires_at <= ? OR used_at IS NOT NULL", s.now()).Delete(&emailCodeRow{}).Error
	if err != nil {
		return fmt.Errorf("sweep e-mail codes: %w", err)
	}
	return nil
}
