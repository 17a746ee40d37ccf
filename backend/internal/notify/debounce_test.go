package notify

import (
	"context"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestDebouncer(t *testing.T) {
	const w = 30 * time.Second
	type step struct {
		advance time.Duration
		publish []Kind // under one key
		want    []Kind // flushed after the step
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"down once across many polls", []step{
			{0, []Kind{BackendDown}, nil},
			{10 * time.Second, []Kind{BackendDown}, nil},
			{20 * time.Second, []Kind{BackendDown}, []Kind{BackendDown}},
			{10 * time.Second, []Kind{BackendDown}, nil},
			{time.Hour, []Kind{BackendDown}, nil},
		}},
		{"down then recovered", []step{
			{0, []Kind{BackendDown}, nil},
			{w, nil, []Kind{BackendDown}},
			{time.Second, []Kind{BackendRecovered}, nil},
			{w, []Kind{BackendRecovered}, []Kind{BackendRecovered}},
			{w, []Kind{BackendRecovered}, nil},
		}},
		{"a flap inside the window says nothing", []step{
			{0, []Kind{BackendDown}, nil},
			{5 * time.Second, []Kind{BackendRecovered}, nil},
			{w, nil, nil},
		}},
		{"a short recovery of a down backend says nothing", []step{
			{0, []Kind{BackendDown}, nil},
			{w, nil, []Kind{BackendDown}},
			{time.Second, []Kind{BackendRecovered}, nil},
			{time.Second, []Kind{BackendDown}, nil},
			{w, nil, nil},
		}},
		{"recovered without a down is silent", []step{
			{0, []Kind{BackendRecovered}, nil},
			{w, nil, nil},
		}},
		{"expiring then expired", []step{
			{0, []Kind{CertExpiring}, nil},
			{w, []Kind{CertExpiring}, []Kind{CertExpiring}},
			{24 * time.Hour, []Kind{CertExpired}, nil},
			{w, []Kind{CertExpired}, []Kind{CertExpired}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			d := NewDebouncer(clock.Now, func() time.Duration { return w })
			for i, s := range tc.steps {
				clock.Add(s.advance)
				for _, k := range s.publish {
					d.Publish(context.Background(), Event{Kind: k, Key: "backend:web:http://10.0.0.1:80"})
				}
				var got []Kind
				for _, ev := range d.Flush() {
					got = append(got, ev.Kind)
				}
				if !equalKinds(got, s.want) {
					t.Fatalf("step %d: flushed %v, want %v", i, got, s.want)
				}
			}
		})
	}
}

func TestDebouncerKeysAreIndependent(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	d := NewDebouncer(clock.Now, func() time.Duration { return 0 })
	for range 3 {
		d.Publish(context.Background(), Event{Kind: BackendDown, Key: "backend:a:u"})
		d.Publish(context.Background(), Event{Kind: BackendDown, Key: "backend:b:u"})
	}
	if got := d.Flush(); len(got) != 2 {
		t.Fatalf("flushed %d events, want one per key", len(got))
	}
	if got := d.Flush(); len(got) != 0 {
		t.Fatalf("flushed %d more", len(got))
	}
}

func equalKinds(a, b []Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
