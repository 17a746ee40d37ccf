package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// External is an identity the OpenID provider vouched for, with the role
// the panel's sign-in rules gave it.
type External struct {
	Issuer, Subject string
	Username, Email string // as the provider sent them; Email only when verified
	Role            actor.Role
	// Create adds an administrator when none is linked or matches.
	Create bool
}

// Errors of SignInExternal that the sign-in flow words for people.
var (
	ErrExternalUnknown  = errors.New("no administrator matches this identity")
	ErrExternalDisabled = errors.New("this administrator is disabled")
)

// SetSessionCookie writes the admin session cookie for token.
func SetSessionCookie(c echo.Context, token string) { setCookie(c, token, int(SessionTTL.Seconds())) }

// SignInExternal finds the administrator linked to the provider's issuer and
// subject; failing that, it links the first unlinked administrator whose
// username or email matches (once: later sign-ins use the link), or creates
// one when ext.Create is set. The administrator's role and email follow
// ext at every sign-in: the provider's rules are the source of truth. It
// then opens a session. Administrators created here have no password.
func (s *Service) SignInExternal(ctx context.Context, ext External, client Client) (User, string, error) {
	if ext.Issuer == "" || ext.Subject == "" {
		return User{}, "", ErrExternalUnknown
	}
	var u store.Person
	created := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("sso_issuer = ? AND sso_subject = ?", ext.Issuer, ext.Subject).Take(&u).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			err = matchUnlinked(tx, ext, &u)
		}
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound) && ext.Create:
			u, err = s.createExternal(tx, ext)
			created = err == nil
			return err
		case errors.Is(err, gorm.ErrRecordNotFound):
			return ErrExternalUnknown
		case err != nil:
			return fmt.Errorf("find administrator: %w", err)
		case u.DisabledAt != nil:
			return ErrExternalDisabled
		}
		email, err := freeEmail(tx, ext.Email, u.ID)
		if err != nil {
			return err
		}
		if email == "" && ext.Email != "" {
			email = u.Email // another person holds the provider's address
		}
		u.SSOIssuer, u.SSOSubject, u.Email, u.PanelRole, u.UpdatedAt = ext.Issuer, ext.Subject, email, string(ext.Role), s.now()
		return tx.Model(&u).Select("sso_issuer", "sso_subject", "email", "panel_role", "updated_at").Updates(&u).Error
	})
	if err != nil {
		return User{}, "", err
	}
	if created {
		s.changed(u.ID)
	}
	// The provider owns the second factor of its sign-ins: the panel does
	// not ask for its own on top.
	tok, err := s.openSession(withSecondFactor(ctx), u.ID, client)
	if err != nil {
		return User{}, "", err
	}
	return toUser(u), tok, nil
}

// matchUnlinked finds an administrator not yet linked to the provider whose
// username (case-insensitive), else email, is the identity's.
func matchUnlinked(tx *gorm.DB, ext External, u *store.Person) error {
	q := tx.Where("sso_subject = ''")
	if ext.Username != "" {
		err := q.Where("lower(username) = lower(?)", ext.Username).Order("created_at, id").Take(u).Error
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
	}
	if ext.Email == "" {
		return gorm.ErrRecordNotFound
	}
	return tx.Where("sso_subject = '' AND email <> '' AND lower(email) = lower(?)", ext.Email).
		Order("created_at, id").Take(u).Error
}

func (s *Service) createExternal(tx *gorm.DB, ext External) (store.Person, error) {
	base := externalUsername(ext)
	for i := 1; i <= 10; i++ {
		name := base
		if i > 1 {
			suffix := "-" + strconv.Itoa(i)
			name = base[:min(len(base), 64-len(suffix))] + suffix
		}
		var n int64
		if err := tx.Model(&store.Person{}).Where("lower(username) = lower(?)", name).Count(&n).Error; err != nil {
			return store.Person{}, fmt.Errorf("check username: %w", err)
		}
		if n > 0 {
			continue
		}
		email, err := freeEmail(tx, ext.Email, "")
		if err != nil {
			return store.Person{}, err
		}
		now := s.now()
		u := store.Person{ID: store.NewID(), Username: name, PanelRole: string(ext.Role), Email: email,
			SSOIssuer: ext.Issuer, SSOSubject: ext.Subject, CreatedAt: now, UpdatedAt: now}
		if err := tx.Create(&u).Error; err != nil {
			return store.Person{}, fmt.Errorf("create administrator %q: %w", name, err)
		}
		return u, nil
	}
	return store.Person{}, fmt.Errorf("create administrator: no free username near %q", base)
}

// externalUsername derives a valid username from preferred_username, else
// the email address, else the subject's hash: characters a username may not
// hold become "-".
func externalUsername(ext External) string {
	for _, cand := range []string{ext.Username, ext.Email} {
		var b strings.Builder
		for _, r := range cand {
			if r < 128 && usernameRE.MatchString(string(r)) {
				b.WriteRune(r)
			} else {
				b.WriteByte('-')
			}
		}
		name := strings.Trim(b.String(), "-.")
		if len(name) > 64 {
			name = name[:64]
		}
		if name != "" && usernameRE.MatchString(name) {
			return name
		}
	}
	sum := sha256.Sum256([]byte(ext.Issuer + "\x00" + ext.Subject))
	return "sso-" + hex.EncodeToString(sum[:6])
}

// freeEmail returns email when no person but self holds it (an address
// names one person), else "": the provider's address is then not copied.
func freeEmail(tx *gorm.DB, email, self string) (string, error) {
	if email == "" {
		return "", nil
	}
	var n int64
	if err := tx.Model(&store.Person{}).Where("email <> '' AND lower(email) = lower(?) AND id <> ?", email, self).
		Count(&n).Error; err != nil {
		return "", fmt.Errorf("check e-mail: %w", err)
	}
	if n > 0 {
		return "", nil
	}
	return email, nil
}
