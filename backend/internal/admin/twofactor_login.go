package admin

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// pending finds the sign-in waiting for a second factor behind tok and its
// administrator (who may have been disabled meanwhile).
func (s *Service) pending(ctx context.Context, tok string) (store.AdminChallenge, store.Person, error) {
	var u store.Person
	ch, err := s.challenge(ctx, tok, purposeSecondFactor)
	if err != nil {
		return ch, u, err
	}
	if ch.UserID == nil {
		return ch, u, apperr.Unauthenticated("this sign-in has expired; start again")
	}
	if err := s.db.WithContext(ctx).Where("id = ?", *ch.UserID).Take(&u).Error; err != nil {
		return ch, u, apperr.Unauthenticated("this sign-in has expired; start again")
	}
	if err := maySignIn(ctx, u); err != nil {
		return ch, u, err
	}
	return ch, u, nil
}

// LoginCode completes a pending sign-in with a TOTP code (method "totp") or
// a recovery code (method "recovery"). A wrong code counts as a failed
// sign-in of that username from that address.
func (s *Service) LoginCode(ctx context.Context, tok, method, code string, client Client) (User, string, error) {
	ch, u, err := s.pending(ctx, tok)
	if err != nil {
		return User{}, "", err
	}
	if err := s.checkLimit(u.Username, client.Address); err != nil {
		return User{}, "", err
	}
	var ok bool
	switch method {
	case MethodTOTP:
		ok, err = s.verifyTOTP(ctx, u.ID, code)
	case MethodRecovery:
		ok, err = s.useRecoveryCode(ctx, u.ID, code)
	default:
		return User{}, "", fmt.Errorf("unknown second factor %q", method)
	}
	if err != nil {
		return User{}, "", err
	}
	if !ok {
		s.fail(u.Username, client.Address)
		return User{}, "", apperr.Unauthenticated("wrong code")
	}
	return s.completeSignIn(ctx, ch.ID, u, client)
}

// completeSignIn spends the challenge and opens the session.
func (s *Service) completeSignIn(ctx context.Context, challengeID string, u store.Person, client Client) (User, string, error) {
	if err := s.takeChallenge(ctx, challengeID); err != nil {
		return User{}, "", err
	}
	s.byUser.Reset(userKey(u.Username, client.Address))
	tok, err := s.openSession(withSecondFactor(ctx), u.ID, client)
	if err != nil {
		return User{}, "", err
	}
	return toUser(u), tok, nil
}

// BeginPasskeyLogin returns the options for navigator.credentials.get. With
// a pending sign-in (tok) the passkey is its second factor, and the
// ceremony's state joins the pending sign-in (the returned token is tok
// again); without one it is a passwordless sign-in with a discoverable
// credential and user verification required, under a new challenge.
func (s *Service) BeginPasskeyLogin(ctx context.Context, tok string, client Client) (*protocol.CredentialAssertion, string, error) {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return nil, "", err
	}
	ch, u, err := s.pending(ctx, tok)
	if apperr.IsCode(err, apperr.CodeForbidden) {
		return nil, "", err
	}
	var w *webauthnUser
	if err == nil {
		if w, _, err = s.loadWebAuthnUser(ctx, u.ID); err != nil {
			return nil, "", err
		}
	}
	// A pending sign-in whose administrator has no passkey (say, the
	// person went back from the second step) does not stop a passwordless one.
	if w != nil && len(w.creds) > 0 {
		opts, session, err := wa.BeginLogin(w, webauthn.WithUserVerification(protocol.VerificationPreferred))
		if err != nil {
			return nil, "", fmt.Errorf("begin passkey sign-in: %w", err)
		}
		data, err := json.Marshal(session)
		if err != nil {
			return nil, "", fmt.Errorf("encode webauthn session: %w", err)
		}
		if err := s.db.WithContext(ctx).Model(&store.AdminChallenge{}).Where("id = ?", ch.ID).
			Update("data", string(data)).Error; err != nil {
			return nil, "", fmt.Errorf("store webauthn session: %w", err)
		}
		return opts, tok, nil
	}
	opts, session, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, "", fmt.Errorf("begin passkey sign-in: %w", err)
	}
	next, err := s.newCeremony(ctx, purposePasskeyLogin, "", client.Address, session)
	return opts, next, err
}

// FinishPasskeyLogin checks the authenticator's assertion and opens the
// session. A refused assertion counts as a failed sign-in: of the username
// from the address when it is a second factor, of the address alone when
// passwordless (the user is not known).
func (s *Service) FinishPasskeyLogin(ctx context.Context, tok string, credential json.RawMessage, client Client) (User, string, error) {
	wa, err := s.passkeys(ctx)
	if err != nil {
		return User{}, "", err
	}
	ch, session, err := s.ceremony(ctx, tok, purposeSecondFactor, purposePasskeyLogin)
	if err != nil {
		return User{}, "", err
	}
	username := ""
	if ch.Purpose == purposeSecondFactor {
		_, u, err := s.pending(ctx, tok)
		if err != nil {
			return User{}, "", err
		}
		username = u.Username
	}
	if err := s.checkLimit(username, client.Address); err != nil {
		return User{}, "", err
	}
	refused := func(reason string) (User, string, error) {
		if username != "" {
			s.fail(username, client.Address)
		} else {
			s.byAddress.Fail(addressKey(client.Address))
		}
		return User{}, "", apperr.Unauthenticated("the passkey was refused: " + reason)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return refused(webauthnReason(err))
	}
	var w *webauthnUser
	var cred *webauthn.Credential
	if ch.Purpose == purposeSecondFactor {
		if w, _, err = s.loadWebAuthnUser(ctx, *ch.UserID); err != nil {
			return User{}, "", err
		}
		cred, err = wa.ValidateLogin(w, session, parsed)
	} else {
		var found webauthn.User
		found, cred, err = wa.ValidatePasskeyLogin(s.discoverUser(ctx), session, parsed)
		w, _ = found.(*webauthnUser)
	}
	if err != nil || w == nil {
		return refused(webauthnReason(err))
	}
	if cred.Authenticator.CloneWarning {
		return refused("its signature counter went backwards (a cloned authenticator?)")
	}
	if err := maySignIn(ctx, w.u); err != nil {
		return User{}, "", err
	}
	if err := s.recordPasskeyUse(ctx, w.u.ID, cred); err != nil {
		return User{}, "", err
	}
	return s.completeSignIn(ctx, ch.ID, w.u, client)
}

// discoverUser finds the administrator behind a discoverable credential: the
// credential must be registered and belong to the user handle presented.
func (s *Service) discoverUser(ctx context.Context) webauthn.DiscoverableUserHandler {
	return func(rawID, userHandle []byte) (webauthn.User, error) {
		var row store.AdminPasskey
		err := s.db.WithContext(ctx).Where("credential_id = ?", base64.RawURLEncoding.EncodeToString(rawID)).Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) || (err == nil && row.UserID != string(userHandle)) {
			return nil, errors.New("unknown passkey")
		}
		if err != nil {
			return nil, fmt.Errorf("find passkey: %w", err)
		}
		w, _, err := s.loadWebAuthnUser(ctx, row.UserID)
		if err != nil {
			return nil, err
		}
		return w, nil
	}
}

// recordPasskeyUse stores the credential's new signature counter and flags.
func (s *Service) recordPasskeyUse(ctx context.Context, userID string, cred *webauthn.Credential) error {
	raw, err := json.Marshal(cred)
	if err != nil {
		return fmt.Errorf("encode passkey: %w", err)
	}
	now := s.now()
	err = s.db.WithContext(ctx).Model(&store.AdminPasskey{}).
		Where("user_id = ? AND credential_id = ?", userID, base64.RawURLEncoding.EncodeToString(cred.ID)).
		Updates(map[string]any{"credential": string(raw), "last_used_at": now}).Error
	if err != nil {
		return fmt.Errorf("record passkey use: %w", err)
	}
	return nil
}
