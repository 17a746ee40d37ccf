package app

import (
	"context"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
)

// clientDirectory answers the OpenID Connect clients' questions about
// services (forward-auth's snapshot) and people and groups (the
// directory), both built after the clients.
type clientDirectory struct {
	services *forwardauth.Ref
	people   *directoryRef
}

func (d clientDirectory) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return d.services.ServiceNames(ctx, ids)
}

func (d clientDirectory) GroupNames(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	groups, err := d.people.svc.ListGroups(ctx)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	for _, g := range groups {
		if want[g.ID] {
			out[g.ID] = g.Name
		}
	}
	return out, nil
}

func (d clientDirectory) GroupIDsOf(ctx context.Context, personID string) ([]string, bool, error) {
	p, err := d.people.svc.Get(ctx, personID)
	if apperr.IsCode(err, apperr.CodeNotFound) {
		return nil, false, nil
	}
	if err != nil || !p.Enabled {
		return nil, false, err
	}
	ids := make([]string, len(p.Groups))
	for i, g := range p.Groups {
		ids[i] = g.ID
	}
	return ids, true, nil
}
