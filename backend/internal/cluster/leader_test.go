package cluster

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
)

// contender runs a Leader loop whose one job records whether it runs.
type contender struct {
	c       *Cluster
	running atomic.Bool
	stop    context.CancelFunc
	done    chan struct{}
}

func newContender(t *testing.T, database string) *contender {
	t.Helper()
	c, err := New(t.Context(), database, change.NewBus(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	ctx, stop := context.WithCancel(t.Context())
	k := &contender{c: c, stop: stop, done: make(chan struct{})}
	job := func(ctx context.Context) {
		k.running.Store(true)
		<-ctx.Done()
		k.running.Store(false)
	}
	go func() { defer close(k.done); c.Leader("test", background.Loop{Name: "test", Run: job}).Run(ctx) }()
	t.Cleanup(func() { stop(); <-k.done })
	return k
}

// leaderOf waits until exactly one of ks runs its job and returns it.
func leaderOf(t *testing.T, d time.Duration, ks ...*contender) *contender {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		var lead []*contender
		for _, k := range ks {
			if k.running.Load() {
				lead = append(lead, k)
			}
		}
		if len(lead) == 1 {
			return lead[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no single leader within %v", d)
	return nil
}

func TestLeaderTakeover(t *testing.T) {
	tests := []struct {
		name string
		lose func(t *testing.T, database string, k *contender)
	}{
		{"the leader's connection is cut", func(t *testing.T, database string, k *contender) {
			terminate(t, database, "gatehouse leader test "+k.c.ID())
		}},
		{"the leader stops", func(_ *testing.T, _ string, k *contender) {
			k.stop()
			<-k.done
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := onPostgres(t)
			a, b := newContender(t, db), newContender(t, db)
			first := leaderOf(t, 5*time.Second, a, b)
			other := map[*contender]*contender{a: b, b: a}[first]
			time.Sleep(LeaderRetry + 500*time.Millisecond) // the other keeps trying, in vain
			if other.running.Load() {
				t.Fatal("both lead")
			}
			start := time.Now()
			tt.lose(t, db, first)
			waitFor(t, 3*LeaderRetry, "the other replica to take over", other.running.Load)
			t.Logf("takeover after %v", time.Since(start).Round(time.Millisecond))
			waitFor(t, LeaderRetry, "the old leader to stop its job", func() bool { return !first.running.Load() })
		})
	}
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
	}
}
