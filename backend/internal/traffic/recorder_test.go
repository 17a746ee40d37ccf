package traffic

import (
	"sync"
	"testing"
	"time"
)

func TestLatencyBoundsMatchTheCounters(t *testing.T) {
	if len(LatencyBounds) != numBounds {
		t.Fatalf("LatencyBounds has %d bounds, the counters %d", len(LatencyBounds), numBounds)
	}
	for i := 1; i < len(LatencyBounds); i++ {
		if LatencyBounds[i] <= LatencyBounds[i-1] {
			t.Fatalf("LatencyBounds not increasing at %d", i)
		}
	}
}

func TestObserveCountsDecisionsAndLatency(t *testing.T) {
	r := NewRecorder()
	c := r.For("svc")
	if r.For("svc") != c {
		t.Fatal("For returned new counters for a known service")
	}
	c.Observe(DecisionAllowed, 50*time.Microsecond)  // bucket 0.0001
	c.Observe(DecisionDenied, 3*time.Millisecond)    // bucket 0.005
	c.Observe(DecisionDenied, 10*time.Second)        // +Inf
	c.Observe(DecisionRateLimited, -time.Nanosecond) // a clock step: the first bucket
	c.Observe(numDecisions, time.Millisecond)        // not a decision: nothing
	var nilC *Counters
	nilC.Observe(DecisionAllowed, time.Millisecond) // a nil recorder's counters: nothing
	snap := r.Snapshot()
	if len(snap) != 1 || snap[0].ServiceID != "svc" {
		t.Fatalf("snapshot = %+v", snap)
	}
	s := snap[0]
	if s.Counts != [5]uint64{1, 0, 0, 2, 1} {
		t.Errorf("counts = %v", s.Counts)
	}
	if s.LatencyCount != 4 {
		t.Errorf("count = %d, want 4", s.LatencyCount)
	}
	if s.LatencyBuckets[0] != 2 || s.LatencyBuckets[5] != 3 || s.LatencyBuckets[numBounds-1] != 3 {
		t.Errorf("cumulative buckets = %v", s.LatencyBuckets)
	}
	if s.LatencySum < 10 || s.LatencySum > 10.01 {
		t.Errorf("sum = %v", s.LatencySum)
	}
	r.Forget("svc")
	if len(r.Snapshot()) != 0 {
		t.Error("a forgotten service is still counted")
	}
}

func TestObserveAllocatesNothing(t *testing.T) {
	c := NewRecorder().For("svc")
	if n := testing.AllocsPerRun(1000, func() { c.Observe(DecisionSignedIn, 40*time.Microsecond) }); n != 0 {
		t.Fatalf("Observe allocates %v times per call", n)
	}
}

func TestRecorderOverflowSharesCounters(t *testing.T) {
	r := NewRecorder()
	r.limit = 2
	r.For("a")
	r.For("b")
	if c := r.For("c"); c != r.For("d") || c.id != Overflow {
		t.Fatal("services past the limit do not share the overflow counters")
	}
}

func TestObserveConcurrently(t *testing.T) {
	c := NewRecorder().For("svc")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				c.Observe(DecisionChallenged, time.Millisecond)
			}
		}()
	}
	wg.Wait()
	if got := c.counts[DecisionChallenged].Load(); got != 8000 {
		t.Fatalf("counted %d, want 8000", got)
	}
}

func BenchmarkObserve(b *testing.B) {
	c := NewRecorder().For("svc")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Observe(DecisionAllowed, 30*time.Microsecond)
		}
	})
}
