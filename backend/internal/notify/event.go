// Package notify sends notifications about the panel and Traefik (a backend
// down, a certificate about to expire, a rejected configuration) to chat,
// push and e-mail channels through shoutrrr. Sources publish Events; the
// dispatcher debounces and deduplicates them per key and delivers them off
// the request path.
package notify

import (
	"context"
	"slices"
	"time"
)

// Kind names an event type; channels subscribe to kinds.
type Kind string

// The event kinds.
const (
	CertExpiring     Kind = "cert_expiring"
	CertExpired      Kind = "cert_expired"
	BackendDown      Kind = "backend_down"
	BackendRecovered Kind = "backend_recovered"
	ServiceExpired   Kind = "service_expired"
	PollingStopped   Kind = "polling_stopped"
	// PollingResumed goes to the channels subscribed to PollingStopped.
	PollingResumed  Kind = "polling_resumed"
	ManagedRejected Kind = "managed_rejected"
	ManagedApplied  Kind = "managed_applied"
	SignInFailures  Kind = "signin_failures"
	BackupFailed    Kind = "backup_failed"
	// BackupRecovered goes to the channels subscribed to BackupFailed.
	BackupRecovered Kind = "backup_recovered"
	// AlertFiring is an alert rule's threshold crossed for its duration
	// (package alerts); AlertResolved, its recovery, goes to the channels
	// subscribed to AlertFiring.
	AlertFiring   Kind = "alert_firing"
	AlertResolved Kind = "alert_resolved"
	// Test is the "send test" message; no channel subscribes to it.
	Test Kind = "test"
)

// Kinds lists the kinds a channel may subscribe to, in display order.
var Kinds = []Kind{CertExpiring, CertExpired, BackendDown, BackendRecovered, ServiceExpired,
	PollingStopped, ManagedRejected, ManagedApplied, SignInFailures, BackupFailed, AlertFiring}

// ValidKind reports whether k is a subscribable kind.
func ValidKind(k Kind) bool { return slices.Contains(Kinds, k) }

// recovers says which kind a recovery follows: a recovery is sent only
// after its problem was.
var recovers = map[Kind]Kind{BackendRecovered: BackendDown, PollingResumed: PollingStopped, BackupRecovered: BackupFailed, AlertResolved: AlertFiring}

// subscription is the kind a channel subscribes to for k.
func subscription(k Kind) Kind {
	switch k {
	case PollingResumed:
		return PollingStopped
	case BackupRecovered:
		return BackupFailed
	case AlertResolved:
		return AlertFiring
	}
	return k
}

// Event is one thing worth telling an administrator. Key identifies the
// subject whose state it reports ("backend:<service>:<url>", "cert:<sha256>"):
// the dispatcher sends one notification per change of kind under a key, so a
// source may publish the same state on every poll.
type Event struct {
	Kind    Kind
	Key     string
	Subject string
	Body    string
	At      time.Time
}

// Publisher receives events. Sources hold one; a nil Publisher is not
// allowed, use Discard.
type Publisher interface {
	Publish(ctx context.Context, ev Event)
}

// Discard is a Publisher that drops every event.
var Discard Publisher = discard{}

type discard struct{}

func (discard) Publish(context.Context, Event) {}

// PublisherFunc adapts a function to Publisher.
type PublisherFunc func(ctx context.Context, ev Event)

// Publish calls f.
func (f PublisherFunc) Publish(ctx context.Context, ev Event) { f(ctx, ev) }
