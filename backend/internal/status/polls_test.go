package status

import (
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestRecorderStall(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	r := NewRecorder(clock.Now)
	var got []Stall
	r.OnStall(func(s Stall) { got = append(got, s) })

	r.Check()
	if r.Stopped() || len(got) != 0 {
		t.Fatal("no poll yet must not count as stopped")
	}
	for range 3 {
		r.Record(Poll{At: clock.Now(), ETag: `"a"`, Code: 200})
		clock.Add(2 * time.Second)
	}
	if iv := r.Interval(); iv != 2*time.Second {
		t.Fatalf("interval = %v, want 2s", iv)
	}
	clock.Add(4 * time.Second) // 6 s since the last poll: three intervals, not more
	r.Check()
	if len(got) != 0 {
		t.Fatalf("stalled too early: %+v", got)
	}
	clock.Add(time.Second)
	r.Check()
	r.Check()
	if len(got) != 1 || !got[0].Stopped || got[0].Interval != 2*time.Second {
		t.Fatalf("stall events = %+v, want one stop", got)
	}
	r.Record(Poll{At: clock.Now(), ETag: `"a"`, Code: 304})
	if len(got) != 2 || got[1].Stopped || got[1].Last.Code != 304 {
		t.Fatalf("stall events = %+v, want a recovery", got)
	}
}

func TestRecorderBehind(t *testing.T) {
	r := NewRecorder(nil)
	at := time.Unix(100, 0)
	for i, e := range []string{"a", "a", "b", "c", "b"} {
		r.NoteVersion(e, at.Add(time.Duration(i)*time.Second))
	}
	tests := []struct {
		etag  string
		n     int
		known bool
	}{{"b", 0, true}, {"c", 1, true}, {"a", 3, true}, {"z", 0, false}}
	for _, tt := range tests {
		t.Run(tt.etag, func(t *testing.T) {
			n, _, known := r.behind(tt.etag)
			if n != tt.n || known != tt.known {
				t.Fatalf("behind(%s) = %d %v, want %d %v", tt.etag, n, known, tt.n, tt.known)
			}
		})
	}
}

// BenchmarkRecord is the cost every poll of the configuration pays.
func BenchmarkRecord(b *testing.B) {
	r := NewRecorder(nil)
	at := time.Unix(0, 0)
	for i := 0; b.Loop(); i++ {
		r.Record(Poll{At: at.Add(time.Duration(i) * time.Second), Remote: "10.0.0.9", ETag: `"a"`, Code: 304})
	}
}
