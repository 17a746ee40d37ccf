package forwardauth

import (
	"cmp"
	"context"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// LauncherService is one service on the portal's launcher.
type LauncherService struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"`
	URL         string `json:"url"`
	Group       string `json:"group"`
	Order       int    `json:"order"`
}

// LauncherResponse is the answer of GET /api/portal/services.
type LauncherResponse struct {
	Services []LauncherService `json:"services"`
}

// Launcher lists the services a person may open: the live services whose
// people protection admits them, or (without one) that are linked to an
// OpenID Connect client the person may sign in to, not hidden from the
// launcher, by group, order and name: one entry per service, however it
// admits them.
// Other services are left out: the launcher shows what the person's
// sign-in opens, and an unprotected service (an API, a webhook receiver)
// is not necessarily meant for people.
func (s *Service) Launcher(ctx context.Context, personID string) ([]LauncherService, error) {
	pol, err := s.policy.get(ctx)
	if err != nil {
		return nil, err
	}
	apps := map[string]bool{}
	if s.apps != nil {
		if apps, err = s.apps.LinkedServices(ctx, personID); err != nil {
			return nil, err
		}
	}
	pe := pol.people[personID]
	out := []LauncherService{}
	now := s.now()
	for _, sp := range pol.services {
		if !sp.live(now) || sp.launcher.Hidden || len(sp.hosts) == 0 {
			continue
		}
		// The door decides first: a service behind a people protection shows
		// to whom it admits, whatever its client says; a service without one
		// shows to whom its linked client admits.
		if sp.people != nil && !sp.people.allows(pe) || sp.people == nil && !apps[sp.id] {
			continue
		}
		scheme, err := s.schemes.Scheme(ctx, sp.entrypoints)
		if err != nil {
			return nil, err
		}
		l := sp.launcher
		out = append(out, LauncherService{ID: sp.id, Name: sp.name, Description: l.Description, Icon: l.Icon,
			URL: scheme + "://" + sp.hosts[0] + "/", Group: l.Group, Order: l.Order})
	}
	slices.SortFunc(out, func(a, b LauncherService) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Order, b.Order), cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// portalServices is GET /api/portal/services on the portal's host.
func (s *Service) portalServices(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), dbTimeout)
	defer cancel()
	if s.portal == nil {
		return apperr.Unauthenticated("sign in on the portal first")
	}
	in, ok, err := s.portal.PortalSignIn(ctx, c.Request())
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Unauthenticated("sign in on the portal first")
	}
	list, err := s.Launcher(ctx, in.PersonID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, LauncherResponse{Services: list})
}
