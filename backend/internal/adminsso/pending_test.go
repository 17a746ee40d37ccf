package adminsso

import (
	"context"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// A sign-in to the panel started on one replica finishes on another, once.
func TestPendingAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	database := testutil.NewDatabase(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	var replicas [2]*pending
	for i := range replicas {
		db := testutil.OpenDB(t, database)
		replicas[i] = newPending(db, clock.Now)
	}
	a, b := replicas[0], replicas[1]
	if err := a.add(ctx, "state", attempt{Nonce: "n", Verifier: "v"}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := b.take(ctx, "state")
	if err != nil || !ok || got != (attempt{Nonce: "n", Verifier: "v"}) {
		t.Fatalf("take on the other replica: %+v %v %v", got, ok, err)
	}
	if _, ok, err := a.take(ctx, "state"); ok || err != nil {
		t.Fatalf("taken twice: %v %v", ok, err)
	}

	// An expired attempt is never honoured.
	if err := a.add(ctx, "late", attempt{Nonce: "n"}); err != nil {
		t.Fatal(err)
	}
	clock.Add(loginTTL)
	if _, ok, err := b.take(ctx, "late"); ok || err != nil {
		t.Fatalf("taken at its expiry: %v %v", ok, err)
	}
}
