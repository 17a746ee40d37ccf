package notify_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type recorder struct {
	mu  sync.Mutex
	evs []notify.Event
}

func (r *recorder) Publish(_ context.Context, ev notify.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, ev)
}

func TestExpiryPublishes(t *testing.T) {
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	rec := &recorder{}
	svcs := services.NewService(services.Deps{DB: db, Bus: change.NewBus(), Now: clock.Now, Notify: rec})
	at := clock.Now().Add(time.Minute)
	s, err := svcs.Create(context.Background(), services.Request{
		Name: "short", Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "short.test"}},
		Targets: []store.Target{{Host: "10.0.0.1", Port: 80}},
		Expiry:  &services.Expiry{Type: store.ExpiryAt, At: &at},
	})
	if err != nil {
		t.Fatal(err)
	}
	clock.Add(2 * time.Minute)
	for range 2 {
		if _, err := svcs.DisableExpired(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.evs) != 1 || rec.evs[0].Kind != notify.ServiceExpired || rec.evs[0].Key[:len("service_expired:"+s.ID)] != "service_expired:"+s.ID {
		t.Fatalf("events %+v", rec.evs)
	}
}
