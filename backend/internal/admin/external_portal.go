package admin

import (
	"context"
	"errors"
	"fmt"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// PortalExternal is an identity the OpenID provider vouched for, signing in
// on the portal.
type PortalExternal struct {
	Issuer, Subject string
	// Username is preferred_username as sent; Email the address only when
	// the provider verified it; Name the display name of a person made here.
	Username, Email, Name string
	// Create adds a person without a panel role when none is linked or
	// matches (the portal's "create people on first sign-in").
	Create bool
	// SecondFactor: the provider says the sign-in used more than one
	// factor (oidc.Identity.MultiFactor).
	SecondFactor bool
	// Linked runs inside the sign-in's transaction once the person is
	// known (the provider's group memberships); created says they are
	// new, newLink that this sign-in linked them to the provider.
	Linked func(tx *gorm.DB, personID string, created, newLink bool) error
}

// PortalExternalResult is a portal sign-in through the provider.
type PortalExternalResult struct {
	User  User
	Token string
	// Created: the person was made by this sign-in. NewLink: the person
	// was linked to the provider by it (by e-mail, name or creation).
	Created, NewLink bool
}

// SignInPortalExternal signs a person in on the portal with the provider's
// identity: the person linked to its issuer and subject; failing that, the
// unlinked person whose e-mail address is the provider's verified one, or
// (after the upgrade from per-service single sign-on) whose sso_username is
// the provider's preferred_username or subject; failing that, a new person
// when ext.Create is set. Unlike the panel's SSO sign-in, a username alone
// never links an existing person: a provider may let its users pick theirs.
// A disabled person is refused (ErrExternalDisabled), no match is
// ErrExternalUnknown. The portal session counts a second factor only when
// the provider says it used one; a person with factors of their own is not
// asked for them here (a service that requires one asks: step-up).
func (s *Service) SignInPortalExternal(ctx context.Context, ext PortalExternal, client Client) (PortalExternalResult, error) {
	if ext.Issuer == "" || ext.Subject == "" || !route.OnPortal(ctx) {
		return PortalExternalResult{}, ErrExternalUnknown
	}
	var out PortalExternalResult
	var u store.Person
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("sso_issuer = ? AND sso_subject = ?", ext.Issuer, ext.Subject).Take(&u).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			err = matchPortalUnlinked(tx, ext, &u)
			out.NewLink = err == nil
		}
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound) && ext.Create:
			u, err = s.createExternal(tx, External{Issuer: ext.Issuer, Subject: ext.Subject, Username: ext.Username,
				Email: ext.Email, Role: store.PanelRoleNone})
			if err != nil {
				return err
			}
			out.Created, out.NewLink = true, true
			now := s.now()
			u.SSOLinkedAt = &now
			if ext.Name != "" && ext.Name != u.Username && len([]rune(ext.Name)) <= 100 {
				u.DisplayName = ext.Name
			}
			if err := tx.Model(&u).Select("sso_linked_at", "display_name").Updates(&u).Error; err != nil {
				return fmt.Errorf("link person: %w", err)
			}
		case errors.Is(err, gorm.ErrRecordNotFound):
			return ErrExternalUnknown
		case err != nil:
			return fmt.Errorf("find person: %w", err)
		case u.DisabledAt != nil:
			return ErrExternalDisabled
		case out.NewLink:
			now := s.now()
			u.SSOIssuer, u.SSOSubject, u.SSOLinkedAt, u.SSOUsername, u.UpdatedAt = ext.Issuer, ext.Subject, &now, "", now
			if err := tx.Model(&u).Select("sso_issuer", "sso_subject", "sso_linked_at", "sso_username", "updated_at").
				Updates(&u).Error; err != nil {
				return fmt.Errorf("link person: %w", err)
			}
		}
		if ext.Linked != nil {
			return ext.Linked(tx, u.ID, out.Created, out.NewLink)
		}
		return nil
	})
	if err != nil {
		return PortalExternalResult{}, err
	}
	if out.NewLink {
		s.changed(u.ID)
	}
	if out.Token, err = s.createSession(ctx, u.ID, client, ext.SecondFactor); err != nil {
		return PortalExternalResult{}, err
	}
	out.User = toUser(u)
	return out, nil
}

// matchPortalUnlinked finds the unlinked person the provider's identity
// names: by verified e-mail address, else by the name the upgrade from
// per-service single sign-on recorded.
func matchPortalUnlinked(tx *gorm.DB, ext PortalExternal, u *store.Person) error {
	if ext.Email != "" {
		err := tx.Where("sso_subject = '' AND email <> '' AND lower(email) = lower(?)", ext.Email).
			Order("created_at, id").Take(u).Error
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
	}
	names := []string{ext.Subject}
	if ext.Username != "" {
		names = append(names, ext.Username)
	}
	for _, n := range names {
		err := tx.Where("sso_subject = '' AND sso_username <> '' AND lower(sso_username) = lower(?)", n).
			Order("created_at, id").Take(u).Error
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
	}
	return gorm.ErrRecordNotFound
}

// SetPortalSessionCookie writes the cookie of a portal session just opened,
// as a password sign-in on the portal does: kept across browser restarts
// for the remember-me length when asked, else ending with the browser.
func (s *Service) SetPortalSessionCookie(c echo.Context, token string, remember bool) {
	maxAge := 0
	if remember {
		maxAge = int(s.portalPolicy(c.Request().Context()).Remember.Seconds())
	}
	setCookie(c, token, maxAge)
}

// UnlinkExternal removes a person's link to the OpenID provider: their next
// sign-in with it links them again only by e-mail address (or creates a new
// person when that is allowed). It reports false when the person was not
// linked. Their sessions stay: unlinking is not disabling.
func (s *Service) UnlinkExternal(ctx context.Context, personID string) (bool, error) {
	res := s.db.WithContext(ctx).Model(&store.Person{}).Where("id = ? AND sso_subject <> ''", personID).
		Updates(map[string]any{"sso_issuer": "", "sso_subject": "", "sso_linked_at": nil, "updated_at": s.now()})
	if res.Error != nil {
		return false, fmt.Errorf("unlink person %s: %w", personID, res.Error)
	}
	if res.RowsAffected > 0 {
		s.changed(personID)
	}
	return res.RowsAffected > 0, nil
}
