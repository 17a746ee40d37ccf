package notify

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestWatcher(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	deb := NewDebouncer(clock.Now, func() time.Duration { return time.Minute })
	down := false
	certs := []Certificate{
		{Fingerprint: "aa", Subject: "soon.example.com", NotAfter: clock.Now().Add(10 * 24 * time.Hour)},
		{Fingerprint: "bb", Subject: "later.example.com", NotAfter: clock.Now().Add(90 * 24 * time.Hour)},
		{Fingerprint: "cc", Subject: "old.example.com", NotAfter: clock.Now().Add(-time.Hour)},
	}
	w := &Watcher{
		Backends: func(context.Context) ([]Backend, error) {
			return []Backend{{ServiceID: "s1", Service: "web", URL: "http://10.0.0.1:80", Down: down}}, nil
		},
		Certificates: func(context.Context) ([]Certificate, error) { return certs, nil },
		WarningDays:  func(context.Context) int { return 14 },
		Publisher:    deb, Now: clock.Now,
	}
	var sent []Event
	poll := func(n int) {
		for range n {
			if err := w.Check(context.Background()); err != nil {
				t.Fatal(err)
			}
			clock.Add(15 * time.Second)
			sent = append(sent, deb.Flush()...)
		}
	}
	poll(10)
	if len(sent) != 2 || !slices.Contains(kinds(sent), CertExpiring) || !slices.Contains(kinds(sent), CertExpired) {
		t.Fatalf("first polls sent %v", kinds(sent))
	}
	down = true
	poll(20)
	if len(sent) != 3 || sent[2].Kind != BackendDown || sent[2].Key != "backend:s1:http://10.0.0.1:80" {
		t.Fatalf("after the backend died: %v", kinds(sent))
	}
	down = false
	poll(20)
	if len(sent) != 4 || sent[3].Kind != BackendRecovered {
		t.Fatalf("after it came back: %v", kinds(sent))
	}
}

func kinds(evs []Event) []Kind {
	var out []Kind
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

func TestSignInAlarm(t *testing.T) {
	clock := testutil.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	var got []Event
	a := NewSignInAlarm(PublisherFunc(func(_ context.Context, ev Event) { got = append(got, ev) }), 3, 10*time.Minute, clock.Now)
	ctx := context.Background()
	for range 5 {
		a.Fail(ctx, "s1", "web")
	}
	a.Fail(ctx, "s2", "other")
	if len(got) != 1 || got[0].Kind != SignInFailures {
		t.Fatalf("got %v", kinds(got))
	}
	clock.Add(10 * time.Minute)
	for range 3 {
		a.Fail(ctx, "s1", "web")
	}
	if len(got) != 2 || got[1].Key == got[0].Key {
		t.Fatalf("second window: %v", got)
	}
}
