// Package ratelimit counts failed attempts (logins, basic-auth checks) per key
// in a sliding window and blocks a key once it reaches the limit. The
// failures live in memory (one process: SQLite) or in the database, shared
// by every replica (PostgreSQL); Shared picks by the database's engine.
package ratelimit

import (
	"crypto/sha256"
	"log/slog"
	"sync"
	"time"

	"gorm.io/gorm"
)

// DefaultMaxKeys bounds the keys an in-memory limiter remembers. Each key
// costs a fixed amount (a 16-byte hash of the key and at most limit
// failure times), so a limiter never holds more than about
// DefaultMaxKeys x (100 + 8 x limit) bytes, whatever the keys' length or
// number: about 26 MB at a limit of 20.
const DefaultMaxKeys = 100_000

// Limiter blocks a key after Max failures within Window. It is safe for
// concurrent use and keeps memory (or the table) bounded by pruning old
// entries. Keys are stored only as fixed-size hashes, and an in-memory
// limiter remembers at most MaxKeys of them: when it is full, the key whose
// last failure is oldest goes first. A key blocked now therefore goes only
// after MaxKeys other keys have failed since its own last failure, each of
// which its limits count; it costs an attacker more failures than freeing
// the key would give back (see docs/administrators.md, "Administration security").
type Limiter struct {
	max     int
	window  time.Duration
	maxKeys int
	now     func() time.Time
	db      *table // nil: the failures live in memory

	mu       sync.Mutex
	failures map[keyHash]*entry
	lru      entry     // sentinel of the list by last failure, oldest first
	lastGC   time.Time // when the table was last pruned (in the database)
}

// keyHash names a key in memory: 16 bytes of SHA-256, so a key's cost does
// not depend on the length of the name or address it was made from.
type keyHash [16]byte

func hashKey(k string) keyHash {
	sum := sha256.Sum256([]byte(k))
	return keyHash(sum[:16])
}

// entry is one key's failures (unix nanoseconds, oldest first, at most max
// of them: only the last max decide a block) on the list by last failure.
type entry struct {
	key        keyHash
	times      []int64
	prev, next *entry
}

// New returns an in-memory limiter allowing limit failures per window,
// remembering at most DefaultMaxKeys keys.
func New(limit int, window time.Duration, now func() time.Time) *Limiter {
	return NewWithMaxKeys(limit, window, DefaultMaxKeys, now)
}

// NewWithMaxKeys is New remembering at most maxKeys keys.
func NewWithMaxKeys(limit int, window time.Duration, maxKeys int, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	l := &Limiter{max: max(limit, 1), window: window, maxKeys: max(maxKeys, 1), now: now, failures: map[keyHash]*entry{}}
	l.lru.prev, l.lru.next = &l.lru, &l.lru
	return l
}

// Len is the number of keys the in-memory limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.failures)
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
		if e := l.prune(hashKey(k), now); e != nil {
			wait = max(wait, l.waitFor(e.times, now))
		}
	}
	return l.answer(wait)
}

// waitFor is how long until failures (in the window, oldest first) drop
// below the limit; zero when they are below it already.
func (l *Limiter) waitFor(f []int64, now time.Time) time.Duration {
	if len(f) < l.max {
		return 0
	}
	return max(time.Unix(0, f[len(f)-l.max]).Add(l.window).Sub(now), 0)
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
	l.gc(now)
	for _, k := range keys {
		h := hashKey(k)
		e := l.prune(h, now)
		if e == nil {
			if len(l.failures) >= l.maxKeys {
				l.remove(l.lru.next) // the oldest last failure
			}
			e = &entry{key: h, times: make([]int64, 0, l.max)}
			l.failures[h] = e
		} else {
			l.unlink(e)
		}
		if len(e.times) == l.max { // only the last max failures decide
			copy(e.times, e.times[1:])
			e.times = e.times[:l.max-1]
		}
		e.times = append(e.times, now.UnixNano())
		l.pushBack(e)
	}
}

// Reset forgets the failures of key (after a success).
func (l *Limiter) Reset(key string) {
	if l.db != nil {
		l.db.reset(key)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.failures[hashKey(key)]; e != nil {
		l.remove(e)
	}
}

// prune drops the failures of h that left the window, and h itself when
// none is left. It runs under mu.
func (l *Limiter) prune(h keyHash, now time.Time) *entry {
	e := l.failures[h]
	if e == nil {
		return nil
	}
	cut := now.Add(-l.window).UnixNano()
	i := 0
	for i < len(e.times) && e.times[i] <= cut {
		i++
	}
	if i == len(e.times) {
		l.remove(e)
		return nil
	}
	if i > 0 {
		e.times = append(e.times[:0], e.times[i:]...)
	}
	return e
}

func (l *Limiter) remove(e *entry) {
	l.unlink(e)
	delete(l.failures, e.key)
}

func (l *Limiter) unlink(e *entry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

func (l *Limiter) pushBack(e *entry) {
	e.prev, e.next = l.lru.prev, &l.lru
	l.lru.prev.next = e
	l.lru.prev = e
}

// gc drops the keys whose last failure left the window. The list is
// ordered by last failure, so it stops at the first key still in it: each
// key is looked at once more than it is dropped. It runs under mu.
func (l *Limiter) gc(now time.Time) {
	cut := now.Add(-l.window).UnixNano()
	for e := l.lru.next; e != &l.lru; {
		next := e.next
		if e.times[len(e.times)-1] > cut {
			break
		}
		l.remove(e)
		e = next
	}
}
