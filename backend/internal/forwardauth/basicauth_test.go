package forwardauth

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
)

// TestConcurrentBasicChecksShareOneBcrypt sends the same credentials on many
// connections at once against a cold cache: one bcrypt comparison answers
// them all, each request still gets its own answer, and every failure still
// counts against the rate limit.
func TestConcurrentBasicChecksShareOneBcrypt(t *testing.T) {
	tests := []struct {
		name, user, pass string
		want             int
		thenLocked       bool // the next attempt, even with the right password, is refused
	}{
		{"right password", "alice", "correct horse", 200, false},
		{"wrong password", "alice", "wrong", 401, true},
		{"unknown user", "mallory", "correct horse", 401, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			id, _ := basicService(t, v, "app.example.com")
			var calls atomic.Int64
			release := make(chan struct{})
			v.acc.basic.compare = func(hash, pass []byte) error {
				calls.Add(1)
				<-release
				return bcrypt.CompareHashAndPassword(hash, pass)
			}
			const n = MaxFailures
			codes := make([]int, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					codes[i] = v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.9", auth: basic(tt.user, tt.pass)}).Code
				})
			}
			waitInFlight(t, n)
			close(release)
			wg.Wait()
			if got := calls.Load(); got != 1 {
				t.Fatalf("%d concurrent checks ran bcrypt %d times, want 1", n, got)
			}
			for i, c := range codes {
				if c != tt.want {
					t.Fatalf("request %d: %d, want %d", i, c, tt.want)
				}
			}
			// The limiter saw every failure (n = MaxFailures locks the user);
			// a success saw none.
			rec := v.verify(fwd{service: id, host: "app.example.com", ip: "198.51.100.1", auth: basic("alice", "correct horse")})
			if locked := rec.Code == 429; locked != tt.thenLocked {
				t.Fatalf("after the burst: %d, locked want %v", rec.Code, tt.thenLocked)
			}
		})
	}
}

// TestBasicChecksOfDifferentCredentialsDoNotShare: a wrong password never
// rides on a concurrent right one.
func TestBasicChecksOfDifferentCredentialsDoNotShare(t *testing.T) {
	v := newEnv(t)
	id, _ := basicService(t, v, "app.example.com")
	var calls atomic.Int64
	release := make(chan struct{})
	v.acc.basic.compare = func(hash, pass []byte) error {
		calls.Add(1)
		<-release
		return bcrypt.CompareHashAndPassword(hash, pass)
	}
	var right, wrong int
	var wg sync.WaitGroup
	wg.Go(func() {
		right = v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.1", auth: basic("alice", "correct horse")}).Code
	})
	wg.Go(func() {
		wrong = v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.2", auth: basic("alice", "correct horsf")}).Code
	})
	for calls.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if right != 200 || wrong != 401 {
		t.Fatalf("right %d, wrong %d", right, wrong)
	}
}

// waitInFlight waits until n goroutines are inside the basic-auth
// single-flight group: one comparing, the others waiting for its answer.
func waitInFlight(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	buf := make([]byte, 1<<20)
	for {
		k := runtime.Stack(buf, true)
		if strings.Count(string(buf[:k]), "singleflight.(*Group).Do(") >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d checks reached the single-flight group", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestManyFailedSignInsNotifyOnce: failures from many addresses and names add up per
// service, and the service's threshold gives one notification.
func TestManyFailedSignInsNotifyOnce(t *testing.T) {
	var mu sync.Mutex
	var got []notify.Event
	v := newEnv(t, func(o *Options) {
		o.Notify = notify.PublisherFunc(func(_ context.Context, ev notify.Event) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, ev)
		})
	})
	id, _ := basicService(t, v, "app.example.com")
	for i := range 2 * MaxFailures {
		ip := fmt.Sprintf("203.0.113.%d", i+1)
		if rec := v.verify(fwd{service: id, host: "app.example.com", ip: ip, auth: basic(fmt.Sprintf("user%d", i), "wrong")}); rec.Code != 401 {
			t.Fatalf("attempt %d: %d", i, rec.Code)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0].Kind != notify.SignInFailures || !strings.Contains(got[0].Subject, "app") {
		t.Fatalf("events %+v", got)
	}
}
