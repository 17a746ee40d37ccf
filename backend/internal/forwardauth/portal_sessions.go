package forwardauth

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// OwnServiceSession is one of the signed-in person's sessions on a
// service, as their account page on the portal shows it.
type OwnServiceSession struct {
	ID          string `json:"id"`
	ServiceID   string `json:"serviceId"`
	ServiceName string `json:"serviceName"`
	// PortalSessionID is the portal session it was opened from; it ends
	// with it.
	PortalSessionID string    `json:"portalSessionId"`
	CreatedAt       time.Time `json:"createdAt"`
	LastSeenAt      time.Time `json:"lastSeenAt"`
	ExpiresAt       time.Time `json:"expiresAt"`
}

// OwnServiceSessions is the answer of GET /api/portal/sessions.
type OwnServiceSessions struct {
	Items []OwnServiceSession `json:"items"`
}

// OwnSessions lists a person's live sessions on the services, opened from
// their portal sessions, newest first.
func (s *Service) OwnSessions(ctx context.Context, personID string) ([]OwnServiceSession, error) {
	var rows []struct {
		store.Session
		ServiceName string
	}
	if err := s.db.WithContext(ctx).Table("sessions").Select("sessions.*, services.name AS service_name").
		Joins("JOIN services ON services.id = sessions.service_id").
		Where("sessions.kind = ? AND sessions.person_id = ? AND sessions.expires_at > ?", store.SessionPeople, personID, s.now()).
		Order("sessions.created_at DESC, sessions.id DESC").Limit(500).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list own sessions: %w", err)
	}
	out := make([]OwnServiceSession, len(rows))
	for i, r := range rows {
		out[i] = OwnServiceSession{ID: r.ID, ServiceID: r.ServiceID, ServiceName: r.ServiceName, PortalSessionID: r.PortalSessionID,
			CreatedAt: r.CreatedAt.UTC(), LastSeenAt: r.LastSeenAt.UTC(), ExpiresAt: r.ExpiresAt.UTC()}
	}
	return out, nil
}

// portalPerson is the person signed in on the portal, or 401.
func (s *Service) portalPerson(ctx context.Context, c echo.Context) (PortalSignIn, error) {
	if s.portal == nil {
		return PortalSignIn{}, apperr.Unauthenticated("sign in on the portal first")
	}
	in, ok, err := s.portal.PortalSignIn(ctx, c.Request())
	if err != nil {
		return PortalSignIn{}, err
	}
	if !ok {
		return PortalSignIn{}, apperr.Unauthenticated("sign in on the portal first")
	}
	return in, nil
}

// portalSessions is GET /api/portal/sessions on the portal's host.
func (s *Service) portalSessions(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	defer cancel()
	in, err := s.portalPerson(ctx, c)
	if err != nil {
		return err
	}
	list, err := s.OwnSessions(ctx, in.PersonID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, OwnServiceSessions{Items: list})
}

// endPortalSession is DELETE /api/portal/sessions/:id: the person signs
// out of one service; another person's session is not found.
func (s *Service) endPortalSession(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	defer cancel()
	in, err := s.portalPerson(ctx, c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	if id == "" || len(id) > 64 {
		return apperr.NotFound("session")
	}
	if err := s.EndPersonSessions(ctx, in.PersonID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
