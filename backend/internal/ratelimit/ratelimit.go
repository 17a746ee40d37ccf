// Package ratelimit counts failed attempts (logins, basic-auth checks) per key
// in a sliding window and blocks a key once it reaches the limit.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter blocks a key after Max failures within Window. It is safe for
// concurrent use and keeps memory bounded by pruning old entries.
type Limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu       sync.Mutex
	failures map[string][]time.Time
	lastGC   time.Time
}

// New returns a limiter allowing limit failures per window.
func New(limit int, window time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{max: limit, window: window, now: now, failures: map[string][]time.Time{}}
}

// Blocked reports whether any of keys is blocked and, if so, how long until
// the oldest counted failure leaves the window.
func (l *Limiter) Blocked(keys ...string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var wait time.Duration
	for _, k := range keys {
		f := l.prune(k, now)
		if len(f) >= l.max {
			if d := f[len(f)-l.max].Add(l.window).Sub(now); d > wait {
				wait = d
			}
		}
	}
	if wait > 0 {
		return true, wait.Round(time.Second) + time.Second
	}
	return false, 0
}

// Fail records one failure for each key.
func (l *Limiter) Fail(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for _, k := range keys {
		l.failures[k] = append(l.prune(k, now), now)
	}
	l.gc(now)
}

// Reset forgets the failures of key (after a success).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.failures, key)
}

func (l *Limiter) prune(k string, now time.Time) []time.Time {
	f := l.failures[k]
	i := 0
	for i < len(f) && now.Sub(f[i]) >= l.window {
		i++
	}
	if i == len(f) {
		delete(l.failures, k)
		return nil
	}
	f = f[i:]
	l.failures[k] = f
	return f
}

func (l *Limiter) gc(now time.Time) {
	if now.Sub(l.lastGC) < l.window {
		return
	}
	l.lastGC = now
	for k := range l.failures {
		l.prune(k, now)
	}
}
