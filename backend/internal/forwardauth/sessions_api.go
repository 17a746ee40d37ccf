package forwardauth

import (
	"context"
	"fmt"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// SessionResponse is a forward-auth session as the API shows it (never the token).
type SessionResponse struct {
	ID           string    `json:"id"`
	ServiceID    string    `json:"serviceId"`
	ServiceName  string    `json:"serviceName"`
	User         string    `json:"user"`
	Email        string    `json:"email"`
	Name         string    `json:"name"`
	Groups       []string  `json:"groups"`
	Kind         string    `json:"kind"`
	SharedLinkID *string   `json:"sharedLinkId"`
	CreatedAt    time.Time `json:"createdAt"`
	LastSeenAt   time.Time `json:"lastSeenAt"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

// ListSessions returns the live sessions, newest first, optionally of one service.
func (s *Service) ListSessions(ctx context.Context, serviceID string) ([]SessionResponse, error) {
	var rows []struct {
		store.Session
		ServiceName string
	}
	q := s.db.WithContext(ctx).Table("sessions").Select("sessions.*, services.name AS service_name").
		Joins("JOIN services ON services.id = sessions.service_id").
		Where("sessions.expires_at > ?", s.now()).Order("sessions.created_at DESC, sessions.id DESC")
	if serviceID != "" {
		q = q.Where("sessions.service_id = ?", serviceID)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out := make([]SessionResponse, len(rows))
	for i, r := range rows {
		groups := r.Groups.V
		if groups == nil {
			groups = []string{}
		}
		out[i] = SessionResponse{
			ID: r.ID, ServiceID: r.ServiceID, ServiceName: r.ServiceName, User: r.Subject, Email: r.Email,
			Name: r.DisplayName, Groups: groups, Kind: r.Kind, SharedLinkID: r.SharedLinkID,
			CreatedAt: r.CreatedAt, LastSeenAt: r.LastSeenAt, ExpiresAt: r.ExpiresAt,
		}
	}
	return out, nil
}

// DeleteSessions ends every forward-auth session.
func (s *Service) DeleteSessions(ctx context.Context) error {
	if err := s.db.WithContext(ctx).Where("1 = 1").Delete(&store.Session{}).Error; err != nil {
		return fmt.Errorf("delete sessions: %w", err)
	}
	s.publish(change.Event{Entity: change.Session, Kind: change.Deleted})
	return nil
}

// DeleteSession ends one session.
func (s *Service) DeleteSession(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.Session{})
	if res.Error != nil {
		return fmt.Errorf("delete session: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("session")
	}
	s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + id})
	return nil
}

// endSessionByToken ends the session behind a cookie (sign-out).
func (s *Service) endSessionByToken(ctx context.Context, tok string) error {
	hash := bearer.Hash(tok)
	if err := s.db.WithContext(ctx).Where("token_hash = ?", hash).Delete(&store.Session{}).Error; err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByHash + hash})
	return nil
}
