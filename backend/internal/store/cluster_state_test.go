package store_test

import (
	"context"
	"fmt"
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
	if err := store.PutPending(ctx, dbs[0], store.PendingExchange, "state-1", payload{"n1"}, now.Add(time.Minute)); err != nil {
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
		{"other kind", store.PendingUsed + "admin", "state-1", dbs[1], false},
		{"other key", store.PendingExchange, "state-2", dbs[1], false},
		{"other replica", store.PendingExchange, "state-1", dbs[1], true},
		{"again", store.PendingExchange, "state-1", dbs[0], false},
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
	if err := store.PutPending(ctx, db, store.PendingExchange, "tok", payload{"x"}, now.Add(time.Minute)); err != nil {
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

// A state is marked used once, whichever replica marks it, and a flood of
// other states marked does not stop the next one (there is no cap).
func TestMarkPendingOnce(t *testing.T) {
	ctx := context.Background()
	dbs := replicas(t, 2)
	exp := time.Date(2026, 1, 1, 12, 10, 0, 0, time.UTC)
	for i := range 200 {
		if ok, err := store.MarkPending(ctx, dbs[i%2], store.PendingUsed+"service", fmt.Sprint("flood-", i), exp); !ok || err != nil {
			t.Fatalf("mark %d: %v %v", i, ok, err)
		}
	}
	tests := []struct {
		name, kind, key string
		db              *gorm.DB
		ok              bool
	}{
		{"first", store.PendingUsed + "service", "state", dbs[0], true},
		{"again on another replica", store.PendingUsed + "service", "state", dbs[1], false},
		{"again", store.PendingUsed + "service", "state", dbs[0], false},
		{"other flow", store.PendingUsed + "admin", "state", dbs[1], true},
	}
	for _, tt := range tests {
		ok, err := store.MarkPending(ctx, tt.db, tt.kind, tt.key, exp)
		if err != nil || ok != tt.ok {
			t.Fatalf("%s: %v %v, want %v", tt.name, ok, err, tt.ok)
		}
	}
}

// Of many takers on several replicas, exactly one gets each row.
func TestPendingConcurrentTakers(t *testing.T) {
	ctx := context.Background()
	dbs := replicas(t, 2)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for round := range 5 {
		if err := store.PutPending(ctx, dbs[0], store.PendingExchange, "tok", payload{"n"}, now.Add(time.Minute)); err != nil {
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
