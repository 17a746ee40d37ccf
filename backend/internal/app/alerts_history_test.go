package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// figures is what Traefik reports for one minute, as the runtime's scrape
// hands it to the traffic history.
type figures struct {
	mu   sync.Mutex
	take runtime.TrafficTake
}

func (f *figures) TakeTraffic(context.Context) runtime.TrafficTake {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.take
}

func (f *figures) TraefikNames(context.Context) (map[string][]string, error) { return nil, nil }

func (f *figures) set(since time.Time, services map[string]runtime.Delta, health map[string][2]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var global runtime.Delta
	for _, d := range services {
		global.Add(d)
	}
	f.take = runtime.TrafficTake{Configured: true, Since: since, Global: global, Services: services, Health: health}
}

// webhookReceiver is a local webhook endpoint; it keeps the titles it got.
type webhookReceiver struct {
	mu     sync.Mutex
	titles []string
}

func (w *webhookReceiver) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	var m map[string]any
	_ = json.NewDecoder(r.Body).Decode(&m)
	title, _ := m["title"].(string)
	w.mu.Lock()
	w.titles = append(w.titles, title)
	w.mu.Unlock()
	rw.WriteHeader(http.StatusNoContent)
}

func (w *webhookReceiver) got() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.titles...)
}

// TestAlertsOverTrafficHistory: the traffic history stores what Traefik
// reported minute by minute in the database (traffic.StoreTraefik); the
// alerts read it through the panel's adapter (in minute steps), fire once
// when a service's 5xx ratio stays above the threshold, and recover when it
// drops; both messages reach a local webhook through a notification
// channel, and a backend down fires and recovers the same way.
func TestAlertsOverTrafficHistory(t *testing.T) {
	db := testutil.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := testutil.NewClock(start)
	if err := db.Create(&store.Service{ID: "svc-shop", Name: "shop", CreatedAt: start, UpdatedAt: start}).Error; err != nil {
		t.Fatal(err)
	}
	src := &figures{}
	hist := traffic.NewService(traffic.Deps{DB: db, Now: clock.Now, Traefik: src})
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	recv := &webhookReceiver{}
	srv := httptest.NewServer(recv)
	t.Cleanup(srv.Close)
	ns := notify.NewService(notify.Deps{DB: db, Secrets: box, Now: clock.Now, Backoff: []time.Duration{time.Millisecond}})
	if _, err := ns.Create(ctx, notify.ChannelRequest{Name: "hook", Kind: notify.Webhook, Events: []notify.Kind{notify.AlertFiring},
		Secrets: notify.ChannelSecrets{WebhookURL: srv.URL + "/in"}}); err != nil {
		t.Fatal(err)
	}
	for _, l := range ns.Loops() {
		go l.Run(ctx)
	}
	as := alerts.NewService(alerts.Deps{DB: db, Now: clock.Now, Notify: ns, Source: &trafficHistory{svc: hist},
		ServiceNames: func(context.Context) (map[string]string, error) { return map[string]string{"svc-shop": "shop"}, nil }})
	for _, r := range []alerts.RuleRequest{
		{Name: "shop errors", ServiceID: ptrTo("svc-shop"), Kind: alerts.ErrorRatio, Threshold: 10, ForMinutes: 3},
		{Name: "shop down", ServiceID: ptrTo("svc-shop"), Kind: alerts.BackendDown, ForMinutes: 2},
	} {
		if _, err := as.CreateRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// minute stores one minute of figures (200s and 500s, servers up of
	// 2), then lets the leader evaluate a little after it ends.
	minute := func(ok, failed float64, up int) {
		t.Helper()
		m := clock.Now().Truncate(time.Minute)
		src.set(m.Add(-time.Minute), map[string]runtime.Delta{"svc-shop": {Classes: [4]float64{ok, 0, 0, failed}}},
			map[string][2]int{"svc-shop": {up, 2}})
		clock.Add(time.Minute + 3*time.Second)
		if err := hist.StoreTraefik(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := as.Evaluate(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(-3 * time.Second)
	}
	waitFor := func(n int) []string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			if got := recv.got(); len(got) >= n {
				time.Sleep(50 * time.Millisecond) // nothing more should come
				return recv.got()
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("the webhook got %q, want %d messages", recv.got(), n)
		return nil
	}
	for range 3 {
		minute(100, 1, 2)
	}
	for range 6 { // 20 % errors for 6 minutes: fires once
		minute(80, 20, 2)
	}
	got := waitFor(1)
	if len(got) != 1 || got[0] != "Alert: shop errors (shop)" {
		t.Fatalf("after the errors: %q", got)
	}
	for range 2 {
		minute(100, 0, 2)
	}
	got = waitFor(2)
	if len(got) != 2 || got[1] != "Resolved: shop errors (shop)" {
		t.Fatalf("after the recovery: %q", got)
	}
	for range 3 { // one server of two down
		minute(100, 0, 1)
	}
	got = waitFor(3)
	if len(got) != 3 || got[2] != "Alert: shop down (shop)" {
		t.Fatalf("after the backend went down: %q", got)
	}
	for range 2 {
		minute(100, 0, 2)
	}
	got = waitFor(4)
	if len(got) != 4 || got[3] != "Resolved: shop down (shop)" {
		t.Fatalf("after the backend came back: %q", got)
	}
	evs, err := as.ListEvents(ctx, alerts.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].State != alerts.Resolved || evs[1].State != alerts.Resolved ||
		evs[1].Value == nil || *evs[1].Value != 20 || !strings.HasPrefix(evs[1].RuleName, "shop errors") {
		t.Fatalf("history: %+v", evs)
	}
}

func ptrTo[T any](v T) *T { return &v }
