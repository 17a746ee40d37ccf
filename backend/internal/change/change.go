// Package change is a tiny in-process bus for "something was written" events.
// Writers publish after their transaction commits; readers that cache derived
// state (the dynamic config, forward-auth sessions) subscribe to invalidate it.
package change

import "sync"

// Entity names what changed.
type Entity string

// The entities that publish changes.
const (
	Service  Entity = "service"
	Domain   Entity = "domain"
	Settings Entity = "settings"
	Security Entity = "security" // per-service protection, credential sets, SSO settings
	Access   Entity = "access"   // access rules (global and per service) and machine tokens
	Managed  Entity = "managed"
)

// Kind says how it changed.
type Kind string

// The kinds of change.
const (
	Created  Kind = "created"
	Updated  Kind = "updated"
	Deleted  Kind = "deleted"
	Disabled Kind = "disabled" // a service was disabled (by a user or by expiry)
)

// Event is one committed change.
type Event struct {
	Entity Entity
	Kind   Kind
	ID     string
}

// Bus delivers events synchronously to every subscriber, in subscription order.
// Subscribers must be quick and must not publish.
type Bus struct {
	mu   sync.RWMutex
	subs []func(Event)
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{} }

// Subscribe registers f for every later event.
func (b *Bus) Subscribe(f func(Event)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, f)
}

// Publish delivers e to every subscriber. A nil bus drops events, which keeps
// tests that do not care about them short.
func (b *Bus) Publish(e Event) {
	if b == nil {
		return
	}
	b.mu.RLock()
	subs := b.subs
	b.mu.RUnlock()
	for _, f := range subs {
		f(e)
	}
}
