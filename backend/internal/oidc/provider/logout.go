package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// sid is the session id apps see: a digest of the portal session's id, so
// the id itself never leaves the panel.
func sid(portalSessionID string) string {
	if portalSessionID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("oidc-sid:" + portalSessionID))
	return hex.EncodeToString(sum[:16])
}

// TerminateSessionFromRequest is RP-initiated logout: with an
// id_token_hint whose person is the one signed in on this browser, the
// portal session ends (and with it every app's tokens issued from it and
// the back-channel logouts); without one, only the app's tokens of that
// person end. The post_logout_redirect_uri was matched exactly.
func (s *storage) TerminateSessionFromRequest(ctx context.Context, req *op.EndSessionRequest) (string, error) {
	return s.terminate(ctx, req)
}

func (s *Service) terminate(ctx context.Context, req *op.EndSessionRequest) (string, error) {
	r, _ := ctx.Value(requestKey{}).(*http.Request)
	if req.UserID != "" && req.ClientID != "" {
		if err := s.store.TerminateSession(ctx, req.UserID, req.ClientID); err != nil {
			return "", err
		}
	}
	if r == nil || req.IDTokenHintClaims == nil || s.d.Portal == nil {
		return req.RedirectURI, nil
	}
	sess, ok, err := s.d.Portal.PortalSignIn(ctx, r)
	if err != nil {
		return "", err
	}
	if !ok || sess.PersonID != req.UserID {
		return req.RedirectURI, nil
	}
	if s.d.EndPortalSession != nil {
		if err := s.d.EndPortalSession(ctx, sess.PersonID, sess.SessionID); err != nil {
			return "", err
		}
	} else if err := s.EndPortalSessions(ctx, sess.SessionID); err != nil {
		return "", err
	}
	return req.RedirectURI, nil
}

// EndPortalSessions ends the app sessions of portal sessions that ended
// (sign-out, expiry of a person's sessions, a disabled person): their
// tokens are revoked and each app with a back-channel logout URI is told.
func (s *Service) EndPortalSessions(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	type pair struct{ ClientID, PersonID, PortalSessionID string }
	var pairs []pair
	db := s.d.DB.WithContext(ctx)
	if err := db.Model(&token{}).Where("portal_session_id IN ? AND revoked_at IS NULL", ids).
		Distinct("client_id", "person_id", "portal_session_id").Find(&pairs).Error; err != nil {
		return fmt.Errorf("find app sessions: %w", err)
	}
	if err := db.Model(&token{}).Where("portal_session_id IN ? AND revoked_at IS NULL", ids).
		Update("revoked_at", s.d.Now()).Error; err != nil {
		return fmt.Errorf("revoke app sessions: %w", err)
	}
	for _, p := range pairs {
		c, err := s.clients.get(ctx, p.ClientID)
		if err != nil || c.BackchannelLogoutURI == "" {
			continue
		}
		// The call outlives the request on purpose: the app may be slow.
		go s.backchannel(c, p.PersonID, sid(p.PortalSessionID)) //nolint:gosec // G118: not bound to the request

	}
	return nil
}

// backchannel posts a logout token to the client (OpenID Connect
// Back-Channel Logout 1.0, 2.4); a failure is logged.
func (s *Service) backchannel(c store.OIDCClient, personID, sessionID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tok, err := s.logoutToken(ctx, c, personID, sessionID)
	if err != nil {
		s.log.Warn("sign a back-channel logout token", "client", c.ID, "error", err)
		return
	}
	form := url.Values{"logout_token": {tok}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BackchannelLogoutURI, strings.NewReader(form.Encode()))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.http.Do(req)
	if err != nil {
		s.log.Warn("back-channel logout", "client", c.ID, "error", err)
		return
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		s.log.Warn("back-channel logout refused", "client", c.ID, "status", resp.StatusCode)
	}
}

func (s *Service) logoutToken(ctx context.Context, c store.OIDCClient, personID, sessionID string) (string, error) {
	alg := algRS256
	if c.SigningAlg == algES256 {
		alg = algES256
	}
	key, err := s.keys.signing(alg)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: key.alg, Key: jose.JSONWebKey{Key: key.priv, KeyID: key.id}},
		(&jose.SignerOptions{}).WithType("logout+jwt"))
	if err != nil {
		return "", err
	}
	jti, _ := randomID()
	now := s.d.Now()
	claims := map[string]any{
		"iss": s.issuerFor(ctx), "aud": c.ID, "iat": now.Unix(), "exp": now.Add(2 * time.Minute).Unix(), "jti": jti,
		"sub":    personID,
		"events": map[string]any{"http://schemas.openid.net/event/backchannel-logout": map[string]any{}},
	}
	if sessionID != "" {
		claims["sid"] = sessionID
	}
	payload, err := jsonMarshal(claims)
	if err != nil {
		return "", err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}
