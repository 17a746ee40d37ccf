package cluster

import (
	"context"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// replica is one cluster with a bus whose events a test can wait for.
type replica struct {
	c      *Cluster
	bus    *change.Bus
	events chan change.Event
}

// newReplica starts a cluster on database and waits until it listens (its
// first change.All).
func newReplica(t *testing.T, database string) *replica {
	t.Helper()
	r := &replica{bus: change.NewBus(), events: make(chan change.Event, 1024)}
	r.bus.Subscribe(func(e change.Event) { r.events <- e })
	c, err := New(t.Context(), database, r.bus, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	r.c = c
	r.wait(t, change.Event{Entity: change.All}, 5*time.Second)
	return r
}

// wait returns once want arrives on r's bus, failing after d.
func (r *replica) wait(t *testing.T, want change.Event, d time.Duration) {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case e := <-r.events:
			if e == want {
				return
			}
		case <-timeout:
			t.Fatalf("%+v did not arrive within %v", want, d)
		}
	}
}

// drain returns the events that arrive within d.
func (r *replica) drain(d time.Duration) []change.Event {
	var out []change.Event
	timeout := time.After(d)
	for {
		select {
		case e := <-r.events:
			out = append(out, e)
		case <-timeout:
			return out
		}
	}
}

func onPostgres(t *testing.T) string {
	t.Helper()
	if !testutil.OnPostgres() {
		t.Skip("needs PostgreSQL (" + testutil.PostgresEnv + ")")
	}
	return testutil.NewDatabase(t)
}

// terminate ends the server side of the connections whose application_name
// is name, as a failover or a network cut would.
func terminate(t *testing.T, database, name string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), database)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close(context.Background()) }()
	var n int
	if err := conn.QueryRow(t.Context(),
		"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no connection named %q", name)
	}
}

func TestEventsReachTheOtherReplica(t *testing.T) {
	db := onPostgres(t)
	a, b := newReplica(t, db), newReplica(t, db)

	e := change.Event{Entity: change.Service, Kind: change.Updated, ID: "svc-1"}
	a.bus.Publish(e)
	b.wait(t, e, time.Second)
	// A heard its own event once, from its bus, and not again from the database.
	if got := a.drain(300 * time.Millisecond); !slices.Equal(got, []change.Event{e}) {
		t.Fatalf("A's events: %+v, want only its own local delivery", got)
	}
	if got := b.drain(100 * time.Millisecond); len(got) != 0 {
		t.Fatalf("B's further events: %+v", got)
	}

	// Latency, for the record: publish on A until B's subscriber has it.
	const n = 200
	lat := make([]time.Duration, n)
	for i := range lat {
		e := change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + string(rune('a'+i%26))}
		start := time.Now()
		a.bus.Publish(e)
		b.wait(t, e, time.Second)
		lat[i] = time.Since(start)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("NOTIFY delivery A -> B over %d events: median %v, p99 %v, max %v", n, lat[n/2], lat[n*99/100], lat[n-1])
}

func TestListenerReconnects(t *testing.T) {
	db := onPostgres(t)
	a, b := newReplica(t, db), newReplica(t, db)

	terminate(t, db, "gatehouse listen "+b.c.ID())
	// Whatever was published while B was away is unknown to it: it drops everything.
	b.wait(t, change.Event{Entity: change.All}, 5*time.Second)
	e := change.Event{Entity: change.Domain, Kind: change.Created, ID: "d-1"}
	a.bus.Publish(e)
	b.wait(t, e, time.Second)
}

func TestLostNotifyBecomesAll(t *testing.T) {
	db := onPostgres(t)
	a, b := newReplica(t, db), newReplica(t, db)

	// A's sending connection dies: the first event after it is lost, and the
	// other replicas are told to drop everything instead.
	a.bus.Publish(change.Event{Entity: change.Settings, Kind: change.Updated})
	b.wait(t, change.Event{Entity: change.Settings, Kind: change.Updated}, time.Second)
	terminate(t, db, "gatehouse notify "+a.c.ID())
	a.bus.Publish(change.Event{Entity: change.Service, Kind: change.Deleted, ID: "lost"})
	b.wait(t, change.Event{Entity: change.All}, 5*time.Second)
}

func TestPollsReachTheOtherReplica(t *testing.T) {
	db := onPostgres(t)
	a, b := newReplica(t, db), newReplica(t, db)
	rec := status.NewRecorder(nil)
	b.c.OnPoll(rec.Record)
	var mine []status.Poll
	var mu sync.Mutex
	a.c.OnPoll(func(p status.Poll) { mu.Lock(); mine = append(mine, p); mu.Unlock() })

	p := status.Poll{At: time.Now().UTC().Truncate(time.Microsecond), Remote: "10.0.0.7:5000", ETag: `"abc"`, Code: 304}
	a.c.PublishPoll(p)
	deadline := time.Now().Add(time.Second)
	for {
		if last, ok := rec.LastPoll(); ok {
			if !last.At.Equal(p.At) || last.Remote != p.Remote || last.ETag != p.ETag || last.Code != p.Code {
				t.Fatalf("relayed poll %+v, want %+v", last, p)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the poll did not reach B within 1s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(mine) != 0 {
		t.Fatalf("A was told of its own poll: %+v", mine)
	}
}
