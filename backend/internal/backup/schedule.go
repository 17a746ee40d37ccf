package backup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// configKey is the app_config key of the schedule.
const configKey = "backup_schedule"

// DefaultSchedule is daily, keeping a week.
var DefaultSchedule = Schedule{Enabled: true, IntervalHours: 24, Keep: 7}

// Validate checks the schedule's ranges.
func (sc Schedule) Validate() error {
	var c apperr.Collector
	if sc.IntervalHours < 1 || sc.IntervalHours > 24*31 {
		c.Add("intervalHours", "must be between 1 and 744 (31 days)")
	}
	if sc.Keep < 1 || sc.Keep > 1000 {
		c.Add("keep", "must be between 1 and 1000")
	}
	return c.Err()
}

// Schedule returns the stored schedule, or the default.
func (s *Service) Schedule(ctx context.Context) (Schedule, error) {
	sc := DefaultSchedule
	if _, err := store.GetConfig(ctx, s.o.DB, configKey, &sc); err != nil {
		return Schedule{}, err
	}
	return sc, nil
}

// PutSchedule stores the schedule and wakes the loop, so a shorter interval
// or a schedule switched on takes effect at once.
func (s *Service) PutSchedule(ctx context.Context, sc Schedule) (Schedule, error) {
	if err := sc.Validate(); err != nil {
		return Schedule{}, err
	}
	if err := store.PutConfig(ctx, s.o.DB, configKey, sc); err != nil {
		return Schedule{}, err
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return sc, nil
}

// Next is when the next scheduled backup is due: the newest scheduled
// backup's time plus the interval, so a restart neither skips nor doubles
// one; now when there is none. Zero when the schedule is off.
func (s *Service) Next(ctx context.Context) (time.Time, error) {
	sc, err := s.Schedule(ctx)
	if err != nil || !sc.Enabled {
		return time.Time{}, err
	}
	list, err := s.List(ctx)
	if err != nil {
		return time.Time{}, err
	}
	for _, e := range list {
		if e.Trigger == TriggerScheduled {
			return e.CreatedAt.Add(time.Duration(sc.IntervalHours) * time.Hour), nil
		}
	}
	return s.o.Now().UTC(), nil
}

// LastError is the last scheduled backup's failure; nil after a success.
func (s *Service) LastError() *LastError {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.lastError == nil {
		return nil
	}
	e := *s.lastError
	return &e
}

// RunDue takes a scheduled backup if one is due and prunes the old ones.
// Failures are logged, kept as the last error and notified; the next
// success clears them and notifies the recovery.
func (s *Service) RunDue(ctx context.Context) {
	next, err := s.Next(ctx)
	if err == nil && (next.IsZero() || next.After(s.o.Now())) {
		return
	}
	if err == nil {
		err = s.scheduled(ctx)
	}
	if ctx.Err() != nil {
		return
	}
	now := s.o.Now().UTC()
	s.stateMu.Lock()
	if err != nil {
		s.lastError = &LastError{At: now, Message: err.Error()}
	} else {
		s.lastError = nil
	}
	s.stateMu.Unlock()
	if err != nil {
		s.o.Logger.Error("scheduled backup failed", "dir", s.o.Dir, "err", err)
	}
	s.o.Notify.Publish(ctx, notify.BackupEvent(err, s.o.Dir, now))
}

// sweepTemporary removes what a backup interrupted by a crash left in the
// backup directory: temporary archives and snapshot directories older than
// an hour (a backup running now, from the command line, is younger).
func (s *Service) sweepTemporary() {
	des, err := os.ReadDir(s.o.Dir)
	if err != nil {
		return
	}
	for _, de := range des {
		name := de.Name()
		temporary := strings.HasPrefix(name, ".snapshot-") || (strings.HasPrefix(name, ".gatehouse-") && strings.HasSuffix(name, ".tmp"))
		if !temporary {
			continue
		}
		if fi, err := de.Info(); err == nil && s.o.Now().Sub(fi.ModTime()) > time.Hour {
			if err := os.RemoveAll(filepath.Join(s.o.Dir, name)); err == nil {
				s.o.Logger.Info("removed an interrupted backup's temporary file", "name", name)
			}
		}
	}
}

func (s *Service) scheduled(ctx context.Context) error {
	sc, err := s.Schedule(ctx)
	if err != nil {
		return err
	}
	if _, err := s.Create(ctx, TriggerScheduled); err != nil {
		return err
	}
	n, err := s.Prune(ctx, sc.Keep)
	if err != nil {
		return fmt.Errorf("the backup was written but pruning failed: %w", err)
	}
	if n > 0 {
		s.o.Logger.Info("pruned scheduled backups", "count", n, "keep", sc.Keep)
	}
	return nil
}

// LeaderLoops are the background work of the leader: the backup schedule. A
// database this panel cannot snapshot (PostgreSQL, backed up with its own
// tools) has none.
func (s *Service) LeaderLoops() []background.Loop {
	if _, ok := s.o.Snap.(Unsupported); ok {
		return nil
	}
	return []background.Loop{{Name: "backup schedule", Run: s.loop(time.Minute)}}
}

// loop checks every interval (and whenever the schedule changes) whether a
// scheduled backup is due. It stops with ctx.
func (s *Service) loop(interval time.Duration) func(ctx context.Context) {
	return func(ctx context.Context) {
		s.sweepTemporary()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.RunDue(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-s.wake:
			}
		}
	}
}
