package cluster

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
)

// Exclusive (gatehouse import -apply) is refused while any replica serves,
// and taken once the last one stops.
func TestExclusiveWaitsForNoReplica(t *testing.T) {
	database := onPostgres(t)
	serve := func() context.CancelFunc {
		c, err := New(t.Context(), database, change.NewBus(), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		ctx, stop := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { defer close(done); c.Serving()(ctx) }()
		return func() { stop(); <-done }
	}
	stopA, stopB := serve(), serve()
	defer stopA()
	defer stopB()

	refused := func() bool {
		release, err := Exclusive(t.Context(), database)
		if err == nil {
			release()
			return false
		}
		if !errors.Is(err, ErrServing) {
			t.Fatalf("Exclusive: %v", err)
		}
		return true
	}
	waitFor(t, 5*time.Second, "two serving replicas to hold the lock", refused)
	stopA()
	if !refused() {
		t.Fatal("Exclusive was taken beside a replica still serving")
	}
	stopB()
	waitFor(t, 5*time.Second, "Exclusive with no replica serving", func() bool { return !refused() })
}
