package dynconf

import (
	"context"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// LeaderLoops are the background work of the leader: switching expired
// services off within seconds even when Traefik does not poll, so the API
// and the UI show it.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("service expiry", 2*time.Second, func(ctx context.Context) {
		if err := s.DisableExpired(ctx); err != nil && ctx.Err() == nil {
			s.d.Logger.Warn("disable expired services", "err", err)
		}
	})}
}
