// Package traffic is traffic over time: the forward-auth decisions verify
// counts on its hot path (Recorder), the per-minute store of Traefik's
// figures and those decisions with its hourly roll-up and pruning, and the
// query API the charts and the alerts read, answered from the panel's
// database or, with PANEL_PROMETHEUS_URL, from a Prometheus.
package traffic

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Decision is what verify decided, as traffic counts it.
type Decision uint8

// The decisions counted per service.
const (
	DecisionAllowed     Decision = iota // let through without identity
	DecisionSignedIn                    // let through with an identity (or a session just opened)
	DecisionChallenged                  // 401, or a redirect to sign in
	DecisionDenied                      // 403: a rule, an unavailable service, or a person not admitted
	DecisionRateLimited                 // 429
	numDecisions
)

// decisionNames are the decisions' names in the API and the database.
var decisionNames = [numDecisions]string{"allowed", "signedIn", "challenged", "denied", "rateLimited"}

func (d Decision) String() string {
	if d < numDecisions {
		return decisionNames[d]
	}
	return "unknown"
}

// LatencyBounds are the upper bounds, in seconds, of verify's latency
// histogram (a last, unbounded bucket counts the rest). Verify answers from
// memory in tens of microseconds; the upper buckets catch policy rebuilds
// and database look-ups.
var LatencyBounds = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// boundNanos is LatencyBounds in nanoseconds, compared on the hot path.
var boundNanos = func() [numBounds]int64 {
	var out [numBounds]int64
	for i, b := range LatencyBounds {
		out[i] = int64(b * 1e9)
	}
	return out
}()

// numBounds is len(LatencyBounds), a constant so that counters are arrays.
const numBounds = 14

// Counters are one service's decisions and verify latencies since the
// panel started. verify holds a pointer in its policy snapshot: recording
// is a few atomic additions, no lock, no map, no allocation.
type Counters struct {
	id       string
	counts   [numDecisions]atomic.Uint64
	buckets  [numBounds + 1]atomic.Uint64 // per bucket, not cumulative; the last is +Inf
	sumNanos atomic.Uint64
}

// Observe counts one decision that took took. A nil Counters (no recorder)
// counts nothing.
func (c *Counters) Observe(d Decision, took time.Duration) {
	if c == nil || d >= numDecisions {
		return
	}
	c.counts[d].Add(1)
	n := int64(took)
	if n < 0 {
		n = 0
	}
	i := 0
	for i < numBounds && n > boundNanos[i] {
		i++
	}
	c.buckets[i].Add(1)
	c.sumNanos.Add(uint64(n))
}

// Recorder holds every service's Counters.
type Recorder struct {
	mu    sync.Mutex
	byID  map[string]*Counters
	limit int
}

// maxRecorded bounds how many services a Recorder tracks; past it, new
// services share one set of counters filed under Overflow (never reached
// by a panel's own services, which are bounded far below).
const maxRecorded = 100_000

// Overflow is the service id the counters past maxRecorded services share.
const Overflow = "other"

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{byID: map[string]*Counters{}, limit: maxRecorded} }

// For returns the counters of service id, creating them: called when the
// forward-auth policy is rebuilt, never per request. A nil Recorder
// returns nil, which counts nothing.
func (r *Recorder) For(id string) *Counters {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.byID[id]; c != nil {
		return c
	}
	if len(r.byID) >= r.limit {
		id = Overflow
		if c := r.byID[id]; c != nil {
			return c
		}
	}
	c := &Counters{id: id}
	r.byID[id] = c
	return c
}

// Forget drops a deleted service's counters.
func (r *Recorder) Forget(id string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	delete(r.byID, id)
	r.mu.Unlock()
}

// ServiceDecisions are one service's counts since the panel started.
type ServiceDecisions struct {
	ServiceID string
	Counts    [5]uint64 // by Decision
	// LatencyBuckets are cumulative counts per bound of LatencyBounds.
	LatencyBuckets []uint64
	LatencySum     float64 // seconds
	LatencyCount   uint64
}

// Snapshot returns every service's cumulative counts, sorted by service id.
func (r *Recorder) Snapshot() []ServiceDecisions {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	cs := make([]*Counters, 0, len(r.byID))
	for _, c := range r.byID {
		cs = append(cs, c)
	}
	r.mu.Unlock()
	slices.SortFunc(cs, func(a, b *Counters) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	out := make([]ServiceDecisions, len(cs))
	for i, c := range cs {
		d := ServiceDecisions{ServiceID: c.id, LatencyBuckets: make([]uint64, numBounds)}
		for k := range d.Counts {
			d.Counts[k] = c.counts[k].Load()
		}
		var cum uint64
		for k := range numBounds {
			cum += c.buckets[k].Load()
			d.LatencyBuckets[k] = cum
		}
		d.LatencyCount = cum + c.buckets[numBounds].Load()
		d.LatencySum = float64(c.sumNanos.Load()) / 1e9
		out[i] = d
	}
	return out
}
