package dynconf

import (
	"context"
	"fmt"
)

// Scheme is how browsers reach a service on entrypoints (none: the global
// default entrypoints): "https" when Build gives any of the service's
// routers TLS, "http" when every entrypoint serves plain HTTP. The same
// sources and name rule decide both, so a shared link never promises TLS
// the router does not serve.
func (s *Service) Scheme(ctx context.Context, entrypoints []string) (string, error) {
	eps := entrypoints
	if len(eps) == 0 {
		g, err := s.d.Settings.Get(ctx)
		if err != nil {
			return "", fmt.Errorf("read settings: %w", err)
		}
		eps = g.DefaultEntrypoints
	}
	if len(eps) == 0 {
		return "https", nil // not routed at all; https is the safe guess
	}
	snap := Snapshot{EntrypointTLS: firstTLSSource(ctx, s.d.TLSSources)}
	for _, ep := range eps {
		if snap.isTLS(ep) {
			return "https", nil
		}
	}
	return "http", nil
}
