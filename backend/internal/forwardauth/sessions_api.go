package forwardauth

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

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
	return s.listSessions(ctx, func(q *gorm.DB) *gorm.DB {
		if serviceID != "" {
			q = q.Where("sessions.service_id = ?", serviceID)
		}
		return q
	})
}

// IdentitySessions returns the live single sign-on sessions, on every
// service, of one identity of the OpenID provider (issuer and subject),
// newest first: the service sessions of the person linked to it.
func (s *Service) IdentitySessions(ctx context.Context, issuer, subject string) ([]SessionResponse, error) {
	if issuer == "" || subject == "" {
		return []SessionResponse{}, nil
	}
	return s.listSessions(ctx, func(q *gorm.DB) *gorm.DB {
		return q.Where("sessions.kind = ? AND sessions.sso_issuer = ? AND sessions.sso_subject = ?", store.SessionSSO, issuer, subject)
	})
}

// EndIdentitySessions ends the single sign-on sessions of one identity:
// every one, or only id when it is not empty (404 when that session is not
// the identity's). Every replica drops them from its cache.
func (s *Service) EndIdentitySessions(ctx context.Context, issuer, subject, id string) error {
	if issuer == "" || subject == "" {
		if id != "" {
			return apperr.NotFound("session")
		}
		return nil
	}
	q := s.db.WithContext(ctx).Where("kind = ? AND sso_issuer = ? AND sso_subject = ?", store.SessionSSO, issuer, subject)
	if id != "" {
		q = q.Where("id = ?", id)
	}
	var ids []string
	if err := q.Model(&store.Session{}).Pluck("id", &ids).Error; err != nil {
		return fmt.Errorf("find sessions: %w", err)
	}
	if id != "" && len(ids) == 0 {
		return apperr.NotFound("session")
	}
	if len(ids) == 0 {
		return nil
	}
	if err := s.db.WithContext(ctx).Where("id IN ?", ids).Delete(&store.Session{}).Error; err != nil {
		return fmt.Errorf("end sessions: %w", err)
	}
	for _, sid := range ids {
		s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + sid})
	}
	return nil
}

func (s *Service) listSessions(ctx context.Context, filter func(*gorm.DB) *gorm.DB) ([]SessionResponse, error) {
	var rows []struct {
		store.Session
		ServiceName string
	}
	q := s.db.WithContext(ctx).Table("sessions").Select("sessions.*, services.name AS service_name").
		Joins("JOIN services ON services.id = sessions.service_id").
		Where("sessions.expires_at > ?", s.now()).Order("sessions.created_at DESC, sessions.id DESC")
	if err := filter(q).Scan(&rows).Error; err != nil {
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
