package background

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

// Every calls its function at once, then every interval, and its loop
// returns when the context ends.
func TestEveryRunsAtOnceAndStopsWithItsContext(t *testing.T) {
	var calls atomic.Int32
	l := Every("count", time.Millisecond, func(context.Context) { calls.Add(1) })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx) }()
	deadline := time.Now().Add(5 * time.Second)
	for calls.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := calls.Load(); n < 3 {
		t.Fatalf("called %d times within 5s, want at least 3", n)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the loop did not return after its context ended")
	}
	if l.Name != "count" {
		t.Fatalf("name %q", l.Name)
	}
}

// Start runs every loop with the context it is given.
func TestStartRunsEveryLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ran := make(chan string, 2)
	loop := func(name string) Loop {
		return Loop{Name: name, Run: func(ctx context.Context) { ran <- name; <-ctx.Done() }}
	}
	Start(ctx, slog.New(slog.DiscardHandler), []Loop{loop("a"), loop("b")})
	got := map[string]bool{}
	for range 2 {
		select {
		case n := <-ran:
			got[n] = true
		case <-time.After(5 * time.Second):
			t.Fatalf("ran %v, want a and b", got)
		}
	}
}
