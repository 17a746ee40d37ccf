package admin

import (
	"context"
	"fmt"
	"maps"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func (s *Service) openSession(ctx context.Context, userID string, client Client) (string, error) {
	if err := s.mayOpenSession(ctx, userID); err != nil {
		return "", err
	}
	tok, err := bearer.New()
	if err != nil {
		return "", err
	}
	ua := client.UserAgent
	if len(ua) > maxUserAgent {
		ua = ua[:maxUserAgent]
	}
	now := s.now()
	second, _ := ctx.Value(secondFactorKey{}).(bool)
	sess := store.AdminSession{
		ID: store.NewID(), TokenHash: bearer.Hash(tok), UserID: userID,
		UserAgent: ua, Address: client.Address,
		CreatedAt: now, LastSeenAt: now,
		ProvedAt: &now, // signing in is a proof of who one is
		Portal:   route.OnPortal(ctx), SecondFactor: second, Remember: client.Remember,
	}
	sess.ExpiresAt = s.expiry(ctx, sess, now)
	if err := s.db.WithContext(ctx).Create(&sess).Error; err != nil {
		return "", fmt.Errorf("create admin session: %w", err)
	}
	return tok, nil
}

// Authenticate resolves a session token to its administrator, sliding the
// session's expiry when less than half of it is left.
func (s *Service) Authenticate(ctx context.Context, tok string) (User, error) {
	u, _, err := s.authenticate(ctx, tok)
	return u, err
}

// authenticate is Authenticate that also returns the session's id.
func (s *Service) authenticate(ctx context.Context, tok string) (User, string, error) {
	u, sess, err := s.session(ctx, tok)
	return u, sess.ID, err
}

// session resolves tok to its person and session. On the portal's host
// (route.OnPortal) only a portal session answers, for any enabled person;
// elsewhere only a panel session of a person with a panel role. The
// last-seen time is only noted here, at most once per LastSeenInterval,
// and written by FlushLastSeen off the request path.
func (s *Service) session(ctx context.Context, tok string) (User, store.AdminSession, error) {
	if tok == "" {
		return User{}, store.AdminSession{}, apperr.Unauthenticated("sign in required")
	}
	sess, err := s.findSession(ctx, tok)
	if err != nil {
		return User{}, sess, err
	}
	now := s.now()
	if !now.Before(sess.ExpiresAt) {
		s.db.WithContext(ctx).Delete(&sess)
		return User{}, store.AdminSession{}, apperr.Unauthenticated("session expired; sign in again")
	}
	if sess.Portal != route.OnPortal(ctx) {
		return User{}, store.AdminSession{}, apperr.Unauthenticated("sign in required")
	}
	q := s.db.WithContext(ctx).Where("id = ? AND disabled_at IS NULL", sess.UserID)
	if !sess.Portal {
		q = q.Where("panel_role IN ?", actor.Roles)
	}
	var u store.Person
	if err := q.Take(&u).Error; err != nil {
		return User{}, store.AdminSession{}, apperr.Unauthenticated("session expired; sign in again")
	}
	if next := s.expiry(ctx, sess, now); sess.ExpiresAt.Sub(now) < next.Sub(now)/2 && next.After(sess.ExpiresAt) {
		s.db.WithContext(ctx).Model(&sess).Updates(map[string]any{"last_seen_at": now, "expires_at": next})
	} else if now.Sub(sess.LastSeenAt) >= LastSeenInterval {
		s.seenMu.Lock()
		s.seen[sess.ID] = now
		s.seenMu.Unlock()
	}
	return toUser(u), sess, nil
}

// FlushLastSeen writes the last-seen times noted since the previous flush.
func (s *Service) FlushLastSeen(ctx context.Context) error {
	s.seenMu.Lock()
	seen := s.seen
	s.seen = map[string]time.Time{}
	s.seenMu.Unlock()
	if len(seen) == 0 {
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for id, at := range seen {
			if err := tx.Model(&store.AdminSession{}).Where("id = ? AND last_seen_at < ?", id, at).
				Update("last_seen_at", at).Error; err != nil {
				return fmt.Errorf("record admin session last seen: %w", err)
			}
		}
		return nil
	})
}

// Sessions lists the administrator's unexpired sessions, newest first,
// marking the one with id current. The panel lists the panel's sessions,
// the portal the portal's.
func (s *Service) Sessions(ctx context.Context, userID, current string) ([]Session, error) {
	return s.listSessions(s.db.WithContext(ctx).Where("user_id = ? AND portal = ?", userID, route.OnPortal(ctx)), current)
}

// listSessions lists the unexpired sessions q selects, newest first.
func (s *Service) listSessions(q *gorm.DB, current string) ([]Session, error) {
	var rows []store.AdminSession
	if err := q.Where("expires_at > ?", s.now()).Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list admin sessions: %w", err)
	}
	s.seenMu.Lock()
	seen := maps.Clone(s.seen)
	s.seenMu.Unlock()
	out := make([]Session, 0, len(rows))
	for _, r := range rows {
		last := r.LastSeenAt
		if at, ok := seen[r.ID]; ok && at.After(last) {
			last = at // noted but not flushed yet
		}
		out = append(out, Session{
			ID: r.ID, Current: r.ID == current, Portal: r.Portal, UserAgent: r.UserAgent, Address: r.Address,
			CreatedAt: r.CreatedAt.UTC(), LastSeenAt: last.UTC(), ExpiresAt: r.ExpiresAt.UTC(),
		})
	}
	return out, nil
}

// EndSession ends one of the administrator's sessions; another
// administrator's session is not found.
func (s *Service) EndSession(ctx context.Context, userID, id string) error {
	n, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("id = ? AND user_id = ? AND portal = ?", id, userID, route.OnPortal(ctx)))
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("session")
	}
	return nil
}

// EndOtherSessions ends every session of the administrator but keep.
func (s *Service) EndOtherSessions(ctx context.Context, userID, keep string) error {
	_, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("user_id = ? AND id <> ? AND portal = ?", userID, keep, route.OnPortal(ctx)))
	return err
}

// EndedSessions are the portal sessions a transaction ended. Once it
// commits, Service.SessionsEnded ends the service sessions opened from them
// (forward-auth's EndPortalSessions, heard by every replica): every way a
// person's sessions end goes through that one path.
type EndedSessions []string

// endSessions deletes the person's sessions except keep ("" for all)
// inside tx, and returns the portal sessions among them.
func endSessions(tx *gorm.DB, userID, keep string) (EndedSessions, error) {
	pick := func() *gorm.DB {
		q := tx.Model(&store.AdminSession{}).Where("user_id = ?", userID)
		if keep != "" {
			q = q.Where("id <> ?", keep)
		}
		return q
	}
	var portal []string
	if err := pick().Where("portal = ?", true).Pluck("id", &portal).Error; err != nil {
		return nil, fmt.Errorf("find portal sessions: %w", err)
	}
	if err := pick().Delete(&store.AdminSession{}).Error; err != nil {
		return nil, fmt.Errorf("end admin sessions: %w", err)
	}
	return portal, nil
}

// SessionsEnded ends the service sessions opened from portal sessions a
// committed transaction ended (EndSessionsTx, SetSignInTx, ImportTx).
func (s *Service) SessionsEnded(ctx context.Context, ended EndedSessions) {
	s.endPortalSessions(ctx, ended)
}

// Logout ends the session behind token, if any.
func (s *Service) Logout(ctx context.Context, tok string) error {
	if tok == "" {
		return nil
	}
	_, err := s.deleteSessions(ctx, s.db.WithContext(ctx).Where("token_hash = ?", bearer.Hash(tok)))
	return err
}

// SweepSessions deletes expired admin sessions.
func (s *Service) SweepSessions(ctx context.Context) error {
	return s.db.WithContext(ctx).Where("expires_at <= ?", s.now()).Delete(&store.AdminSession{}).Error
}
