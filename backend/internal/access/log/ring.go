package log

import (
	"sync"
	"sync/atomic"
)

// minRing is the number of slots a ring starts with.
const minRing = 8

// slot is one entry of a ring, with its own lock: writers of different
// slots never wait for one another.
type slot struct {
	mu sync.Mutex
	e  Entry
}

// ring is one service's last decisions. A writer takes the next entry
// number from an atomic counter and locks only its slot, so concurrent
// verify requests for one service do not queue on one lock. Entry number n
// is in slot n mod len(slots). slots grows (doubling, from minRing) until
// it has PerService, and while it grows every number handed out has its
// own slot; mu is locked for writing only to grow it.
type ring struct {
	mu      sync.RWMutex
	slots   []slot
	claimed atomic.Uint64 // entry numbers handed out
	last    atomic.Int64  // unix nanoseconds of the last write
}

func newRing() *ring { return &ring{slots: make([]slot, minRing)} }

// add writes e as the next entry. A slot that is locked belongs to a
// writer that was descheduled while a whole ring of others went past it:
// rather than wait for it, add takes the next number, so one stalled
// request never holds up the others.
func (r *ring) add(e *Entry) {
	r.mu.RLock()
	for {
		n := r.claimed.Add(1) - 1
		for n >= uint64(len(r.slots)) && len(r.slots) < PerService {
			r.mu.RUnlock()
			r.grow(n)
			r.mu.RLock()
		}
		s := &r.slots[n%uint64(len(r.slots))]
		if s.mu.TryLock() {
			s.e = *e
			s.mu.Unlock()
			break
		}
	}
	r.mu.RUnlock()
}

// grow makes room for entry number n, or for PerService entries.
func (r *ring) grow(n uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	size := len(r.slots)
	for uint64(size) <= n && size < PerService {
		size = min(2*size, PerService)
	}
	if size == len(r.slots) {
		return // another writer grew it
	}
	grown := make([]slot, size)
	for i := range r.slots {
		grown[i].e = r.slots[i].e // no writer holds a slot: mu is locked
	}
	r.slots = grown
}

// newest copies up to f.Limit matching entries of one ring, newest first.
// A slot whose number was handed out but not yet written, or skipped by
// add, is empty (skipped here) or holds an older entry.
func (r *ring) newest(f *Filter) []Entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	size := uint64(len(r.slots))
	top := r.claimed.Load()
	if size < PerService {
		top = min(top, size) // numbers past the slots wait for grow
	}
	var out []Entry
	for i := uint64(0); i < min(top, size) && len(out) < f.Limit; i++ {
		s := &r.slots[(top-1-i)%size]
		s.mu.Lock()
		e := s.e
		s.mu.Unlock()
		if e.Seq != 0 && f.match(&e) {
			out = append(out, e)
		}
	}
	return out
}
