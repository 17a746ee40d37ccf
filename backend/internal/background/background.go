// Package background is the one shape of background work. A feature that
// has some returns it as named loops: Loops for what every replica runs
// (flushing what it noted in memory, delivering what it queued), and
// LeaderLoops for what one replica runs for all of them (sweeps, schedules,
// watchers): the leader with several replicas on PostgreSQL, the only
// replica on SQLite. The app collects them and starts them; it writes none
// itself.
package background

import (
	"context"
	"log/slog"
	"time"
)

// Loop is one piece of background work. Run returns when ctx ends.
type Loop struct {
	Name string // what it does, for the logs
	Run  func(ctx context.Context)
}

// Every returns a loop named name that calls f at once and then every d
// until ctx ends.
func Every(name string, d time.Duration, f func(ctx context.Context)) Loop {
	return Loop{Name: name, Run: func(ctx context.Context) {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			f(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}}
}

// Start runs every loop in a goroutine of its own until ctx ends.
func Start(ctx context.Context, log *slog.Logger, loops []Loop) {
	for _, l := range loops {
		go func() {
			log.Debug("background loop started", "loop", l.Name)
			l.Run(ctx)
			log.Debug("background loop stopped", "loop", l.Name)
		}()
	}
}
