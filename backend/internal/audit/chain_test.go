package audit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func newTestService(t testing.TB) (*Service, *testutil.Clock) {
	t.Helper()
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	return NewService(Deps{DB: testutil.NewDB(t), Now: clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SessionCookie: "session"}), clock
}

func mustVerify(t *testing.T, db *gorm.DB, entries int) Report {
	t.Helper()
	rep, err := Verify(t.Context(), db)
	if err != nil || !rep.Intact() || rep.Entries != entries {
		t.Fatalf("verify = %+v (%s), %v; want %d entries intact", rep, rep, err, entries)
	}
	return rep
}

func TestRecordNamesTheActorAndJoinsTheTransaction(t *testing.T) {
	s, _ := newTestService(t)
	ctx := actor.With(t.Context(), actor.System("cli"))
	if err := Record(ctx, s.db, Entry{Action: ActionCreate, ResourceType: "admin.users", ResourceName: "ann"}); err != nil {
		t.Fatal(err)
	}
	// An entry recorded in a transaction that rolls back is gone with it.
	boom := errors.New("boom")
	err := s.db.Transaction(func(tx *gorm.DB) error {
		if err := Record(ctx, tx, Entry{Action: ActionDelete, ResourceType: "admin.users"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	p, err := s.List(t.Context(), Filter{Limit: 10})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("list = %+v, %v", p, err)
	}
	if a := p.Items[0].Actor; a.Kind != "system" || a.Name != "cli" {
		t.Fatalf("actor = %+v", a)
	}
	mustVerify(t, s.db, 1)
}

// Appends from many goroutines, through the service and the free
// function at once, keep one unbroken chain.
func TestConcurrentAppendsKeepTheChain(t *testing.T) {
	s, _ := newTestService(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				s.record(t.Context(), Entry{Action: ActionUpdate})
			} else if err := Record(t.Context(), s.db, Entry{Action: ActionUpdate}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if s.Failures() != 0 {
		t.Fatalf("failures = %d", s.Failures())
	}
	mustVerify(t, s.db, 20)
}

func TestPruneKeepsTheChainVerifiable(t *testing.T) {
	s, clock := newTestService(t)
	ctx := t.Context()
	for range 3 {
		s.record(ctx, Entry{Action: ActionUpdate, ResourceType: "old"})
	}
	clock.Add(40 * 24 * time.Hour)
	s.record(ctx, Entry{Action: ActionUpdate, ResourceType: "new"})
	if _, err := s.PutSettings(ctx, Settings{RetentionDays: 30}); err != nil {
		t.Fatal(err)
	}
	n, err := s.Prune(ctx)
	if err != nil || n != 3 {
		t.Fatalf("prune = %d, %v", n, err)
	}
	if rep := mustVerify(t, s.db, 1); rep.AnchorSeq != 3 {
		t.Fatalf("anchor = %d", rep.AnchorSeq)
	}
	// Everything pruned: the next entry continues from the anchor.
	clock.Add(40 * 24 * time.Hour)
	if n, err := s.Prune(ctx); err != nil || n != 1 {
		t.Fatalf("prune = %d, %v", n, err)
	}
	mustVerify(t, s.db, 0)
	s.record(ctx, Entry{Action: ActionUpdate})
	p, _ := s.List(ctx, Filter{Limit: 5})
	if len(p.Items) != 1 || p.Items[0].Seq != 5 {
		t.Fatalf("after pruning everything: %+v", p.Items)
	}
	mustVerify(t, s.db, 1)
	// Deleting the first entry after the anchor shows.
	s.record(ctx, Entry{Action: ActionUpdate})
	if err := s.db.Exec(`DELETE FROM audit_entries WHERE seq = 5`).Error; err != nil {
		t.Fatal(err)
	}
	if rep, _ := Verify(ctx, s.db); rep.BrokenAt != 5 {
		t.Fatalf("verify after deleting the oldest entry = %s", rep)
	}
	// Retention 0 keeps everything.
	if _, err := s.PutSettings(ctx, Settings{RetentionDays: 0}); err != nil {
		t.Fatal(err)
	}
	clock.Add(1000 * 24 * time.Hour)
	if n, err := s.Prune(ctx); err != nil || n != 0 {
		t.Fatalf("prune with retention 0 = %d, %v", n, err)
	}
}

func TestListFilters(t *testing.T) {
	s, clock := newTestService(t)
	ctx := context.Background()
	who := &ActorInfo{Kind: "admin", ID: "u1", Name: "ann"}
	s.record(ctx, Entry{Action: ActionCreate, ResourceType: "services", ResourceID: "s1", ResourceName: "100%_app", Actor: who})
	clock.Add(time.Hour)
	s.record(ctx, Entry{Action: ActionUpdate, ResourceType: "services.access", ResourceID: "s1", Changes: []Change{{"rules[0].cidr", nil, "10.0.0.0/8"}}})
	clock.Add(time.Hour)
	s.record(ctx, Entry{Action: ActionDelete, ResourceType: "servicesx", ResourceID: "s2", Actor: who})
	tests := []struct {
		query string
		want  []int64
	}{
		{"", []int64{3, 2, 1}},
		{"actor=ann", []int64{3, 1}},
		{"actor=u1&action=create", []int64{1}},
		{"resourceType=services", []int64{2, 1}},
		{"resourceType=services&resourceId=s1", []int64{2, 1}},
		{"q=10.0.0", []int64{2}},
		{"q=100%25_", []int64{1}},
		{"q=%25", []int64{1}},
		{"from=2026-01-01T13:00:00Z", []int64{3, 2}},
		{"to=2026-01-01T13:00:00Z", []int64{1}},
		{"before=3&limit=1", []int64{2}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			f, err := ParseFilter(q)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, e := range p.Items {
				got = append(got, e.Seq)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("seqs = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("seqs = %v, want %v", got, tt.want)
				}
			}
		})
	}
	for _, bad := range []string{"limit=0", "limit=201", "limit=x", "before=-1", "from=yesterday", "format=xml",
		"from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z"} {
		q, _ := url.ParseQuery(bad)
		if _, err := ParseFilter(q); err == nil {
			t.Errorf("ParseFilter(%q) accepted", bad)
		}
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "actor=ann&limit=10", "from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z", "before=9&format=csv", "q=%25_%5C"} {
		f.Add(s)
	}
	s, _ := newTestService(f)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		flt, err := ParseFilter(q)
		if err != nil {
			return
		}
		if flt.Limit < 1 || flt.Limit > MaxLimit || flt.Before < 0 {
			t.Fatalf("accepted out-of-bounds filter %+v", flt)
		}
		if !flt.From.IsZero() && !flt.To.IsZero() && flt.To.Before(flt.From) {
			t.Fatalf("accepted to before from: %+v", flt)
		}
		// Whatever it accepts, the query runs.
		if _, err := s.List(context.Background(), flt); err != nil {
			t.Fatalf("list %q: %v", raw, err)
		}
	})
}
