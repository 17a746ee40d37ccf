package change

import (
	"slices"
	"testing"
)

func TestPublishDeliversLocallyThenRelays(t *testing.T) {
	b := NewBus()
	var got []string
	b.Subscribe(func(e Event) { got = append(got, "sub:"+e.ID) })
	b.SetRelay(func(e Event) { got = append(got, "relay:"+e.ID) })

	b.Publish(Event{Entity: Service, Kind: Updated, ID: "a"})
	b.Deliver(Event{Entity: Service, Kind: Updated, ID: "b"})

	want := []string{"sub:a", "relay:a", "sub:b"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestNilBusDropsEvents(*testing.T) {
	var b *Bus
	b.Publish(Event{Entity: All})
	b.Deliver(Event{Entity: All})
}
