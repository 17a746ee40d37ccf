package notify

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// Event constructors, one per source, so keys and wording live in one place.

// ServiceExpiredEvent reports a service switched off because its expiry passed.
func ServiceExpiredEvent(id, name string, at time.Time) Event {
	return Event{Kind: ServiceExpired, Key: fmt.Sprintf("service_expired:%s:%d", id, at.Unix()), At: at,
		Subject: "Service " + name + " expired and was switched off",
		Body:    "The service reached its expiry time. Enable it again on its page to extend it."}
}

// ManagedAppliedEvent reports the managed Traefik running the current configuration.
func ManagedAppliedEvent(configHash, secretsHash string, at time.Time) Event {
	return Event{Kind: ManagedApplied, Key: "managed:" + configHash + ":" + secretsHash, At: at,
		Subject: "Traefik runs the new configuration",
		Body:    "The managed Traefik restarted with the panel's current static configuration."}
}

// ManagedRejectedEvent reports the managed Traefik refusing a configuration;
// why is Traefik's message.
func ManagedRejectedEvent(configHash, why string, at time.Time) Event {
	return Event{Kind: ManagedRejected, Key: "managed:" + configHash, At: at,
		Subject: "Traefik rejected the new configuration",
		Body:    "Traefik keeps running the previous configuration. Its message: " + why}
}

// PollingEvent reports Traefik's polling of the configuration stopping
// (stopped) or resuming; last is the last poll seen.
func PollingEvent(stopped bool, last time.Time, at time.Time) Event {
	if stopped {
		body := "Traefik has never fetched the configuration."
		if !last.IsZero() {
			body = "The last fetch was at " + last.UTC().Format(time.RFC3339) + "; changes made since do not reach Traefik."
		}
		return Event{Kind: PollingStopped, Key: "traefik_polling", At: at,
			Subject: "Traefik stopped fetching the configuration", Body: body}
	}
	return Event{Kind: PollingResumed, Key: "traefik_polling", At: at,
		Subject: "Traefik fetches the configuration again"}
}

// BackupEvent reports a scheduled backup failing (err set) or succeeding
// again; dir is the backup directory.
func BackupEvent(err error, dir string, at time.Time) Event {
	if err != nil {
		return Event{Kind: BackupFailed, Key: "backup", At: at,
			Subject: "A scheduled backup failed",
			Body:    "The panel could not write its scheduled backup into " + dir + ": " + err.Error()}
	}
	return Event{Kind: BackupRecovered, Key: "backup", At: at,
		Subject: "Scheduled backups work again",
		Body:    "The panel wrote its scheduled backup into " + dir + "."}
}

// Backend is one backend of a service as the runtime view sees it.
type Backend struct {
	ServiceID, Service, URL string
	Down                    bool
	Reason                  string // why it counts as down (Traefik's status, a refused connection)
}

// Certificate is one certificate Traefik serves.
type Certificate struct {
	Fingerprint, Subject string
	NotAfter             time.Time
}

// Watcher turns the runtime's backend health and certificates into events.
type Watcher struct {
	Backends     func(ctx context.Context) ([]Backend, error)
	Certificates func(ctx context.Context) ([]Certificate, error)
	// WarningDays gives the "expiring" threshold (settings).
	WarningDays func(ctx context.Context) int
	Publisher   Publisher
	Now         func() time.Time
	// Logger hears about views that could not be read (debug level).
	Logger *slog.Logger
}

// watchInterval is how often backend health and certificates are read; the
// debounce setting decides how long a state must last before it is sent.
const watchInterval = 10 * time.Second

// LeaderLoops are the background work of the leader: reading the runtime's
// views every watchInterval, so each change is published once for all
// replicas.
func (w *Watcher) LeaderLoops() []background.Loop {
	log := w.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return []background.Loop{background.Every("notification watcher", watchInterval, func(ctx context.Context) {
		if err := w.Check(ctx); err != nil && ctx.Err() == nil {
			log.Debug("notification watcher", "err", err)
		}
	})}
}

// Check reads both views once and publishes their states; the debouncer
// makes one notification of each change.
func (w *Watcher) Check(ctx context.Context) error {
	now := w.Now()
	var errs []string
	if w.Backends != nil {
		bs, err := w.Backends(ctx)
		if err != nil {
			errs = append(errs, err.Error())
		}
		for _, b := range bs {
			key := "backend:" + b.ServiceID + ":" + b.URL
			if b.Down {
				body := "Backend " + b.URL + " of " + b.Service + " does not answer."
				if b.Reason != "" {
					body += " " + b.Reason
				}
				w.Publisher.Publish(ctx, Event{Kind: BackendDown, Key: key, At: now,
					Subject: "Backend down: " + b.Service, Body: body})
			} else {
				w.Publisher.Publish(ctx, Event{Kind: BackendRecovered, Key: key, At: now,
					Subject: "Backend recovered: " + b.Service, Body: "Backend " + b.URL + " of " + b.Service + " answers again."})
			}
		}
	}
	if w.Certificates != nil {
		cs, err := w.Certificates(ctx)
		if err != nil {
			errs = append(errs, err.Error())
		}
		days := w.WarningDays(ctx)
		for _, c := range cs {
			left := int(c.NotAfter.Sub(now).Hours() / 24)
			key := "cert:" + c.Fingerprint
			switch {
			case !now.Before(c.NotAfter):
				w.Publisher.Publish(ctx, Event{Kind: CertExpired, Key: key, At: now,
					Subject: "Certificate expired: " + c.Subject,
					Body:    "The certificate for " + c.Subject + " expired on " + c.NotAfter.UTC().Format(time.DateOnly) + "."})
			case left < days:
				w.Publisher.Publish(ctx, Event{Kind: CertExpiring, Key: key, At: now,
					Subject: fmt.Sprintf("Certificate expires in %d days: %s", left, c.Subject),
					Body:    "The certificate for " + c.Subject + " expires on " + c.NotAfter.UTC().Format(time.DateOnly) + "."})
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("notify watcher: %s", strings.Join(errs, "; "))
	}
	return nil
}

// SignInAlarm counts failed sign-ins per service and publishes one event
// when a service reaches the threshold within the window.
type SignInAlarm struct {
	pub       Publisher
	threshold int
	window    time.Duration
	now       func() time.Time
	mu        sync.Mutex
	counts    map[string]*failCount
}

type failCount struct {
	start time.Time
	n     int
}

// NewSignInAlarm returns an alarm; a nil pub discards.
func NewSignInAlarm(pub Publisher, threshold int, window time.Duration, now func() time.Time) *SignInAlarm {
	if pub == nil {
		pub = Discard
	}
	return &SignInAlarm{pub: pub, threshold: threshold, window: window, now: now, counts: map[string]*failCount{}}
}

// Fail records one failed sign-in on a service.
func (a *SignInAlarm) Fail(ctx context.Context, serviceID, name string) {
	now := a.now()
	a.mu.Lock()
	c := a.counts[serviceID]
	if c == nil || now.Sub(c.start) >= a.window {
		for id, old := range a.counts { // drop windows that ended
			if now.Sub(old.start) >= a.window {
				delete(a.counts, id)
			}
		}
		c = &failCount{start: now}
		a.counts[serviceID] = c
	}
	c.n++
	fire := c.n == a.threshold
	start := c.start
	a.mu.Unlock()
	if fire {
		a.pub.Publish(ctx, Event{Kind: SignInFailures, Key: fmt.Sprintf("signin:%s:%d", serviceID, start.Unix()), At: now,
			Subject: "Many failed sign-ins on " + name,
			Body: fmt.Sprintf("%d sign-ins to %s failed within %s. Addresses that keep failing are rate limited.",
				a.threshold, name, a.window)})
	}
}
