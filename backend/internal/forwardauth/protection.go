package forwardauth

import (
	"context"
	"fmt"
	"slices"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Protection is every protection of one service in one document: what GET
// and PUT /api/services/{id}/protection read and write. On a PUT a section
// left out (null) is left as it is, so a client that does not know a newer
// section never changes it.
type Protection struct {
	BasicAuth   *BasicAuthProtection   `json:"basicAuth"`
	SSO         *SSOProtection         `json:"sso"`
	SharedLinks *SharedLinksProtection `json:"sharedLinks"`
	Tokens      *TokensProtection      `json:"tokens"`
	EmailCode   *EmailCodeProtection   `json:"emailCode"`
	People      *PeopleProtection      `json:"people"`
}

// EmailCodeProtection lets in visitors who receive a code at an allowed
// address (see emailcode.go).
type EmailCodeProtection struct {
	Enabled        bool     `json:"enabled"`
	AllowedEmails  []string `json:"allowedEmails" validate:"max=500,dive,max=256"`
	SessionSeconds int64    `json:"sessionSeconds"`
}

// BasicAuthProtection asks for a username and password of a credential set.
type BasicAuthProtection struct {
	Enabled bool `json:"enabled"`
	// CredentialSetID is required when enabled; kept as it was when
	// disabled and left empty.
	CredentialSetID string `json:"credentialSetId" validate:"max=64"`
}

// SSOProtection admits people signed in with the OpenID provider.
type SSOProtection struct {
	Enabled bool     `json:"enabled"`
	Users   []string `json:"users" validate:"max=500,dive,min=1,max=256"`
	Groups  []string `json:"groups" validate:"max=500,dive,min=1,max=256"`
}

// SharedLinksProtection lets one-use links be made for the service.
type SharedLinksProtection struct {
	Enabled bool `json:"enabled"`
}

// TokensProtection admits the service's machine tokens.
type TokensProtection struct {
	Enabled bool   `json:"enabled"`
	Header  string `json:"header" validate:"max=100"`
}

// GetProtection returns a service's protections as one document; a
// protection never set is a disabled section.
func (s *Service) GetProtection(ctx context.Context, serviceID string) (Protection, error) {
	if _, err := s.loadService(ctx, serviceID); err != nil {
		return Protection{}, err
	}
	var rows []store.SecurityConfig
	if err := s.db.WithContext(ctx).Where("service_id = ?", serviceID).Find(&rows).Error; err != nil {
		return Protection{}, fmt.Errorf("list security configs: %w", err)
	}
	return toProtection(rows), nil
}

func toProtection(rows []store.SecurityConfig) Protection {
	p := Protection{BasicAuth: &BasicAuthProtection{}, SSO: &SSOProtection{Users: []string{}, Groups: []string{}},
		SharedLinks: &SharedLinksProtection{}, Tokens: &TokensProtection{},
		EmailCode: &EmailCodeProtection{AllowedEmails: []string{}, SessionSeconds: DefaultEmailSessionSeconds},
		People:    &PeopleProtection{People: []string{}, Groups: []string{}}}
	for _, r := range rows {
		switch r.Type {
		case store.SecurityBasicAuth:
			p.BasicAuth.Enabled = r.Enabled
			if r.CredentialSetID != nil {
				p.BasicAuth.CredentialSetID = *r.CredentialSetID
			}
		case store.SecuritySSO:
			st := decodeSSOSettings(r.Settings.V)
			p.SSO.Enabled, p.SSO.Users, p.SSO.Groups = r.Enabled, st.Users, st.Groups
		case store.SecuritySharedLinks:
			p.SharedLinks.Enabled = r.Enabled
		case store.SecurityTokens:
			p.Tokens.Enabled, p.Tokens.Header = r.Enabled, decodeTokenHeader(r.Settings.V)
		case store.SecurityEmailCode:
			st := decodeEmailCodeSettings(r.Settings.V)
			p.EmailCode.Enabled, p.EmailCode.AllowedEmails, p.EmailCode.SessionSeconds = r.Enabled, st.Allowed, st.SessionSeconds
		case store.SecurityPeople:
			st := decodePeopleSettings(r.Settings.V)
			p.People = &PeopleProtection{Enabled: r.Enabled, People: st.People, Groups: st.Groups,
				SecondFactor: st.SecondFactor, MaxAgeSeconds: st.MaxAgeSeconds}
		}
	}
	return p
}

// PutProtection saves every section of req in one transaction: all of
// them or, on any error, none (field errors are named by their path in the
// document, such as sso.users[1] or basicAuth.credentialSetId). A section
// equal to what is stored is not written, so saving the form after an edit
// of one section does not end sessions another section opened. Otherwise
// the rules of UpsertSecurityConfig hold: any change ends the service's
// sessions, except an edit of a live SSO protection's lists.
func (s *Service) PutProtection(ctx context.Context, serviceID string, req Protection) (Protection, error) {
	if req.SSO != nil && req.SSO.Enabled {
		// Per-service single sign-on is replaced by the people
		// protection: a section that only repeats what an older release
		// left (a form saved whole) passes, one that turns it on or
		// changes its lists does not.
		cur, err := s.GetProtection(ctx, serviceID)
		if err != nil {
			return Protection{}, err
		}
		if !cur.SSO.Enabled || !slices.Equal(cleanList(req.SSO.Users), cur.SSO.Users) || !slices.Equal(cleanList(req.SSO.Groups), cur.SSO.Groups) {
			return Protection{}, errSSOReplaced("sso.enabled")
		}
	}
	if req.SSO != nil {
		if err := prefixFields("sso.", checkSSOUsers(req.SSO.Users)); err != nil {
			return Protection{}, err
		}
	}
	issuer, err := s.ssoIssuer(ctx, req.SSO != nil)
	if err != nil {
		return Protection{}, err
	}
	var out Protection
	var endSessions, changed bool
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if _, err := s.loadServiceTx(tx, serviceID); err != nil {
			return err
		}
		var rows []store.SecurityConfig
		if err := tx.Where("service_id = ?", serviceID).Find(&rows).Error; err != nil {
			return fmt.Errorf("list security configs: %w", err)
		}
		stored := toProtection(rows)
		exists := map[string]bool{}
		var storedIssuer string
		for _, r := range rows {
			exists[r.Type] = true
			if r.Type == store.SecuritySSO {
				storedIssuer = decodeSSOSettings(r.Settings.V).Issuer
			}
		}
		// A list saved under another provider is saved again under this
		// one (its sub: entries name that provider's subjects), as
		// docs/protect-services.md tells after switching providers.
		reissue := issuer != "" && storedIssuer != issuer
		for _, sec := range protectionSections(req, stored, exists, reissue) {
			if !sec.write {
				continue
			}
			changed = true
			if sec.disableOnly {
				if err := tx.Model(&store.SecurityConfig{}).Where("service_id = ? AND type = ?", serviceID, sec.req.Type).
					Updates(map[string]any{"enabled": false, "updated_at": s.now()}).Error; err != nil {
					return fmt.Errorf("disable %s: %w", sec.req.Type, err)
				}
				endSessions = true
				continue
			}
			_, end, err := s.upsertTx(tx, serviceID, sec.req, issuer, sec.prefix)
			if err != nil {
				return err
			}
			// A protection off before and after changes no one's access.
			endSessions = endSessions || end && (sec.wasEnabled || *sec.req.Enabled)
		}
		if endSessions {
			if err := tx.Where("service_id = ?", serviceID).Delete(&store.Session{}).Error; err != nil {
				return fmt.Errorf("end sessions: %w", err)
			}
		}
		rows = nil
		if err := tx.Where("service_id = ?", serviceID).Find(&rows).Error; err != nil {
			return fmt.Errorf("reload security configs: %w", err)
		}
		out = toProtection(rows)
		return nil
	})
	if err != nil {
		return Protection{}, err
	}
	if changed {
		s.afterSecurityChange(serviceID, endSessions)
	}
	return out, nil
}

// section is one protection of a PUT: whether it must be written, and how.
type section struct {
	req         SecurityConfigRequest
	prefix      string
	write       bool
	disableOnly bool // turn off, keeping its other settings
	wasEnabled  bool
}

func protectionSections(req, stored Protection, exists map[string]bool, reissue bool) []section {
	var out []section
	// A section is written when it differs from what is stored and is on,
	// was stored before, or carries settings to keep while off.
	add := func(typ, prefix string, enabled, same, wasEnabled, settings bool, r SecurityConfigRequest) {
		r.Type, r.Enabled = typ, &enabled
		out = append(out, section{req: r, prefix: prefix, wasEnabled: wasEnabled,
			write: !same && (enabled || exists[typ] || settings)})
	}
	if b := req.BasicAuth; b != nil {
		same := b.Enabled == stored.BasicAuth.Enabled && (b.CredentialSetID == stored.BasicAuth.CredentialSetID || !b.Enabled && b.CredentialSetID == "")
		r := SecurityConfigRequest{}
		if b.CredentialSetID != "" {
			r.CredentialSetID = &b.CredentialSetID
		}
		add(store.SecurityBasicAuth, "basicAuth.", b.Enabled, same, stored.BasicAuth.Enabled, b.CredentialSetID != "", r)
		out[len(out)-1].disableOnly = !b.Enabled && b.CredentialSetID == ""
	}
	if o := req.SSO; o != nil {
		same := o.Enabled == stored.SSO.Enabled && slices.Equal(cleanList(o.Users), stored.SSO.Users) &&
			slices.Equal(cleanList(o.Groups), stored.SSO.Groups) && (!reissue || !exists[store.SecuritySSO])
		add(store.SecuritySSO, "sso.", o.Enabled, same, stored.SSO.Enabled, len(o.Users)+len(o.Groups) > 0,
			SecurityConfigRequest{Users: o.Users, Groups: o.Groups})
	}
	if l := req.SharedLinks; l != nil {
		add(store.SecuritySharedLinks, "sharedLinks.", l.Enabled, l.Enabled == stored.SharedLinks.Enabled,
			stored.SharedLinks.Enabled, false, SecurityConfigRequest{})
	}
	if t := req.Tokens; t != nil {
		h, err := tokenHeader(t.Header)
		same := err == nil && t.Enabled == stored.Tokens.Enabled && h == stored.Tokens.Header
		add(store.SecurityTokens, "tokens.", t.Enabled, same, stored.Tokens.Enabled, t.Header != "",
			SecurityConfigRequest{Header: t.Header})
		if err != nil { // a header never accepted is refused, even switched off
			out[len(out)-1].write, out[len(out)-1].disableOnly = true, false
		}
	}
	if e := req.EmailCode; e != nil {
		st, err := checkEmailCodeSettings(e.AllowedEmails, e.SessionSeconds)
		allowed, _ := st["allowed"].([]string)
		secs, _ := st["sessionSeconds"].(int64)
		same := err == nil && e.Enabled == stored.EmailCode.Enabled &&
			slices.Equal(allowed, stored.EmailCode.AllowedEmails) && secs == stored.EmailCode.SessionSeconds
		add(store.SecurityEmailCode, "emailCode.", e.Enabled, same, stored.EmailCode.Enabled, len(e.AllowedEmails) > 0,
			SecurityConfigRequest{AllowedEmails: e.AllowedEmails, SessionSeconds: e.SessionSeconds})
		if err != nil { // refused even switched off, as the single-protection route does
			out[len(out)-1].write = true
		}
	}
	if pp := req.People; pp != nil {
		st := stored.People
		same := pp.Enabled == st.Enabled && slices.Equal(cleanList(pp.People), st.People) &&
			slices.Equal(cleanList(pp.Groups), st.Groups) && pp.SecondFactor == st.SecondFactor &&
			pp.MaxAgeSeconds == st.MaxAgeSeconds
		add(store.SecurityPeople, "people.", pp.Enabled, same, st.Enabled,
			len(pp.People)+len(pp.Groups) > 0 || pp.SecondFactor || pp.MaxAgeSeconds != 0,
			SecurityConfigRequest{People: pp.People, Groups: pp.Groups, SecondFactor: pp.SecondFactor, MaxAgeSeconds: pp.MaxAgeSeconds})
	}
	return out
}

// prefixFields names err's fields under prefix (a section of the document).
func prefixFields(prefix string, err error) error {
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	fields := make([]apperr.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		fields[i] = apperr.FieldError{Field: prefix + f.Field, Message: f.Message}
	}
	return apperr.Validation(fields...)
}
