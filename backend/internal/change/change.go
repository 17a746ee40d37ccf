// Package change is a tiny in-process bus for "something was written" events.
// Writers publish after their transaction commits; readers that cache derived
// state (the dynamic config, forward-auth sessions) subscribe to invalidate it.
// With several replicas on one database a relay (cluster) carries every
// published event to the other replicas, which deliver it to their own
// subscribers.
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
	// OIDCClient: an OpenID Connect client (package oidc/clients) was
	// written; the ID is its client_id. The provider drops what it caches.
	OIDCClient Entity = "oidc_client"
	// Session: forward-auth sessions ended (kind Deleted). The ID says which:
	// "" every one, or a prefix SessionByID, SessionByHash, SessionByLink,
	// SessionByService followed by the id, token hash, shared link or service.
	Session Entity = "session"
	// All: anything may have changed. The relay delivers it after it
	// (re)connects, when events from other replicas may have been missed;
	// every subscriber that caches drops everything.
	All Entity = "*"
)

// Prefixes of a Session event's ID.
const (
	SessionByID      = "id:"
	SessionByHash    = "hash:"
	SessionByLink    = "link:"
	SessionByService = "service:"
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
	mu    sync.RWMutex
	subs  []func(Event)
	relay func(Event)
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{} }

// Subscribe registers f for every later event.
func (b *Bus) Subscribe(f func(Event)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, f)
}

// SetRelay hands every later published event, once delivered locally, to f,
// which carries it to the other replicas. f must not block.
func (b *Bus) SetRelay(f func(Event)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.relay = f
}

// Publish delivers e to every subscriber, then to the relay if there is one.
// A nil bus drops events, which keeps tests that do not care about them
// short.
func (b *Bus) Publish(e Event) {
	if b == nil {
		return
	}
	b.Deliver(e)
	b.mu.RLock()
	relay := b.relay
	b.mu.RUnlock()
	if relay != nil {
		relay(e)
	}
}

// Deliver delivers e to the local subscribers only: the relay calls it for
// the events of other replicas, which must not travel back.
func (b *Bus) Deliver(e Event) {
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
