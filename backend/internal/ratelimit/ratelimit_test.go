package ratelimit

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// engines makes limiters of each kind: in memory, and in the test database
// (SQLite, or PostgreSQL when the tests run there). Limiters made by one
// engine's function share one database.
var engines = []struct {
	name string
	open func(t *testing.T) func(scope string, limit int, window time.Duration, now func() time.Time) *Limiter
}{
	{"memory", func(*testing.T) func(string, int, time.Duration, func() time.Time) *Limiter {
		return func(_ string, limit int, window time.Duration, now func() time.Time) *Limiter {
			return New(limit, window, now)
		}
	}},
	{"database", func(t *testing.T) func(string, int, time.Duration, func() time.Time) *Limiter {
		db := testutil.NewDB(t)
		return func(scope string, limit int, window time.Duration, now func() time.Time) *Limiter {
			return inDatabase(db, scope, limit, window, now)
		}
	}},
}

func TestLimiterBlocksAfterMaxAndRecovers(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			l := eng.open(t)("test", 3, time.Minute, clock.Now)

			for i := 0; i < 2; i++ {
				l.Fail("user:a", "ip:1")
			}
			if b, _ := l.Blocked("user:a"); b {
				t.Fatal("blocked after 2 of 3 failures")
			}
			clock.Add(10 * time.Second)
			l.Fail("user:a", "ip:1")
			b, wait := l.Blocked("user:b", "ip:1")
			if !b || wait != 51*time.Second {
				t.Fatalf("Blocked = %v, %v; want blocked by the ip key for 51s (the oldest failure leaves in 50s, plus one)", b, wait)
			}
			clock.Add(50 * time.Second)
			if b, _ := l.Blocked("user:a", "ip:1"); b {
				t.Fatal("still blocked after the oldest failure left the window")
			}
			l.Fail("ip:1")
			if b, _ := l.Blocked("ip:1"); b {
				t.Fatal("blocked by the failures at 10s and 60s")
			}
			l.Fail("ip:1")
			if b, wait := l.Blocked("ip:1"); !b || wait != 11*time.Second {
				t.Fatalf("Blocked = %v, %v; want the failures at 10s, 60s and 60s to block for 11s", b, wait)
			}
		})
	}
}

func TestLimiterReset(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			l := eng.open(t)("test", 1, time.Hour, nil)
			l.Fail("k")
			if b, _ := l.Blocked("k"); !b {
				t.Fatal("not blocked after max failures")
			}
			l.Reset("k")
			if b, _ := l.Blocked("k"); b {
				t.Fatal("blocked after reset")
			}
		})
	}
}

func TestLimiterScopes(t *testing.T) {
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			open := eng.open(t)
			a, b := open("a", 1, time.Hour, nil), open("b", 1, time.Hour, nil)
			a.Fail("ip:1")
			if blocked, _ := b.Blocked("ip:1"); blocked {
				t.Fatal("a failure in scope a blocks scope b")
			}
			if blocked, _ := a.Blocked("ip:1"); !blocked {
				t.Fatal("not blocked in its own scope")
			}
		})
	}
}

// Replicas on one database count their failures together.
func TestLimiterSharedThroughTheDatabase(t *testing.T) {
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	one := inDatabase(db, "login", 4, time.Minute, clock.Now)
	two := inDatabase(db, "login", 4, time.Minute, clock.Now)
	one.Fail("ip:1")
	two.Fail("ip:1")
	one.Fail("ip:1")
	if b, _ := two.Blocked("ip:1"); b {
		t.Fatal("blocked after 3 of 4 failures")
	}
	two.Fail("ip:1")
	for name, l := range map[string]*Limiter{"one": one, "two": two} {
		if b, _ := l.Blocked("ip:1"); !b {
			t.Fatalf("%s: not blocked after 4 failures recorded by two limiters", name)
		}
	}
	one.Reset("ip:1")
	if b, _ := two.Blocked("ip:1"); b {
		t.Fatal("a reset on one limiter does not reach the other")
	}
}

// Old failures leave the table once a window has passed.
func TestLimiterPrunesTheTable(t *testing.T) {
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := inDatabase(db, "test", 5, time.Minute, clock.Now)
	for i := range 3 {
		l.Fail("ip:" + string(rune('a'+i)))
	}
	clock.Add(2 * time.Minute)
	l.Fail("ip:z")
	var n int64
	if err := db.WithContext(context.Background()).Table("rate_limit_failures").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d rows after the window passed, want 1", n)
	}
}

// A limiter that cannot read its database refuses: the limit is not known to hold.
func TestLimiterFailsClosed(t *testing.T) {
	db := testutil.NewDB(t)
	l := inDatabase(db, "test", 5, time.Minute, nil)
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	_ = sqlDB.Close()
	if b, wait := l.Blocked("ip:1"); !b || wait <= 0 {
		t.Fatalf("Blocked = %v, %v with the database gone; want blocked", b, wait)
	}
	l.Fail("ip:1") // logged, not fatal
	l.Reset("ip:1")
}

func TestSharedPicksTheEngine(t *testing.T) {
	db := testutil.NewDB(t)
	l := Shared(db, "test", 1, time.Minute, nil)
	if got, want := l.db != nil, testutil.OnPostgres(); got != want {
		t.Fatalf("in the database = %v on PostgreSQL = %v", got, want)
	}
	if New(1, time.Minute, nil).db != nil || Shared(nil, "test", 1, time.Minute, nil).db != nil {
		t.Fatal("New or Shared without a database keeps failures elsewhere than in memory")
	}
}

// An in-memory limiter holds at most its maximum of keys, however many
// fail; the key whose last failure is oldest goes first, so a key blocked
// now stays blocked until that many other keys have failed after it.
func TestLimiterBoundsItsKeys(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := NewWithMaxKeys(3, time.Hour, 100, clock.Now)
	for range 3 {
		l.Fail("ip:attacker")
	}
	for i := range 99 {
		clock.Add(time.Millisecond)
		l.Fail(fmt.Sprintf("ip:other-%d", i))
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("Len = %d; want 100", n)
	}
	if b, _ := l.Blocked("ip:attacker"); !b {
		t.Fatal("a blocked key went while younger keys could go first")
	}
	for i := range 1000 {
		clock.Add(time.Millisecond)
		l.Fail(fmt.Sprintf("ip:flood-%d", i))
		if n := l.Len(); n > 100 {
			t.Fatalf("Len = %d after %d more keys; want at most 100", n, i+1)
		}
	}
	if b, _ := l.Blocked("ip:attacker"); b {
		t.Fatal("the oldest key is still remembered after 1000 younger ones")
	}
}

// A key's cost does not depend on its length: a million 64 KiB keys would
// otherwise hold 64 GB.
func TestLimiterKeysCostTheSameWhateverTheirLength(t *testing.T) {
	l := New(20, time.Hour, nil)
	long := strings.Repeat("x", 64<<10)
	before := heapInUse()
	for i := range 2000 {
		l.Fail(fmt.Sprintf("user:%s|ip:%d", long, i))
	}
	grown := heapInUse() - before
	if l.Len() != 2000 {
		t.Fatalf("Len = %d; want 2000", l.Len())
	}
	// 2000 keys of 64 KiB are 128 MiB as strings; hashed, well under 1 MiB.
	if grown > 2<<20 {
		t.Fatalf("2000 keys of 64 KiB hold %d KiB; want under 2 MiB", grown>>10)
	}
	runtime.KeepAlive(l)
}

// Only the last limit failures of a key are kept: more do not grow it.
func TestLimiterKeepsOnlyTheLastFailures(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := New(3, time.Minute, clock.Now)
	for range 1000 {
		clock.Add(10 * time.Millisecond)
		l.Fail("ip:1")
	}
	l.mu.Lock()
	n := len(l.failures[hashKey("ip:1")].times)
	l.mu.Unlock()
	if n != 3 {
		t.Fatalf("%d failure times kept; want 3", n)
	}
	if b, wait := l.Blocked("ip:1"); !b || wait != 61*time.Second {
		t.Fatalf("Blocked = %v, %v; want 61s (the third-last failure leaves in 60s)", b, wait)
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse) //nolint:gosec // a heap size fits in int64
}

// A full limiter at a limit of 20 holds about 26 MB, as DefaultMaxKeys says.
func TestFullLimiterMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("fills 100,000 keys")
	}
	before := heapInUse()
	l := New(20, time.Hour, nil)
	for i := range DefaultMaxKeys + 1000 {
		l.Fail("ip:" + strconv.Itoa(i))
	}
	grown := heapInUse() - before
	if l.Len() != DefaultMaxKeys {
		t.Fatalf("Len = %d; want %d", l.Len(), DefaultMaxKeys)
	}
	if grown > 32<<20 {
		t.Fatalf("a full limiter holds %d MiB; want under 32 MiB", grown>>20)
	}
	t.Logf("a full limiter at a limit of 20 holds %.1f MiB", float64(grown)/(1<<20))
	runtime.KeepAlive(l)
}
