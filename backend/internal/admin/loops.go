package admin

import (
	"context"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// Loops are the background work every replica runs: writing the sessions'
// last-seen times it noted, twice per LastSeenInterval.
func (s *Service) Loops() []background.Loop {
	return []background.Loop{background.Every("admin sessions last seen", LastSeenInterval/2, func(ctx context.Context) {
		if err := s.FlushLastSeen(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("record admin sessions last seen", "err", err)
		}
	})}
}

// LeaderLoops are the background work of the leader: deleting expired
// sessions every hour.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("admin sessions sweep", time.Hour, func(ctx context.Context) {
		if err := s.SweepSessions(ctx); err != nil {
			s.log.Warn("sweep admin sessions", "err", err)
		}
	})}
}
