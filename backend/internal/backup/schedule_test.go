package backup

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
)

// TestScheduleRunsOnTimeAcrossRestarts: the first run is due at once; the
// next one an interval after the newest scheduled backup, also for a new
// service on the same directory (a restart), so nothing is skipped or
// doubled; pruning keeps the newest N scheduled backups and every manual one.
func TestScheduleRunsOnTimeAcrossRestarts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.svc.PutSchedule(ctx, Schedule{Enabled: true, IntervalHours: 6, Keep: 2}); err != nil {
		t.Fatal(err)
	}
	manual, err := f.svc.Create(ctx, TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	f.svc.RunDue(ctx)
	scheduled := func() []Entry {
		list, err := f.svc.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []Entry
		for _, e := range list {
			if e.Trigger == TriggerScheduled {
				out = append(out, e)
			}
		}
		return out
	}
	if n := len(scheduled()); n != 1 {
		t.Fatalf("%d scheduled backups after the first run", n)
	}
	first := scheduled()[0].CreatedAt
	for _, step := range []struct {
		after time.Duration
		want  int
	}{{time.Hour, 1}, {5*time.Hour - time.Second, 1}, {time.Second, 2}, {time.Minute, 2}} {
		f.clock.Add(step.after)
		// A restart: a new service on the same directory and database.
		f.svc = NewService(f.svc.o)
		f.svc.RunDue(ctx)
		if n := len(scheduled()); n != step.want {
			t.Fatalf("at +%v: %d scheduled backups, want %d", f.clock.Now().Sub(first), n, step.want)
		}
	}
	next, _ := f.svc.Next(ctx)
	if want := first.Add(12 * time.Hour); !next.Equal(want) {
		t.Fatalf("next %v, want %v", next, want)
	}
	for range 3 {
		f.clock.Add(6 * time.Hour)
		f.svc.RunDue(ctx)
	}
	list, _ := f.svc.List(ctx)
	if n := len(scheduled()); n != 2 || len(list) != 3 || !slices.ContainsFunc(list, func(e Entry) bool { return e.Name == manual.Name }) {
		t.Fatalf("after pruning: %+v", list)
	}
	if _, err := f.svc.PutSchedule(ctx, Schedule{Enabled: false, IntervalHours: 6, Keep: 2}); err != nil {
		t.Fatal(err)
	}
	if next, _ := f.svc.Next(ctx); !next.IsZero() {
		t.Fatalf("next %v with the schedule off", next)
	}
}

// TestScheduledFailureIsKeptAndNotified: a failing scheduled backup sets
// the last error and publishes backup_failed; the next success clears it
// and publishes the recovery.
func TestScheduledFailureIsKeptAndNotified(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	// A file where the backup directory should be makes every backup fail.
	if err := os.WriteFile(f.svc.Dir(), []byte("in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.svc.RunDue(ctx)
	le := f.svc.LastError()
	if le == nil || le.Message == "" || !slices.Equal(f.events.kinds(), []notify.Kind{notify.BackupFailed}) {
		t.Fatalf("last error %+v, events %v", le, f.events.kinds())
	}
	if err := os.Remove(f.svc.Dir()); err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	f.svc.RunDue(ctx)
	if f.svc.LastError() != nil || !slices.Equal(f.events.kinds(), []notify.Kind{notify.BackupFailed, notify.BackupRecovered}) {
		t.Fatalf("after success: %+v, events %v", f.svc.LastError(), f.events.kinds())
	}
	if des, _ := os.ReadDir(f.svc.Dir()); len(des) != 1 || filepath.Ext(des[0].Name()) != ".gz" {
		t.Fatalf("backup directory holds %v (temporary files left behind?)", des)
	}
}

func TestScheduleValidation(t *testing.T) {
	f := newFixture(t)
	for _, sc := range []Schedule{{Enabled: true, IntervalHours: 0, Keep: 7}, {Enabled: true, IntervalHours: 24, Keep: 0},
		{IntervalHours: 745, Keep: 7}, {IntervalHours: 24, Keep: 1001}} {
		if _, err := f.svc.PutSchedule(context.Background(), sc); err == nil {
			t.Errorf("%+v accepted", sc)
		}
	}
	if sc, _ := f.svc.Schedule(context.Background()); sc != DefaultSchedule {
		t.Fatalf("schedule %+v", sc)
	}
}

// TestLoopSweepsInterruptedTemporaries: what a crashed backup left behind
// goes when the loop starts; a temporary of a backup running now stays.
func TestLoopSweepsInterruptedTemporaries(t *testing.T) {
	f := newFixture(t)
	dir := f.svc.Dir()
	if err := os.MkdirAll(filepath.Join(dir, ".snapshot-123"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{".gatehouse-1.tar.gz.tmp", ".gatehouse-2.tar.gz.tmp", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := f.clock.Now().Add(-2 * time.Hour)
	for _, n := range []string{".snapshot-123", ".gatehouse-1.tar.gz.tmp", "notes.txt"} {
		if err := os.Chtimes(filepath.Join(dir, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(filepath.Join(dir, ".gatehouse-2.tar.gz.tmp"), f.clock.Now(), f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	f.svc.sweepTemporary()
	var left []string
	des, _ := os.ReadDir(dir)
	for _, d := range des {
		left = append(left, d.Name())
	}
	if !slices.Equal(left, []string{".gatehouse-2.tar.gz.tmp", "notes.txt"}) {
		t.Fatalf("left %v", left)
	}
}
