package ratelimit

import (
	"testing"
	"time"
)

func TestLimiterBlocksAfterMaxAndRecovers(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(3, time.Minute, func() time.Time { return now })

	for i := 0; i < 2; i++ {
		l.Fail("user:a", "ip:1")
	}
	if b, _ := l.Blocked("user:a"); b {
		t.Fatal("blocked after 2 of 3 failures")
	}
	l.Fail("user:a", "ip:1")
	b, wait := l.Blocked("user:b", "ip:1")
	if !b || wait <= 0 || wait > time.Minute+time.Second {
		t.Fatalf("Blocked = %v, %v; want blocked by the ip key with a wait within the window", b, wait)
	}
	now = now.Add(time.Minute)
	if b, _ := l.Blocked("user:a", "ip:1"); b {
		t.Fatal("still blocked after the window passed")
	}
}

func TestLimiterReset(t *testing.T) {
	l := New(1, time.Hour, nil)
	l.Fail("k")
	if b, _ := l.Blocked("k"); !b {
		t.Fatal("not blocked after max failures")
	}
	l.Reset("k")
	if b, _ := l.Blocked("k"); b {
		t.Fatal("blocked after reset")
	}
}
