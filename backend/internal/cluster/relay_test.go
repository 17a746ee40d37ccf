package cluster

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
)

// TestRelayNeverWaits: a writer that finds the queue full does not wait; the
// other replicas are told to drop everything instead.
func TestRelayNeverWaits(t *testing.T) {
	c := &Cluster{id: "me", out: make(chan message, 1)}
	c.relay(change.Event{Entity: change.Service, Kind: change.Updated, ID: "1"})
	if c.lost.Load() {
		t.Fatal("lost with room in the queue")
	}
	c.relay(change.Event{Entity: change.Service, Kind: change.Updated, ID: "2"})
	if !c.lost.Load() {
		t.Fatal("an event was dropped without a note")
	}
	if m := <-c.out; m.channel != ChangeChannel || m.payload != `{"o":"me","e":"service","k":"updated","i":"1"}` {
		t.Fatalf("queued %+v", m)
	}
}

// TestReceive: what a notification from another replica delivers.
func TestReceive(t *testing.T) {
	tests := []struct {
		name, payload string
		want          []change.Event
	}{
		{"an event", `{"o":"other","e":"session","k":"deleted","i":"id:42"}`,
			[]change.Event{{Entity: change.Session, Kind: change.Deleted, ID: "id:42"}}},
		{"this replica's own", `{"o":"me","e":"service","k":"updated","i":"1"}`, nil},
		{"unreadable: drop everything", `{"o":`, []change.Event{{Entity: change.All}}},
		{"no entity: drop everything", `{"o":"other"}`, []change.Event{{Entity: change.All}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bus := change.NewBus()
			var got []change.Event
			bus.Subscribe(func(e change.Event) { got = append(got, e) })
			c := &Cluster{id: "me", bus: bus, log: slog.New(slog.DiscardHandler)}
			c.receive(ChangeChannel, tt.payload)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("delivered %+v, want %+v", got, tt.want)
			}
		})
	}
}
