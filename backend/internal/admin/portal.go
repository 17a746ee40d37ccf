package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The sign-in portal uses this package's sign-in, second factors, limits
// and sessions for every person: a session opened on the portal's host
// (route.OnPortal) is a portal session. It is open to every enabled
// person, whatever their panel role; it answers only on the portal's host
// (a panel route never accepts it) and follows the portal's session policy.

// portalRP caches the portal's passkey relying party, built again when the
// portal's URL changes.
type portalRP struct {
	portalWAMu  sync.Mutex
	portalWA    *webauthn.WebAuthn
	portalWAURL string
}

// PortalPolicy is how long portal sessions last (the portal settings).
type PortalPolicy struct {
	// Idle ends a session unused for this long; Remember replaces it for
	// a sign-in that asked to be remembered.
	Idle, Remember time.Duration
	// Absolute ends every session this long after its sign-in.
	Absolute time.Duration
}

// DefaultPortalPolicy applies until the portal settings say otherwise.
var DefaultPortalPolicy = PortalPolicy{Idle: 12 * time.Hour, Remember: 30 * 24 * time.Hour, Absolute: 90 * 24 * time.Hour}

// PortalSessionEnder ends the service sessions opened from portal sessions
// (package forwardauth): signing out on the portal signs out of every
// service.
type PortalSessionEnder interface {
	EndPortalSessions(ctx context.Context, portalSessionIDs ...string) error
}

// maySignIn says why u may not open a session here, or nil: on the portal
// every enabled person may; elsewhere only a person with a panel role.
func maySignIn(ctx context.Context, u store.Person) error {
	if route.OnPortal(ctx) {
		if u.DisabledAt != nil {
			return errDisabled
		}
		return nil
	}
	return mayUsePanel(u)
}

func (s *Service) portalPolicy(ctx context.Context) PortalPolicy {
	if s.policy == nil {
		return DefaultPortalPolicy
	}
	p, err := s.policy(ctx)
	if err != nil {
		s.log.Warn("read the portal's session policy; using the defaults", "error", err)
		return DefaultPortalPolicy
	}
	return p
}

// expiry is when sess ends if used at now: its idle timeout from now,
// never past its absolute lifetime.
func (s *Service) expiry(ctx context.Context, sess store.AdminSession, now time.Time) time.Time {
	if !sess.Portal {
		return now.Add(SessionTTL)
	}
	p := s.portalPolicy(ctx)
	idle := p.Idle
	if sess.Remember {
		idle = p.Remember
	}
	end := now.Add(idle)
	if limit := sess.CreatedAt.Add(p.Absolute); end.After(limit) {
		end = limit
	}
	return end
}

// portalPasskeys is the relying party of passkeys on the portal: its
// host, not the panel's, is their relying party id (a browser binds a
// passkey to the host it was made on), so a passkey made on the portal
// works there and one made on the panel works on the panel.
func (s *Service) portalPasskeys(ctx context.Context) (*webauthn.WebAuthn, error) {
	u := ""
	if s.portalURL != nil {
		u = s.portalURL(ctx)
	}
	if u == "" {
		return nil, apperr.Conflict("passkey", "passkeys on the portal need its host (Settings, Sign-in portal)")
	}
	s.portalWAMu.Lock()
	defer s.portalWAMu.Unlock()
	if s.portalWAURL != u || s.portalWA == nil {
		w, problem := newWebAuthn(u)
		if w == nil {
			return nil, apperr.Conflict("passkey", "%s", problem)
		}
		s.portalWA, s.portalWAURL = w, u
	}
	return s.portalWA, nil
}

// PortalSession is a person's sign-in on the portal.
type PortalSession struct {
	PersonID     string
	SessionID    string
	SecondFactor bool
	// ProvedAt is when the person last proved who they are.
	ProvedAt time.Time
}

// PortalSignIn reads the portal session from r, a request made on the
// portal's host; ok is false when r carries none that is valid (or was not
// made on the portal's host). The session's person must still be enabled.
func (s *Service) PortalSignIn(ctx context.Context, r *http.Request) (PortalSession, bool, error) {
	if s.portalHost == nil || !route.IsPortalHost(r.Host, s.portalHost(ctx)) {
		return PortalSession{}, false, nil
	}
	tok := ""
	if ck, err := r.Cookie(CookieName); err == nil { // no cookie: no session
		tok = ck.Value
	}
	if tok == "" || len(tok) > 256 {
		return PortalSession{}, false, nil
	}
	_, sess, err := s.session(route.WithPortal(ctx), tok)
	if apperr.IsCode(err, apperr.CodeUnauthenticated) {
		return PortalSession{}, false, nil
	}
	if err != nil {
		return PortalSession{}, false, err
	}
	out := PortalSession{PersonID: sess.UserID, SessionID: sess.ID, SecondFactor: sess.SecondFactor, ProvedAt: sess.CreatedAt}
	if sess.ProvedAt != nil {
		out.ProvedAt = *sess.ProvedAt
	}
	return out, true, nil
}

// endPortalSessions ends the service sessions of the portal sessions ids
// (package forwardauth). A failure is logged: the portal sessions are gone
// already, and the service sessions end with them at their next check.
func (s *Service) endPortalSessions(ctx context.Context, ids []string) {
	if len(ids) == 0 || s.ender == nil {
		return
	}
	if err := s.ender.EndPortalSessions(ctx, ids...); err != nil {
		s.log.Warn("end the service sessions of ended portal sessions", "error", err, "sessions", len(ids))
	}
}

// deleteSessions deletes the sessions q selects and ends the service
// sessions of those that were portal sessions.
func (s *Service) deleteSessions(ctx context.Context, q *gorm.DB) (int64, error) {
	var rows []store.AdminSession
	if err := q.Select("id", "portal").Find(&rows).Error; err != nil {
		return 0, fmt.Errorf("find admin sessions: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	ids, portal := make([]string, 0, len(rows)), []string{}
	for _, r := range rows {
		ids = append(ids, r.ID)
		if r.Portal {
			portal = append(portal, r.ID)
		}
	}
	res := s.db.WithContext(ctx).Where("id IN ?", ids).Delete(&store.AdminSession{})
	if res.Error != nil {
		return 0, fmt.Errorf("delete admin sessions: %w", res.Error)
	}
	s.endPortalSessions(ctx, portal)
	return res.RowsAffected, nil
}

// EndPortalSessionsOf ends every portal session of the person ("sign out
// everywhere"), and the service sessions opened from them.
func (s *Service) EndPortalSessionsOf(ctx context.Context, userID string) error {
	_, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("user_id = ? AND portal = ?", userID, true))
	return err
}

// findSession finds the unexpired session behind tok.
func (s *Service) findSession(ctx context.Context, tok string) (store.AdminSession, error) {
	var sess store.AdminSession
	err := s.db.WithContext(ctx).Where("token_hash = ?", bearer.Hash(tok)).Take(&sess).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return sess, apperr.Unauthenticated("session expired; sign in again")
	}
	if err != nil {
		return sess, fmt.Errorf("find admin session: %w", err)
	}
	return sess, nil
}
