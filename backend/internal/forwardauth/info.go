package forwardauth

import (
	"context"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
)

// AccessInfo answers the access-rule API what it needs about a service:
// its hostnames and enabled protections (access.ServiceInfo).
func (s *Service) AccessInfo(ctx context.Context, serviceID string) (access.Info, bool, error) {
	pol, err := s.policy.get(ctx)
	if err != nil {
		return access.Info{}, false, err
	}
	sp := pol.services[serviceID]
	if sp == nil {
		return access.Info{}, false, nil
	}
	return access.Info{Hosts: sp.hosts, Protections: sp.protections()}, true, nil
}

// ServiceNames maps the ids that name services to their names
// (machinetokens.Directory).
func (s *Service) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	pol, err := s.policy.get(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		if sp := pol.services[id]; sp != nil {
			out[id] = sp.name
		}
	}
	return out, nil
}

// AcceptsTokens reports whether a service has the machine-token protection
// on (machinetokens.Directory).
func (s *Service) AcceptsTokens(ctx context.Context, serviceID string) (bool, error) {
	pol, err := s.policy.get(ctx)
	if err != nil {
		return false, err
	}
	sp := pol.services[serviceID]
	return sp != nil && sp.tokens, nil
}
