package ratelimit

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// opTimeout bounds each statement: a database that does not answer turns
// into a refusal (Blocked fails closed), never into a request that hangs.
const opTimeout = 3 * time.Second

// unknownWait is the Retry-After of a refusal while the failures cannot be read.
const unknownWait = 30 * time.Second

// table keeps a limiter's failures in store.RateLimitFailure rows, one per
// failure, so every replica counts the same ones. Each statement stands
// alone (no transaction, hence no write lock): like the in-memory limiter,
// a check and the failure recorded after it are not one step.
type table struct {
	db    *gorm.DB
	scope string
	log   *slog.Logger
}

func (t *table) query() (*gorm.DB, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	return t.db.WithContext(ctx).Session(&gorm.Session{SkipDefaultTransaction: true}), cancel
}

// hash names key within the limiter's scope; the table never holds the
// addresses and user names themselves.
func (t *table) hash(key string) string { return bearer.Hash(t.scope + "\x00" + key) }

func (t *table) blocked(l *Limiter, keys []string) (bool, time.Duration) {
	if len(keys) == 0 {
		return false, 0
	}
	now := l.now().UTC()
	byHash := make(map[string][]int64, len(keys))
	hashes := make([]string, len(keys))
	for i, k := range keys {
		hashes[i] = t.hash(k)
		byHash[hashes[i]] = nil
	}
	var rows []store.RateLimitFailure
	db, cancel := t.query()
	defer cancel()
	err := db.Select("key_hash", "failed_at").Where("key_hash IN ? AND failed_at > ?", hashes, now.Add(-l.window)).
		Find(&rows).Error
	if err != nil {
		t.log.Warn("rate limit: read failures; refusing until the database answers", "scope", t.scope, "err", err)
		return true, unknownWait
	}
	for _, r := range rows {
		byHash[r.KeyHash] = append(byHash[r.KeyHash], r.FailedAt.UnixNano())
	}
	var wait time.Duration
	for _, f := range byHash {
		slices.Sort(f)
		wait = max(wait, l.waitFor(f, now))
	}
	return l.answer(wait)
}

func (t *table) fail(l *Limiter, keys []string) {
	if len(keys) == 0 {
		return
	}
	now := l.now().UTC()
	rows := make([]store.RateLimitFailure, len(keys))
	for i, k := range keys {
		rows[i] = store.RateLimitFailure{ID: store.NewID(), Scope: t.scope, KeyHash: t.hash(k), FailedAt: now}
	}
	db, cancel := t.query()
	defer cancel()
	if err := db.Create(&rows).Error; err != nil {
		t.log.Warn("rate limit: record failures", "scope", t.scope, "err", err)
		return
	}
	l.mu.Lock()
	due := now.Sub(l.lastGC) >= l.window
	if due {
		l.lastGC = now
	}
	l.mu.Unlock()
	if due {
		// Every replica prunes its scopes now and then; deleting what
		// another already deleted is harmless.
		if err := db.Where("scope = ? AND failed_at <= ?", t.scope, now.Add(-l.window)).
			Delete(&store.RateLimitFailure{}).Error; err != nil {
			t.log.Warn("rate limit: prune failures", "scope", t.scope, "err", err)
		}
	}
}

func (t *table) reset(key string) {
	db, cancel := t.query()
	defer cancel()
	if err := db.Where("key_hash = ?", t.hash(key)).Delete(&store.RateLimitFailure{}).Error; err != nil {
		t.log.Warn("rate limit: reset failures", "scope", t.scope, "err", err)
	}
}
