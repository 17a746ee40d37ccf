package admin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ProofTTL is how long a proof of who one is (signing in, or a password,
// code or passkey given again) lets a session change its second factors.
// A stolen session must not turn into a permanent account: adding a
// passkey (which signs in on its own), new recovery codes and removing a
// factor each need a proof this recent.
const ProofTTL = 5 * time.Minute

// CodeReauthenticationRequired answers a change that needs a recent proof
// of who one is when the session has none (403); POST
// /api/admin/me/reauthenticate gives one.
const CodeReauthenticationRequired apperr.Code = "reauthentication_required"

const purposeReauth = "reauthenticate"

func reauthenticationRequired() error {
	return &apperr.Error{Code: CodeReauthenticationRequired, Status: http.StatusForbidden,
		Message: "confirm it is you first: enter your password, a code from your authenticator app or use a passkey"}
}

// requireFreshProof answers reauthentication_required unless the session
// proved who it is within ProofTTL.
func (s *Service) requireFreshProof(ctx context.Context, sessionID string) error {
	var sess store.AdminSession
	err := s.db.WithContext(ctx).Select("proved_at").Where("id = ?", sessionID).Take(&sess).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return apperr.Unauthenticated("session expired; sign in again")
	}
	if err != nil {
		return fmt.Errorf("find admin session: %w", err)
	}
	if sess.ProvedAt == nil || s.now().Sub(*sess.ProvedAt) >= ProofTTL {
		return reauthenticationRequired()
	}
	return nil
}

// markProved notes that the session proved who it is now.
func (s *Service) markProved(ctx context.Context, sessionID string) error {
	if err := s.db.WithContext(ctx).Model(&store.AdminSession{}).Where("id = ?", sessionID).
		Update("proved_at", s.now()).Error; err != nil {
		return fmt.Errorf("record proof: %w", err)
	}
	return nil
}

// Reauthenticate checks the signed-in administrator's password or a current
// code from their authenticator app and, when right, lets the session
// change its second factors for ProofTTL. A wrong one counts as a failed
// sign-in of that username from address, as a wrong current password does.
func (s *Service) Reauthenticate(ctx context.Context, u User, sessionID, password, code, address string) error {
	if err := s.checkPasswordOrCode(ctx, u, password, code, address); err != nil {
		return err
	}
	return s.markProved(ctx, sessionID)
}

// BeginPasskeyReauth returns the options for navigator.credentials.get with
// the administrator's own passkeys, and the ceremony's challenge token.
func (s *Service) BeginPasskeyReauth(ctx context.Context, userID, address string) (*protocol.CredentialAssertion, string, error) {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return nil, "", err
	}
	w, _, err := s.loadWebAuthnUser(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if len(w.creds) == 0 {
		return nil, "", apperr.Conflict("passkey", "you have no passkey: enter your password or a code instead")
	}
	opts, session, err := wa.BeginLogin(w, webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return nil, "", fmt.Errorf("begin passkey proof: %w", err)
	}
	tok, err := s.newCeremony(ctx, purposeReauth, userID, address, session)
	return opts, tok, err
}

// FinishPasskeyReauth checks the assertion of one of the administrator's
// own passkeys and, when it verifies, lets the session change its second
// factors for ProofTTL. A refused one counts as a failed sign-in.
func (s *Service) FinishPasskeyReauth(ctx context.Context, u User, sessionID, tok string, credential json.RawMessage, address string) error {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return err
	}
	if err := s.checkLimit(u.Username, address); err != nil {
		return err
	}
	ch, session, err := s.ceremony(ctx, tok, purposeReauth)
	if err != nil {
		return err
	}
	if ch.UserID == nil || *ch.UserID != u.ID {
		return apperr.Unauthenticated("this passkey check has expired; start again")
	}
	if err := s.takeChallenge(ctx, ch.ID); err != nil {
		return err
	}
	refused := func(reason string) error {
		s.fail(u.Username, address)
		return apperr.Field("credential", "the passkey was refused: %s", reason)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return refused(webauthnReason(err))
	}
	w, _, err := s.loadWebAuthnUser(ctx, u.ID)
	if err != nil {
		return err
	}
	cred, err := wa.ValidateLogin(w, session, parsed)
	if err != nil {
		return refused(webauthnReason(err))
	}
	if cred.Authenticator.CloneWarning {
		return refused("its signature counter went backwards (a cloned authenticator?)")
	}
	if err := s.recordPasskeyUse(ctx, u.ID, cred); err != nil {
		return err
	}
	return s.markProved(ctx, sessionID)
}

// checkPasswordOrCode checks the administrator's current password, or else a
// current code from their authenticator app. A wrong one counts as a failed
// sign-in of that username from address. An administrator without a
// password (SSO only) has no right password; the comparison costs the same.
func (s *Service) checkPasswordOrCode(ctx context.Context, u User, password, code, address string) error {
	if err := s.checkLimit(u.Username, address); err != nil {
		return err
	}
	if password == "" && code == "" {
		return apperr.Field("password", "enter your password or a code from your authenticator app")
	}
	ok := false
	if password != "" {
		var row store.Person
		if err := s.db.WithContext(ctx).Where("id = ?", u.ID).Take(&row).Error; err != nil {
			return fmt.Errorf("find admin: %w", err)
		}
		hash := []byte(row.PasswordHash)
		if row.PasswordHash == "" {
			hash = s.dummyHash
		}
		ok = bcrypt.CompareHashAndPassword(hash, []byte(password)) == nil && row.PasswordHash != ""
	} else {
		var err error
		if ok, err = s.verifyTOTP(ctx, u.ID, code); err != nil {
			return err
		}
	}
	if !ok {
		s.fail(u.Username, address)
		if password != "" {
			return apperr.Field("password", "is wrong")
		}
		return apperr.Field("code", "is wrong")
	}
	return nil
}
