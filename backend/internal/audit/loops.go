package audit

import (
	"context"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// LeaderLoops are the background work of the leader: pruning entries past
// the retention every hour.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("audit retention", time.Hour, func(ctx context.Context) {
		if n, err := s.Prune(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("prune audit entries", "err", err)
		} else if n > 0 {
			s.log.Info("pruned audit entries", "count", n)
		}
	})}
}
