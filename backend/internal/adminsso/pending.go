package adminsso

import (
	"errors"
	"sync"
	"time"
)

// Sign-ins in progress live in memory for loginTTL, single-use; a restart
// forgets them, which costs at most one retried sign-in.
const (
	loginTTL   = 10 * time.Minute
	maxPending = 10000
)

// attempt is one sign-in in progress, keyed by its OAuth state.
type attempt struct {
	nonce, verifier string
	expires         time.Time
}

type pending struct {
	now func() time.Time
	mu  sync.Mutex
	m   map[string]attempt
}

func newPending(now func() time.Time) *pending {
	return &pending{now: now, m: map[string]attempt{}}
}

var errTooManyPending = errors.New("too many sign-ins in progress")

func (p *pending) add(state string, a attempt) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.m) >= maxPending {
		p.sweepLocked()
		if len(p.m) >= maxPending {
			return errTooManyPending
		}
	}
	a.expires = p.now().Add(loginTTL)
	p.m[state] = a
	return nil
}

// take returns and forgets a live attempt.
func (p *pending) take(state string) (attempt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a, ok := p.m[state]
	delete(p.m, state)
	if !ok || !p.now().Before(a.expires) {
		return attempt{}, false
	}
	return a, true
}

func (p *pending) sweepLocked() {
	now := p.now()
	for k, a := range p.m {
		if !now.Before(a.expires) {
			delete(p.m, k)
		}
	}
}
