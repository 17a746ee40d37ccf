// Package ratelimit counts failed attempts (logins, basic-auth checks) per key
// in a sliding window and blocks a key once it reaches the limit. The
// failures live in memory (one process: SQLite) or in the database, shared
// by every replica (PostgreSQL); Shared picks by the database's engine.
package ratelimit

import (
	"log/slog"
	"sync"
	"time"

	"gorm.io/gorm"
)

// Limiter blocks a key after Max failures within Window. It is safe for
// concurrent use and keeps memory (or the table) bounded by pruning old
// entries.
type Limiter struct {
	max    int
	window time.Duration
	now    func() time.Time
	db     *table // nil: the failures live in memory

	mu       sync.Mutex
	failures map[string][]time.Time
	lastGC   time.Time
}

// New returns an in-memory limiter allowing limit failures per window.
func New(limit int, window time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{max: limit, window: window, now: now, failures: map[string][]time.Time{}}
}

// Option configures a limiter made by Shared.
type Option func(*table)

// WithLogger logs the database's errors (a limiter in memory has none).
func WithLogger(log *slog.Logger) Option {
	return func(t *table) {
		if log != nil {
			t.log = log
		}
	}
}

// Shared returns a limiter allowing limit failures per window whose
// failures every replica on db counts together when db is PostgreSQL, and
// New's in-memory limiter otherwise (SQLite serves one process). scope names
// the limiter in the shared table: two limiters on one database never share
// keys unless they share a scope.
func Shared(db *gorm.DB, scope string, limit int, window time.Duration, now func() time.Time, opts ...Option) *Limiter {
	if db == nil || db.Name() != "postgres" {
		return New(limit, window, now)
	}
	return inDatabase(db, scope, limit, window, now, opts...)
}

func inDatabase(db *gorm.DB, scope string, limit int, window time.Duration, now func() time.Time, opts ...Option) *Limiter {
	l := New(limit, window, now)
	l.db = &table{db: db, scope: scope, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(l.db)
	}
	return l
}

// Blocked reports whether any of keys is blocked and, if so, how long until
// the oldest counted failure leaves the window. A limiter in the database
// that cannot read it answers blocked: the limit is not known to hold.
func (l *Limiter) Blocked(keys ...string) (bool, time.Duration) {
	if l.db != nil {
		return l.db.blocked(l, keys)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var wait time.Duration
	for _, k := range keys {
		wait = max(wait, l.waitFor(l.prune(k, now), now))
	}
	return l.answer(wait)
}

// waitFor is how long until failures (in the window, oldest first) drop
// below the limit; zero when they are below it already.
func (l *Limiter) waitFor(f []time.Time, now time.Time) time.Duration {
	if len(f) < l.max {
		return 0
	}
	return max(f[len(f)-l.max].Add(l.window).Sub(now), 0)
}

func (l *Limiter) answer(wait time.Duration) (bool, time.Duration) {
	if wait > 0 {
		return true, wait.Round(time.Second) + time.Second
	}
	return false, 0
}

// Fail records one failure for each key.
func (l *Limiter) Fail(keys ...string) {
	if l.db != nil {
		l.db.fail(l, keys)
		return
	}
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
	if l.db != nil {
		l.db.reset(key)
		return
	}
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

// gc prunes every key once per window. It runs under mu.
func (l *Limiter) gc(now time.Time) {
	if now.Sub(l.lastGC) < l.window {
		return
	}
	l.lastGC = now
	for k := range l.failures {
		l.prune(k, now)
	}
}
