package cluster

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
		go func() { defer close(done); c.Serving().Run(ctx) }()
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
	// Asked without Exclusive, which would stand in the way of a replica
	// taking its share.
	waitFor(t, 10*time.Second, "both serving replicas to hold the lock", func() bool { return holders(t, database) == 2 })
	stopA()
	if !refused() {
		t.Fatal("Exclusive was taken beside a replica still serving")
	}
	stopB()
	waitFor(t, 5*time.Second, "Exclusive with no replica serving", func() bool { return !refused() })
}

// holders counts the connections holding the serving lock, shared.
func holders(t *testing.T, database string) int {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), database)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	var n int
	if err := conn.QueryRow(t.Context(), `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND mode = 'ShareLock' AND classid = $1::oid AND objid = $2::oid AND objsubid = 2`,
		uint32(leaderClass), uint32(lockKey(servingLock))).Scan(&n); err != nil { //nolint:gosec // the lock's keys as pg_locks shows them: their bits as oids
		t.Fatal(err)
	}
	return n
}
