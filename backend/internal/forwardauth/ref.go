package forwardauth

import (
	"context"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
)

// Ref answers for a Service built after the services that ask it: access
// rules and machine tokens consult forward-auth for service names and
// protections, and forward-auth compiles their answers into its snapshot.
// Hand a Ref to the rule and token services, build the Service with them,
// then Set it. Its methods are called only while requests are served, once
// it is set.
type Ref struct{ svc *Service }

// Set points r at s.
func (r *Ref) Set(s *Service) { r.svc = s }

// AccessInfo implements access.ServiceInfo.
func (r *Ref) AccessInfo(ctx context.Context, id string) (access.Info, bool, error) {
	return r.svc.AccessInfo(ctx, id)
}

// ServiceNames implements machinetokens.Directory.
func (r *Ref) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return r.svc.ServiceNames(ctx, ids)
}

// AcceptsTokens implements machinetokens.Directory.
func (r *Ref) AcceptsTokens(ctx context.Context, id string) (bool, error) {
	return r.svc.AcceptsTokens(ctx, id)
}
