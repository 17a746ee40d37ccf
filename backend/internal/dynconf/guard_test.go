package dynconf

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestGuardFollowsEvents: a protection written without the event of its
// own feature (as another replica's write whose notification was missed) is
// served as soon as an event that covers it arrives, and every such event
// does.
func TestGuardFollowsEvents(t *testing.T) {
	tests := []struct {
		name string
		e    func(id string) change.Event
	}{
		{"that service", func(id string) change.Event {
			return change.Event{Entity: change.Service, Kind: change.Updated, ID: id}
		}},
		{"its protection", func(id string) change.Event {
			return change.Event{Entity: change.Security, Kind: change.Updated, ID: id}
		}},
		{"access rules", func(string) change.Event { return change.Event{Entity: change.Access, Kind: change.Updated} }},
		{"settings", func(string) change.Event { return change.Event{Entity: change.Settings, Kind: change.Updated} }},
		{"anything", func(string) change.Event { return change.Event{Entity: change.All} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t, Deps{})
			id := v.createService(t, "app", "app.test", nil)
			other := v.createService(t, "other", "other.test", nil)
			v.checkServed(t, "before")
			// Another service's write first: the guard is read for it alone.
			if _, err := v.services.SetEnabled(context.Background(), other, true); err != nil {
				t.Fatal(err)
			}
			v.checkServed(t, "after another service's write")
			before := v.do(t, "/api/proxy/config", nil).Body.Bytes()
			if err := v.db.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: id, Type: store.SecuritySharedLinks,
				Enabled: true, CreatedAt: store.Now(), UpdatedAt: store.Now()}).Error; err != nil {
				t.Fatal(err)
			}
			v.svc.d.Bus.Publish(tt.e(id))
			v.checkServed(t, "after the event")
			if bytes.Equal(v.do(t, "/api/proxy/config", nil).Body.Bytes(), before) {
				t.Fatal("the protection is not in the served configuration")
			}
		})
	}
}

// TestServiceWriteReadsItsGuardOnly: after a service write the rebuild asks
// about that service's protections alone, not every service's.
func TestServiceWriteReadsItsGuardOnly(t *testing.T) {
	v := newEnv(t, Deps{})
	var ids []string
	for i := range 5 {
		id := v.createService(t, fmt.Sprint("app ", i), fmt.Sprintf("app%d.test", i), nil)
		if err := v.db.Create(&store.SecurityConfig{ID: store.NewID(), ServiceID: id, Type: store.SecurityBasicAuth,
			Enabled: true, CreatedAt: store.Now(), UpdatedAt: store.Now()}).Error; err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	v.svc.Invalidate()
	var rows atomic.Int64
	if err := v.db.Callback().Query().After("gorm:query").Register("test:count", func(db *gorm.DB) {
		if db.Statement.Table == "security_configs" {
			rows.Add(db.RowsAffected)
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.db.Callback().Query().Remove("test:count") })
	read := func(step string, want int64) {
		t.Helper()
		rows.Store(0)
		if rec := v.do(t, "/api/proxy/config", nil); rec.Code != 200 {
			t.Fatalf("%s: status %d", step, rec.Code)
		}
		if got := rows.Load(); got != want {
			t.Fatalf("%s: %d protection rows read, want %d", step, got, want)
		}
	}
	read("first build", 5)
	if _, err := v.services.Update(context.Background(), ids[2], services.Request{Name: "app 2",
		Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "changed.test"}},
		Targets:   []store.Target{{Host: "10.0.0.1", Port: 80}}}); err != nil {
		t.Fatal(err)
	}
	read("after a service write", 1)
	read("cached", 0)
	v.svc.d.Bus.Publish(change.Event{Entity: change.All})
	read("after change.All", 5)
	v.checkServed(t, "end")
}
