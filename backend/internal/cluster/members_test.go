package cluster

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestMembersFromActivity(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	key := func(name string) *int64 { k := int64(uint32(lockKey(name))); return &k } //nolint:gosec // the key's bits
	rows := []activity{
		{Name: "gatehouse listen b", Address: "10.0.0.2", Started: t0.Add(time.Minute)},
		{Name: "gatehouse serving b", Address: "10.0.0.2", Started: t0.Add(30 * time.Second)},
		{Name: "gatehouse leader background a", Address: "10.0.0.1", Started: t0.Add(time.Second), LockKey: key("background")},
		{Name: "gatehouse listen a", Address: "10.0.0.1", Started: t0},
		// b waits for the lock of "background" and holds the serving lock.
		{Name: "gatehouse leader background b", Address: "10.0.0.2", Started: t0.Add(time.Minute)},
		{Name: "gatehouse serving b", Address: "10.0.0.2", Started: t0.Add(30 * time.Second), LockKey: key("serving")},
		// c's leader connection holds a lock, but not its role's.
		{Name: "gatehouse leader background c", Address: "", Started: t0.Add(time.Hour), LockKey: key("serving")},
		{Name: "gatehouse", Started: t0},
		{Name: "gatehouse listen", Started: t0},
		{Name: "psql", Started: t0},
	}
	want := []Member{
		{ID: "a", Address: "10.0.0.1", Since: t0, Leader: true, Listening: true},
		{ID: "b", Address: "10.0.0.2", Since: t0.Add(30 * time.Second), Listening: true},
		{ID: "c", Since: t0.Add(time.Hour)},
	}
	got := members(rows)
	if len(got) != len(want) {
		t.Fatalf("members = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("member %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// getCluster asks h through the real Echo stack.
func getCluster(t *testing.T, h *Handler) View {
	t.Helper()
	e := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RequireAdmin: testutil.AsAdmin,
		Features: []httpapi.Feature{h},
	})
	rec := testutil.Request(e, http.MethodGet, "/api/cluster", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /api/cluster: %d %s", rec.Code, rec.Body)
	}
	var v View
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Without a cluster (SQLite) the panel is the one replica, and leads.
func TestClusterOnSQLite(t *testing.T) {
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v := getCluster(t, NewHandler(nil, testutil.NewDB(t), started))
	host, _ := os.Hostname()
	if v.Engine != EngineSQLite || v.Replica != host || len(v.Replicas) != 1 {
		t.Fatalf("view = %+v, want engine sqlite, replica %q alone", v, host)
	}
	want := ReplicaView{ID: host, Since: started, Leader: true, This: true}
	if got := v.Replicas[0]; !got.Since.Equal(want.Since) || got.ID != want.ID || got.Address != "" ||
		got.Leader != want.Leader || got.Listening || got.This != want.This {
		t.Fatalf("replica = %+v, want %+v", got, want)
	}
}

// Two replicas on one database are listed from the server's own evidence,
// the one running a Leader loop marked; a replica that closes is gone.
func TestClusterOnPostgres(t *testing.T) {
	database := onPostgres(t)
	db := testutil.OpenDB(t, database)
	a := newContender(t, database)
	<-a.c.Listening()
	b := newReplica(t, database)
	closing := newReplica(t, database)
	leaderOf(t, 5*time.Second, a)

	h := NewHandler(b.c, db, time.Now())
	byID := func(v View) map[string]ReplicaView {
		m := map[string]ReplicaView{}
		for _, r := range v.Replicas {
			m[r.ID] = r
		}
		return m
	}
	var v View
	waitFor(t, 5*time.Second, "three replicas, one leading", func() bool {
		v = getCluster(t, h)
		m := byID(v)
		return len(m) == 3 && m[a.c.ID()].Leader
	})
	if v.Engine != EnginePostgres || v.Replica != b.c.ID() {
		t.Fatalf("view = %+v, want engine postgres answered by %s", v, b.c.ID())
	}
	for _, r := range v.Replicas {
		if want := r.ID == a.c.ID(); r.Leader != want {
			t.Errorf("%s leader = %v, want %v", r.ID, r.Leader, want)
		}
		if want := r.ID == b.c.ID(); r.This != want {
			t.Errorf("%s this = %v, want %v", r.ID, r.This, want)
		}
		if !r.Listening || r.Since.IsZero() || time.Since(r.Since) > time.Minute {
			t.Errorf("%s: listening %v since %v", r.ID, r.Listening, r.Since)
		}
	}

	closing.c.Close()
	waitFor(t, 5*time.Second, "the closed replica to be gone", func() bool {
		v = getCluster(t, h)
		_, there := byID(v)[closing.c.ID()]
		return !there && len(v.Replicas) == 2
	})

	// The leader stops: the lock is free and nobody leads.
	a.stop()
	<-a.done
	waitFor(t, 5*time.Second, "no leader", func() bool {
		for _, r := range getCluster(t, h).Replicas {
			if r.Leader {
				return false
			}
		}
		return true
	})
}
