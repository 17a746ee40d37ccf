package notify

import (
	"context"
	"sync"
	"time"
)

// keyState is what the dispatcher remembers of one key.
type keyState struct {
	sent    Kind      // the kind last delivered ("" before the first)
	sentAt  time.Time // when it was delivered
	pending *Event    // waiting for the debounce window to pass
	since   time.Time // when pending arrived
}

// forgetAfter drops a key's memory once it has been quiet this long, so keys
// of one-off events (a rejected configuration, a burst of failed sign-ins)
// do not accumulate.
const forgetAfter = 7 * 24 * time.Hour

// Debouncer turns a stream of published states into one event per change
// of state under a key. An event waits for the debounce window; if its key
// goes back to the last delivered kind meanwhile (a backend that flaps), it
// is dropped. A recovery is only delivered after its problem was.
type Debouncer struct {
	mu     sync.Mutex
	now    func() time.Time
	window func() time.Duration
	keys   map[string]*keyState
}

// NewDebouncer returns a debouncer; window is read on every Flush so a
// settings change applies at once.
func NewDebouncer(now func() time.Time, window func() time.Duration) *Debouncer {
	return &Debouncer{now: now, window: window, keys: map[string]*keyState{}}
}

// Publish records ev; Flush releases it once it is due.
func (d *Debouncer) Publish(_ context.Context, ev Event) {
	if ev.At.IsZero() {
		ev.At = d.now()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.keys[ev.Key]
	if st == nil {
		st = &keyState{}
		d.keys[ev.Key] = st
	}
	switch {
	case st.pending != nil && st.pending.Kind == ev.Kind:
		// Already waiting: keep the first arrival's time.
	case ev.Kind == st.sent:
		st.pending = nil // back where it was: nothing to say
	case st.sent == "" && recovers[ev.Kind] != "":
		st.pending = nil // a recovery nobody was told about the problem of
	default:
		e := ev
		st.pending, st.since = &e, d.now()
	}
}

// Flush returns the events whose debounce window has passed, oldest first,
// and marks them delivered.
func (d *Debouncer) Flush() []Event {
	now := d.now()
	w := d.window()
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Event
	for k, st := range d.keys {
		if st.pending != nil && !now.Before(st.since.Add(w)) {
			out = append(out, *st.pending)
			st.sent, st.sentAt, st.pending = st.pending.Kind, now, nil
		}
		if st.pending == nil && now.Sub(st.sentAt) > forgetAfter && !isState(st.sent) {
			delete(d.keys, k)
		}
	}
	sortEvents(out)
	return out
}

// isState says whether a kind reports a lasting state whose key must be
// remembered (a backend still down) rather than a one-off.
func isState(k Kind) bool {
	switch k {
	case BackendDown, CertExpiring, CertExpired, PollingStopped, BackupFailed, AlertFiring:
		return true
	}
	return false
}

func sortEvents(evs []Event) {
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].At.Before(evs[j-1].At); j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
}
