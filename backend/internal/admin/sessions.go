package admin

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
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
	sess := store.AdminSession{
		ID: store.NewID(), TokenHash: bearer.Hash(tok), UserID: userID,
		UserAgent: ua, Address: client.Address,
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(SessionTTL),
		ProvedAt: &now, // signing in is a proof of who one is
	}
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

// authenticate is Authenticate that also returns the session's id. The
// last-seen time is only noted here, at most once per LastSeenInterval, and
// written by FlushLastSeen off the request path.
func (s *Service) authenticate(ctx context.Context, tok string) (User, string, error) {
	if tok == "" {
		return User{}, "", apperr.Unauthenticated("sign in required")
	}
	var sess store.AdminSession
	err := s.db.WithContext(ctx).Where("token_hash = ?", bearer.Hash(tok)).Take(&sess).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return User{}, "", apperr.Unauthenticated("session expired; sign in again")
	}
	if err != nil {
		return User{}, "", fmt.Errorf("find admin session: %w", err)
	}
	now := s.now()
	if !now.Before(sess.ExpiresAt) {
		s.db.WithContext(ctx).Delete(&sess)
		return User{}, "", apperr.Unauthenticated("session expired; sign in again")
	}
	var u store.Person
	if err := s.db.WithContext(ctx).Where("id = ? AND disabled_at IS NULL AND panel_role IN ?", sess.UserID, actor.Roles).Take(&u).Error; err != nil {
		return User{}, "", apperr.Unauthenticated("session expired; sign in again")
	}
	if sess.ExpiresAt.Sub(now) < SessionTTL/2 {
		s.db.WithContext(ctx).Model(&sess).Updates(map[string]any{"last_seen_at": now, "expires_at": now.Add(SessionTTL)})
	} else if now.Sub(sess.LastSeenAt) >= LastSeenInterval {
		s.seenMu.Lock()
		s.seen[sess.ID] = now
		s.seenMu.Unlock()
	}
	return toUser(u), sess.ID, nil
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
// marking the one with id current.
func (s *Service) Sessions(ctx context.Context, userID, current string) ([]Session, error) {
	var rows []store.AdminSession
	if err := s.db.WithContext(ctx).Where("user_id = ? AND expires_at > ?", userID, s.now()).
		Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
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
			ID: r.ID, Current: r.ID == current, UserAgent: r.UserAgent, Address: r.Address,
			CreatedAt: r.CreatedAt.UTC(), LastSeenAt: last.UTC(), ExpiresAt: r.ExpiresAt.UTC(),
		})
	}
	return out, nil
}

// EndSession ends one of the administrator's sessions; another
// administrator's session is not found.
func (s *Service) EndSession(ctx context.Context, userID, id string) error {
	res := s.db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&store.AdminSession{})
	if res.Error != nil {
		return fmt.Errorf("delete admin session: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("session")
	}
	return nil
}

// EndOtherSessions ends every session of the administrator but keep.
func (s *Service) EndOtherSessions(ctx context.Context, userID, keep string) error {
	return endSessions(s.db.WithContext(ctx), userID, keep)
}

// EndSessions ends every session of the administrator inside tx, the
// caller's transaction: an import that replaces a password or disables an
// administrator signs them out, as the panel's own pages do.
func (s *Service) EndSessions(tx *gorm.DB, userID string) error { return endSessions(tx, userID, "") }

// endSessions deletes the administrator's sessions except keep ("" for all).
func endSessions(tx *gorm.DB, userID, keep string) error {
	q := tx.Where("user_id = ?", userID)
	if keep != "" {
		q = q.Where("id <> ?", keep)
	}
	if err := q.Delete(&store.AdminSession{}).Error; err != nil {
		return fmt.Errorf("end admin sessions: %w", err)
	}
	return nil
}

// Logout ends the session behind token, if any.
func (s *Service) Logout(ctx context.Context, tok string) error {
	if tok == "" {
		return nil
	}
	if err := s.db.WithContext(ctx).Where("token_hash = ?", bearer.Hash(tok)).Delete(&store.AdminSession{}).Error; err != nil {
		return fmt.Errorf("delete admin session: %w", err)
	}
	return nil
}

// SweepSessions deletes expired admin sessions.
func (s *Service) SweepSessions(ctx context.Context) error {
	return s.db.WithContext(ctx).Where("expires_at <= ?", s.now()).Delete(&store.AdminSession{}).Error
}
