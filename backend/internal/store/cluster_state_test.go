package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// replicas opens n handles (own connection pools) on one test database.
func replicas(t *testing.T, n int) []*gorm.DB {
	t.Helper()
	database := testutil.NewDatabase(t)
	out := make([]*gorm.DB, n)
	for i := range out {
		db := testutil.OpenDB(t, database)
		out[i] = db
	}
	return out
}

type payload struct{ Nonce string }

func TestPendingTakenOnce(t *testing.T) {
	ctx := context.Background()
	dbs := replicas(t, 2)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if err := store.PutPending(ctx, dbs[0], store.PendingLogin, "state-1", payload{"n1"}, now, now.Add(time.Minute), 10); err != nil {
		t.Fatal(err)
	}
	var row store.SSOPending
	if err := dbs[0].Take(&row).Error; err != nil || row.KeyHash == "state-1" || len(row.KeyHash) != 64 {
		t.Fatalf("stored key %q (%v): want the state's SHA-256, never the state", row.KeyHash, err)
	}
	tests := []struct {
		name, kind, key string
		db              *gorm.DB
		ok              bool
	}{
		{"other kind", store.PendingAdminLogin, "state-1", dbs[1], false},
		{"other key", store.PendingLogin, "state-2", dbs[1], false},
		{"other replica", store.PendingLogin, "state-1", dbs[1], true},
		{"again", store.PendingLogin, "state-1", dbs[0], false},
	}
	for _, tt := range tests {
		var p payload
		ok, err := store.TakePending(ctx, tt.db, tt.kind, tt.key, now, &p)
		if err != nil || ok != tt.ok || (ok && p.Nonce != "n1") {
			t.Fatalf("%s: %v %+v %v, want %v", tt.name, ok, p, err, tt.ok)
		}
	}
}

func TestPendingExpiredIsNeverHonoured(t *testing.T) {
	ctx := context.Background()
	db := testutil.NewDB(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if err := store.PutPending(ctx, db, store.PendingExchange, "tok", payload{"x"}, now, now.Add(time.Minute), 10); err != nil {
		t.Fatal(err)
	}
	var p payload
	if ok, err := store.TakePending(ctx, db, store.PendingExchange, "tok", now.Add(time.Minute), &p); ok || err != nil {
		t.Fatalf("taken at its expiry: %v %v", ok, err)
	}
	if err := store.SweepPending(ctx, db, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.Model(&store.SSOPending{}).Count(&n).Error; err != nil || n != 0 {
		t.Fatalf("%d rows after the sweep (%v)", n, err)
	}
}

func TestPendingCap(t *testing.T) {
	ctx := context.Background()
	db := testutil.NewDB(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	put := func(key string, at time.Time) error {
		return store.PutPending(ctx, db, store.PendingLogin, key, payload{}, at, at.Add(time.Minute), 2)
	}
	for _, k := range []string{"a", "b"} {
		if err := put(k, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.PutPending(ctx, db, store.PendingExchange, "other kind", payload{}, now, now.Add(time.Minute), 2); err != nil {
		t.Fatalf("the cap counts one kind: %v", err)
	}
	if err := put("c", now); !errors.Is(err, store.ErrTooManyPending) {
		t.Fatalf("third of two: %v", err)
	}
	// Once the first two expired, the sweep makes room.
	if err := put("c", now.Add(time.Minute)); err != nil {
		t.Fatalf("after expiry: %v", err)
	}
}

// Of many takers on several replicas, exactly one gets each row.
func TestPendingConcurrentTakers(t *testing.T) {
	ctx := context.Background()
	dbs := replicas(t, 2)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for round := range 5 {
		if err := store.PutPending(ctx, dbs[0], store.PendingExchange, "tok", payload{"n"}, now, now.Add(time.Minute), 10); err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				var p payload
				ok, err := store.TakePending(ctx, dbs[i%2], store.PendingExchange, "tok", now, &p)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					won++
					mu.Unlock()
				}
			})
		}
		close(start)
		wg.Wait()
		if won != 1 {
			t.Fatalf("round %d: %d of %d takers got the row, want 1", round, won, n)
		}
	}
}
