// Package status gathers the evidence behind every status the panel shows:
// the polls Traefik makes of the dynamic configuration, the configuration
// versions the panel produced, and what Traefik's runtime API reports for
// each service.
package status

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// Poll is one request of GET /api/proxy/config.
type Poll struct {
	At     time.Time `json:"at"`
	Remote string    `json:"remote"`
	ETag   string    `json:"etag"`
	Code   int       `json:"code"` // 200, or 304 when Traefik already had it
}

// DefaultInterval is assumed between polls until two polls were seen: it is
// the pollInterval of the snippet the panel suggests (Traefik's default too).
const DefaultInterval = 5 * time.Second

// StallFactor is how many intervals without a poll mean polls have stopped.
const StallFactor = 3

const (
	ringSize    = 64  // polls kept
	maxVersions = 256 // configuration versions kept
)

// version is one configuration the panel produced, in order.
type version struct {
	etag string
	at   time.Time // when it was built: it holds every change before
}

// Recorder keeps the recent polls and configuration versions in memory.
// Nothing is persisted: after a restart Traefik's next poll (at most one
// interval later) establishes the evidence again, and the view says "no
// poll since the panel started" until then.
type Recorder struct {
	now func() time.Time

	mu       sync.Mutex
	polls    []Poll // ring, oldest first
	versions []version
	stalled  bool
	watchers []func(Stall)
}

// Stall is delivered to watchers when polls stop or start again.
type Stall struct {
	Stopped  bool          // true: no poll for StallFactor intervals
	Last     Poll          // the last poll (zero At: none yet)
	Interval time.Duration // the interval the decision used
}

// NewRecorder returns an empty recorder.
func NewRecorder(now func() time.Time) *Recorder {
	if now == nil {
		now = time.Now
	}
	return &Recorder{now: now}
}

// Record notes a poll. It is cheap: the handler calls it on every poll.
func (r *Recorder) Record(p Poll) {
	r.mu.Lock()
	if len(r.polls) == ringSize {
		copy(r.polls, r.polls[1:])
		r.polls = r.polls[:ringSize-1]
	}
	r.polls = append(r.polls, p)
	r.noteVersionLocked(p.ETag, p.At)
	if !r.stalled {
		r.mu.Unlock()
		return
	}
	r.stalled = false
	s := Stall{Stopped: false, Last: p, Interval: r.intervalLocked()}
	watchers := slices.Clone(r.watchers)
	r.mu.Unlock()
	for _, w := range watchers {
		w(s)
	}
}

// NoteVersion records that the panel built the configuration etag at at.
// The same etag twice in a row is one version.
func (r *Recorder) NoteVersion(etag string, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.noteVersionLocked(etag, at)
}

func (r *Recorder) noteVersionLocked(etag string, at time.Time) {
	if etag == "" {
		return
	}
	if n := len(r.versions); n > 0 && r.versions[n-1].etag == etag {
		return
	}
	if len(r.versions) == maxVersions {
		r.versions = slices.Delete(r.versions, 0, 1)
	}
	r.versions = append(r.versions, version{etag: etag, at: at})
}

// LastPoll returns the latest poll; ok is false when none came since start.
func (r *Recorder) LastPoll() (Poll, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.polls) == 0 {
		return Poll{}, false
	}
	return r.polls[len(r.polls)-1], true
}

// Polls returns the recent polls, newest first.
func (r *Recorder) Polls() []Poll {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Poll, len(r.polls)) // never nil: the API lists no polls as []
	copy(out, r.polls)
	slices.Reverse(out)
	return out
}

// Interval is the poll interval measured as the median gap between the
// recent polls, or DefaultInterval before two polls were seen.
func (r *Recorder) Interval() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.intervalLocked()
}

func (r *Recorder) intervalLocked() time.Duration {
	if len(r.polls) < 2 {
		return DefaultInterval
	}
	gaps := make([]time.Duration, 0, len(r.polls)-1)
	for i := 1; i < len(r.polls); i++ {
		gaps = append(gaps, r.polls[i].At.Sub(r.polls[i-1].At))
	}
	slices.Sort(gaps)
	g := gaps[len(gaps)/2]
	if g < 100*time.Millisecond {
		g = 100 * time.Millisecond // several pollers at once, or a burst
	}
	return g
}

// Stopped reports whether polls stopped: there was at least one, and none
// for StallFactor intervals.
func (r *Recorder) Stopped() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stoppedLocked()
}

func (r *Recorder) stoppedLocked() bool {
	if len(r.polls) == 0 {
		return false
	}
	return r.now().Sub(r.polls[len(r.polls)-1].At) > StallFactor*r.intervalLocked()
}

// OnStall registers f, called (outside the lock) when polls stop and when
// they start again. Check detects the stop; Record the recovery.
func (r *Recorder) OnStall(f func(Stall)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.watchers = append(r.watchers, f)
}

// LeaderLoops are the background work of the leader: checking every second
// whether Traefik stopped polling, so a stall is told once for all replicas
// (every replica records every poll).
func (r *Recorder) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("Traefik polls stall check", time.Second, func(context.Context) { r.Check() })}
}

// Check tells the watchers when polls have just stopped. A loop calls it
// about once a second.
func (r *Recorder) Check() {
	r.mu.Lock()
	if r.stalled || !r.stoppedLocked() {
		r.mu.Unlock()
		return
	}
	r.stalled = true
	s := Stall{Stopped: true, Last: r.polls[len(r.polls)-1], Interval: r.intervalLocked()}
	watchers := slices.Clone(r.watchers)
	r.mu.Unlock()
	for _, w := range watchers {
		w(s)
	}
}

// behind counts the versions produced after etag; known is false when etag
// is not among the recorded versions (built before the panel started).
// builtAt is when etag was built.
func (r *Recorder) behind(etag string) (n int, builtAt time.Time, known bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.versions) - 1; i >= 0; i-- {
		if r.versions[i].etag == etag {
			return len(r.versions) - 1 - i, r.versions[i].at, true
		}
	}
	return 0, time.Time{}, false
}
