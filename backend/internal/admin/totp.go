package admin

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// totpPeriod is the TOTP step; codes of the step before and after the
// current one are accepted too, for clocks a little apart.
const totpPeriod = 30

// totpIssuer names the panel in authenticator apps.
const totpIssuer = "Gatehouse"

// TOTPEnrolment is what an authenticator app needs: the secret (to type),
// the otpauth:// URL and the same URL as a QR code (a PNG data: URL).
type TOTPEnrolment struct {
	Secret string `json:"secret"`
	URL    string `json:"url"`
	QRCode string `json:"qrCode"`
}

// BeginTOTP starts (or restarts) TOTP enrolment with a new secret. It counts
// only once ConfirmTOTP saw a code from it.
func (s *Service) BeginTOTP(ctx context.Context, u User) (TOTPEnrolment, error) {
	var row store.AdminTOTP
	err := s.db.WithContext(ctx).Where("user_id = ?", u.ID).Take(&row).Error
	if err == nil && row.ConfirmedAt != nil {
		return TOTPEnrolment{}, apperr.Conflict("totp", "an authenticator app is already set up; remove it first")
	}
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return TOTPEnrolment{}, fmt.Errorf("find totp: %w", err)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: u.Username, Period: totpPeriod})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("generate totp secret: %w", err)
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("totp qr code: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return TOTPEnrolment{}, fmt.Errorf("totp qr code: %w", err)
	}
	sealed, err := s.tf.secrets.Seal(key.Secret())
	if err != nil {
		return TOTPEnrolment{}, err
	}
	row = store.AdminTOTP{UserID: u.ID, Secret: sealed, CreatedAt: s.now()}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ?", u.ID).Delete(&store.AdminTOTP{}).Error; err != nil {
			return err
		}
		return tx.Create(&row).Error
	})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("store totp secret: %w", err)
	}
	return TOTPEnrolment{
		Secret: key.Secret(), URL: key.URL(),
		QRCode: "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()),
	}, nil
}

// ConfirmTOTP turns TOTP on once code matches the new secret, and returns a
// fresh set of recovery codes (replacing any earlier ones), shown only now.
func (s *Service) ConfirmTOTP(ctx context.Context, u User, code string) ([]string, error) {
	var row store.AdminTOTP
	err := s.db.WithContext(ctx).Where("user_id = ? AND confirmed_at IS NULL", u.ID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, apperr.Conflict("totp", "no authenticator app is being set up; start again")
	}
	if err != nil {
		return nil, fmt.Errorf("find totp: %w", err)
	}
	secret, err := s.tf.secrets.Open(row.Secret)
	if err != nil {
		return nil, fmt.Errorf("open totp secret: %w", err)
	}
	step, ok := matchTOTP(secret, code, 0, s.now())
	if !ok {
		return nil, apperr.Field("code", "is wrong; check the app's clock and try the next code")
	}
	var codes []string
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		if err := tx.Model(&store.AdminTOTP{}).Where("user_id = ?", u.ID).
			Updates(map[string]any{"confirmed_at": now, "last_step": step}).Error; err != nil {
			return fmt.Errorf("confirm totp: %w", err)
		}
		codes, err = s.replaceRecoveryCodes(tx, u.ID)
		return err
	})
	return codes, err
}

// DisableTOTP removes the administrator's TOTP after checking their current
// password or a current code. A wrong one counts as a failed sign-in.
func (s *Service) DisableTOTP(ctx context.Context, u User, password, code, address string) error {
	if err := s.checkPasswordOrCode(ctx, u, password, code, address); err != nil {
		return err
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ?", u.ID).Delete(&store.AdminTOTP{}).Error; err != nil {
			return fmt.Errorf("delete totp: %w", err)
		}
		return s.dropOrphanRecoveryCodes(tx, u.ID)
	})
}

// verifyTOTP checks code against the administrator's confirmed secret and
// records its step, so the same code (or an older one) is refused next time.
// The step is advanced with a conditional update: two requests racing with
// one code cannot both win.
func (s *Service) verifyTOTP(ctx context.Context, userID, code string) (bool, error) {
	var row store.AdminTOTP
	err := s.db.WithContext(ctx).Where("user_id = ? AND confirmed_at IS NOT NULL", userID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("find totp: %w", err)
	}
	secret, err := s.tf.secrets.Open(row.Secret)
	if err != nil {
		return false, fmt.Errorf("open totp secret: %w", err)
	}
	step, ok := matchTOTP(secret, code, row.LastStep, s.now())
	if !ok {
		return false, nil
	}
	res := s.db.WithContext(ctx).Model(&store.AdminTOTP{}).Where("user_id = ? AND last_step < ?", userID, step).
		Update("last_step", step)
	if res.Error != nil {
		return false, fmt.Errorf("record totp step: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// matchTOTP returns the step (of now's, the one before or the one after)
// whose code is code, skipping steps up to and including last.
func matchTOTP(secret, code string, last int64, now time.Time) (int64, bool) {
	code = strings.Join(strings.Fields(code), "")
	if len(code) != 6 {
		return 0, false
	}
	cur := now.Unix() / totpPeriod
	for _, step := range []int64{cur - 1, cur, cur + 1} {
		if step <= last {
			continue
		}
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), totp.ValidateOpts{
			Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1,
		})
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}
