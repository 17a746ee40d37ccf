package admin

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Passkey is one of an administrator's passkeys as the API shows it.
type Passkey struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

func toPasskey(p store.AdminPasskey) Passkey {
	out := Passkey{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt.UTC()}
	if p.LastUsedAt != nil {
		t := p.LastUsedAt.UTC()
		out.LastUsedAt = &t
	}
	return out
}

const maxPasskeyName = 64

// newWebAuthn configures the relying party from PANEL_PUBLIC_URL, or says why
// passkeys are unavailable.
func newWebAuthn(publicURL string) (*webauthn.WebAuthn, string) {
	if publicURL == "" {
		return nil, "passkeys need PANEL_PUBLIC_URL, the address browsers use to reach the panel"
	}
	u, err := url.Parse(publicURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, "passkeys need PANEL_PUBLIC_URL to be an http(s) URL"
	}
	if net.ParseIP(u.Hostname()) != nil {
		return nil, "passkeys need a host name in PANEL_PUBLIC_URL, not an IP address"
	}
	w, err := webauthn.New(&webauthn.Config{
		RPID: u.Hostname(), RPDisplayName: totpIssuer, RPOrigins: []string{u.Scheme + "://" + u.Host},
	})
	if err != nil {
		return nil, "passkeys are unavailable: " + err.Error()
	}
	return w, ""
}

// webauthnUser is an administrator as go-webauthn sees it. The user handle
// is the administrator's id, which never changes.
type webauthnUser struct {
	u     store.Person
	creds []webauthn.Credential
}

func (w *webauthnUser) WebAuthnID() []byte                         { return []byte(w.u.ID) }
func (w *webauthnUser) WebAuthnName() string                       { return w.u.Username }
func (w *webauthnUser) WebAuthnDisplayName() string                { return w.u.Username }
func (w *webauthnUser) WebAuthnCredentials() []webauthn.Credential { return w.creds }

func (s *Service) passkeys(ctx context.Context) (*webauthn.WebAuthn, error) {
	if route.OnPortal(ctx) {
		return s.portalPasskeys(ctx)
	}
	if s.tf.webauthn == nil {
		return nil, apperr.Conflict("passkey", "%s", s.tf.problem)
	}
	return s.tf.webauthn, nil
}

// loadWebAuthnUser reads the administrator and their credentials.
func (s *Service) loadWebAuthnUser(ctx context.Context, userID string) (*webauthnUser, []store.AdminPasskey, error) {
	var u store.Person
	if err := s.db.WithContext(ctx).Where("id = ?", userID).Take(&u).Error; err != nil {
		return nil, nil, fmt.Errorf("find admin: %w", err)
	}
	var rows []store.AdminPasskey
	if err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, nil, fmt.Errorf("list passkeys: %w", err)
	}
	w := &webauthnUser{u: u}
	for _, r := range rows {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(r.Credential), &c); err != nil {
			return nil, nil, fmt.Errorf("read passkey %s: %w", r.ID, err)
		}
		w.creds = append(w.creds, c)
	}
	return w, rows, nil
}

// Passkeys lists the administrator's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, userID string) ([]Passkey, error) {
	var rows []store.AdminPasskey
	if err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list passkeys: %w", err)
	}
	out := make([]Passkey, 0, len(rows))
	for _, r := range rows {
		out = append(out, toPasskey(r))
	}
	return out, nil
}

// BeginPasskeyRegistration returns the options for navigator.credentials.create
// and the ceremony's challenge token. A discoverable credential is preferred
// (it also signs in without a password); existing ones are excluded.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, userID, address string) (*protocol.CredentialCreation, string, error) {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return nil, "", err
	}
	w, _, err := s.loadWebAuthnUser(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	opts, session, err := wa.BeginRegistration(w,
		webauthn.WithExclusions(webauthn.Credentials(w.creds).CredentialDescriptors()),
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementPreferred),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
	if err != nil {
		return nil, "", fmt.Errorf("begin passkey registration: %w", err)
	}
	tok, err := s.newCeremony(ctx, purposePasskeyRegister, userID, address, session)
	return opts, tok, err
}

// FinishPasskeyRegistration checks the authenticator's answer and stores the
// new passkey under name.
func (s *Service) FinishPasskeyRegistration(ctx context.Context, userID, tok, name string, credential json.RawMessage) (Passkey, error) {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return Passkey{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = "Passkey"
	}
	if len([]rune(name)) > maxPasskeyName {
		return Passkey{}, apperr.Field("name", "must be at most %d characters", maxPasskeyName)
	}
	ch, session, err := s.ceremony(ctx, tok, purposePasskeyRegister)
	if err != nil {
		return Passkey{}, err
	}
	if ch.UserID == nil || *ch.UserID != userID {
		return Passkey{}, apperr.Unauthenticated("this passkey registration has expired; start again")
	}
	if err := s.takeChallenge(ctx, ch.ID); err != nil {
		return Passkey{}, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return Passkey{}, apperr.Field("credential", "is not a passkey registration: %s", webauthnReason(err))
	}
	w, _, err := s.loadWebAuthnUser(ctx, userID)
	if err != nil {
		return Passkey{}, err
	}
	cred, err := wa.CreateCredential(w, session, parsed)
	if err != nil {
		return Passkey{}, apperr.Field("credential", "was refused: %s", webauthnReason(err))
	}
	raw, err := json.Marshal(cred)
	if err != nil {
		return Passkey{}, fmt.Errorf("encode passkey: %w", err)
	}
	row := store.AdminPasskey{
		ID: store.NewID(), UserID: userID, CredentialID: base64.RawURLEncoding.EncodeToString(cred.ID),
		Name: name, Credential: string(raw), CreatedAt: s.now(),
	}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return Passkey{}, apperr.Conflict("credential", "this passkey is already registered")
		}
		return Passkey{}, fmt.Errorf("store passkey: %w", err)
	}
	out := toPasskey(row)
	audit.Changed(ctx, nil, out)
	return out, nil
}

// RenamePasskey renames one of the administrator's passkeys.
func (s *Service) RenamePasskey(ctx context.Context, userID, id, name string) (Passkey, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > maxPasskeyName {
		return Passkey{}, apperr.Field("name", "must be 1-%d characters", maxPasskeyName)
	}
	var before store.AdminPasskey
	err := s.db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&before).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Passkey{}, apperr.NotFound("passkey")
	}
	if err != nil {
		return Passkey{}, fmt.Errorf("find passkey: %w", err)
	}
	res := s.db.WithContext(ctx).Model(&store.AdminPasskey{}).Where("id = ? AND user_id = ?", id, userID).Update("name", name)
	if res.Error != nil {
		return Passkey{}, fmt.Errorf("rename passkey: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return Passkey{}, apperr.NotFound("passkey")
	}
	var row store.AdminPasskey
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return Passkey{}, fmt.Errorf("find passkey: %w", err)
	}
	out := toPasskey(row)
	audit.Changed(ctx, toPasskey(before), out)
	return out, nil
}

// DeletePasskey removes one of the administrator's passkeys.
func (s *Service) DeletePasskey(ctx context.Context, userID, id string) error {
	var gone store.AdminPasskey
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("id = ? AND user_id = ?", id, userID).Take(&gone).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.NotFound("passkey")
		}
		if err != nil {
			return fmt.Errorf("find passkey: %w", err)
		}
		res := tx.Where("id = ? AND user_id = ?", id, userID).Delete(&store.AdminPasskey{})
		if res.Error != nil {
			return fmt.Errorf("delete passkey: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("passkey")
		}
		return s.dropOrphanRecoveryCodes(tx, userID)
	})
	if err != nil {
		return err
	}
	audit.Changed(ctx, toPasskey(gone), nil)
	return nil
}

// newCeremony stores WebAuthn session data in a new challenge.
func (s *Service) newCeremony(ctx context.Context, purpose, userID, address string, session *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(session)
	if err != nil {
		return "", fmt.Errorf("encode webauthn session: %w", err)
	}
	return s.newChallenge(ctx, purpose, userID, address, string(data))
}

// ceremony finds a challenge and its WebAuthn session data.
func (s *Service) ceremony(ctx context.Context, tok string, purposes ...string) (store.AdminChallenge, webauthn.SessionData, error) {
	var session webauthn.SessionData
	ch, err := s.challenge(ctx, tok, purposes...)
	if err != nil {
		return ch, session, err
	}
	if ch.Data == "" || json.NewDecoder(bytes.NewReader([]byte(ch.Data))).Decode(&session) != nil {
		return ch, session, apperr.Unauthenticated("this passkey sign-in has expired; start again")
	}
	return ch, session, nil
}

// webauthnReason is the client-facing part of a go-webauthn error.
func webauthnReason(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return pe.Details
	}
	return "the authenticator's answer did not verify"
}
