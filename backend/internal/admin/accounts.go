package admin

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The people directory (internal/people) manages who exists; this package
// keeps what proves who someone is: passwords, second factors and
// sessions. These methods are the directory's way in, so one
// implementation serves every person.

// ErrNoPanelRole refuses a panel sign-in to a person without a panel role.
var ErrNoPanelRole = apperr.Forbidden("this account has no access to the panel: " +
	"an administrator can give it the admin or viewer role")

// errDisabled refuses a disabled person's sign-in.
var errDisabled = apperr.Forbidden("this account is disabled")

// mayUsePanel says why u may not sign in to the panel, or nil.
func mayUsePanel(u store.Person) error {
	if u.DisabledAt != nil {
		return errDisabled
	}
	if !actor.Role(u.PanelRole).Valid() {
		return ErrNoPanelRole
	}
	return nil
}

// PasswordProblem says what is wrong with a new password, or "".
func PasswordProblem(password string) string { return passwordProblem(password) }

// ValidUsername reports whether name is a valid username.
func ValidUsername(name string) bool { return usernameRE.MatchString(name) }

// HashPassword returns the stored form of a new password.
func (s *Service) HashPassword(password string) (string, error) {
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(hash), nil
}

// SetPassword sets a person's password without the current one (an
// administrator's reset) and ends all of their sessions.
func (s *Service) SetPassword(ctx context.Context, personID, password string) error {
	if msg := passwordProblem(password); msg != "" {
		return apperr.Field("password", "%s", msg)
	}
	return s.setPassword(ctx, personID, "", password)
}

// EndSessionsTx ends every session of the person inside tx, the caller's
// transaction (disabling or deleting someone, taking away their panel
// role). Once tx commits, pass what it returns to Service.SessionsEnded.
func EndSessionsTx(tx *gorm.DB, personID string) (EndedSessions, error) {
	return endSessions(tx, personID, "")
}

// PersonSessions lists every unexpired session of a person, on the panel
// and on the portal, newest first (the directory's view of a person).
func (s *Service) PersonSessions(ctx context.Context, personID string) ([]Session, error) {
	return s.listSessions(s.db.WithContext(ctx).Where("user_id = ?", personID), "")
}

// EndPersonSession ends one session of a person, on the panel or on the
// portal; another person's session is not found.
func (s *Service) EndPersonSession(ctx context.Context, personID, id string) error {
	n, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("id = ? AND user_id = ?", id, personID))
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("session")
	}
	return nil
}

// EndAllSessions ends every session of a person, on the panel and on the
// portal, and the service sessions opened from the portal's.
func (s *Service) EndAllSessions(ctx context.Context, personID string) error {
	_, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("user_id = ?", personID))
	return err
}

// ResetSecondFactor removes a person's TOTP, passkeys and recovery codes
// and ends their sessions, in one transaction: someone who lost their
// authenticator signs in with their password and enrols again.
func (s *Service) ResetSecondFactor(ctx context.Context, personID string) error {
	var ended EndedSessions
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, m := range []any{&store.AdminTOTP{}, &store.AdminPasskey{}, &store.AdminRecoveryCode{}} {
			if err := tx.Where("user_id = ?", personID).Delete(m).Error; err != nil {
				return fmt.Errorf("remove second factors: %w", err)
			}
		}
		var err error
		ended, err = endSessions(tx, personID, "")
		return err
	})
	if err != nil {
		return err
	}
	s.SessionsEnded(ctx, ended)
	s.changed(personID)
	return nil
}

// Factors is what a person signs in with, without any secret.
type Factors struct {
	Password      bool `json:"password"`
	TOTP          bool `json:"totp"`
	Passkeys      int  `json:"passkeys"`
	RecoveryCodes int  `json:"recoveryCodes"` // unused ones
}

// FactorsOf returns the factors of each person in ids.
func (s *Service) FactorsOf(ctx context.Context, ids []string) (map[string]Factors, error) {
	out := make(map[string]Factors, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	db := s.db.WithContext(ctx)
	var people []store.Person
	if err := db.Select("id", "password_hash").Where("id IN ?", ids).Find(&people).Error; err != nil {
		return nil, fmt.Errorf("read passwords: %w", err)
	}
	for _, p := range people {
		out[p.ID] = Factors{Password: p.PasswordHash != ""}
	}
	var totp []store.AdminTOTP
	if err := db.Select("user_id").Where("user_id IN ? AND confirmed_at IS NOT NULL", ids).Find(&totp).Error; err != nil {
		return nil, fmt.Errorf("read TOTP enrolments: %w", err)
	}
	for _, t := range totp {
		f := out[t.UserID]
		f.TOTP = true
		out[t.UserID] = f
	}
	var keys []store.AdminPasskey
	if err := db.Select("user_id").Where("user_id IN ?", ids).Find(&keys).Error; err != nil {
		return nil, fmt.Errorf("read passkeys: %w", err)
	}
	for _, k := range keys {
		f := out[k.UserID]
		f.Passkeys++
		out[k.UserID] = f
	}
	var codes []store.AdminRecoveryCode
	if err := db.Select("user_id").Where("user_id IN ? AND used_at IS NULL", ids).Find(&codes).Error; err != nil {
		return nil, fmt.Errorf("read recovery codes: %w", err)
	}
	for _, c := range codes {
		f := out[c.UserID]
		f.RecoveryCodes++
		out[c.UserID] = f
	}
	return out, nil
}

// LastSignIns maps people to the opening time of their newest live session
// (only those in ids). Live sessions are few (one per browser, twelve hours
// idle at most), so they are read whole rather than through MAX(), which
// hands back SQLite's stored text, not a time.
func (s *Service) LastSignIns(ctx context.Context, ids []string) (map[string]time.Time, error) {
	out := make(map[string]time.Time, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []store.AdminSession
	if err := s.db.WithContext(ctx).Select("user_id", "created_at").
		Where("expires_at > ? AND user_id IN ?", s.now(), ids).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list sign-ins: %w", err)
	}
	for _, r := range rows {
		if at, ok := out[r.UserID]; !ok || r.CreatedAt.After(at) {
			out[r.UserID] = r.CreatedAt.UTC()
		}
	}
	return out, nil
}
