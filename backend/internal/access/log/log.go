// Package log is the access log: it keeps the recent forward-auth decisions of every
// protected service in memory: one ring per service, which grows with the
// decisions recorded up to a fixed size, so the memory it takes has a fixed
// cap, a service seen a few times costs a few entries, and recording a
// decision allocates nothing once a service's ring is full (and, until then,
// only when the ring doubles). It is a live view for administrators, not an
// audit trail: it starts empty at every start.
package log

import (
	"cmp"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Decision is what verify answered.
type Decision uint8

// The decisions.
const (
	Allowed         Decision = iota + 1 // let through without identity (a rule or an unprotected service)
	Authenticated                       // let through with an identity
	Denied                              // 403 by a rule, or the service is not available
	Unauthenticated                     // 401 or a redirect to sign in
	Forbidden                           // signed in, but not allowed
	RateLimited                         // 429
)

var decisionNames = [...]string{"", "allowed", "authenticated", "denied", "unauthenticated", "forbidden", "rate_limited"}

func (d Decision) String() string {
	if int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return "unknown"
}

// ParseDecision reads a decision name.
func ParseDecision(s string) (Decision, bool) {
	for i, n := range decisionNames {
		if i > 0 && n == s {
			return Decision(i), true
		}
	}
	return 0, false
}

// Basis is what a decision rested on.
type Basis uint8

// The bases.
const (
	ByDefault     Basis = iota + 1 // the default action (no rule matched)
	ByGlobalRule                   // a global rule; Entry.Rule is its index
	ByServiceRule                  // one of the service's rules; Entry.Rule is its index
	BySession                      // an SSO session
	ByLinkSession                  // a session opened by a shared link
	ByLink                         // a shared link's first use
	ByBasicAuth
	ByToken
	ByNoProtection // the service has no protection and no rule
	ByUnavailable  // unknown, disabled or expired service
	ByRateLimit
)

// Reason says, for a request refused for want of a sign-in, what its
// credentials were: none at all, or ones that did not check out.
type Reason uint8

// The reasons.
const (
	NoReason           Reason = iota
	MissingCredentials        // no credentials the service takes were sent
	WrongPassword             // basic auth or an app password with a wrong username or password
	InvalidToken              // a machine token that is unknown, expired or revoked
)

var reasonNames = [...]string{"", "missing_credentials", "wrong_password", "invalid_token"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return ""
}

// Entry is one decision. Strings are kept as verify read them (no copies);
// the path never includes the query string.
type Entry struct {
	Seq         uint64
	Time        time.Time
	ServiceID   string
	ServiceName string
	Addr        netip.Addr
	Method      string
	Host        string
	Path        string
	Decision    Decision
	Basis       Basis
	Rule        int
	Identity    string
	Reason      Reason
}

// By describes what the decision rested on, for people.
func (e *Entry) By() string {
	switch e.Basis {
	case ByDefault:
		return "default action"
	case ByGlobalRule:
		return "global rule " + strconv.Itoa(e.Rule+1)
	case ByServiceRule:
		return "service rule " + strconv.Itoa(e.Rule+1)
	case BySession:
		return "single sign-on session"
	case ByLinkSession:
		return "shared-link session"
	case ByLink:
		return "shared link"
	case ByBasicAuth:
		return "basic auth"
	case ByToken:
		return "machine token"
	case ByNoProtection:
		return "no protection"
	case ByUnavailable:
		return "service not available"
	case ByRateLimit:
		return "rate limit"
	}
	return ""
}

// Sizes of the log: each service keeps its last PerService decisions, and
// at most MaxServices rings exist (the least recently written goes first).
const (
	PerService  = 1000
	MaxServices = 200
	maxPath     = 512
)

// Log is the set of rings. The zero value is not usable; call New.
type Log struct {
	seq   atomic.Uint64
	mu    sync.RWMutex
	rings map[string]*ring
}

// New returns an empty log.
func New() *Log { return &Log{rings: map[string]*ring{}} }

// Record adds e (its Seq is assigned here) to its service's ring.
func (l *Log) Record(e Entry) {
	if len(e.Path) > maxPath {
		e.Path = strings.Clone(e.Path[:maxPath]) // never keep a huge request string alive
	}
	l.mu.RLock()
	r := l.rings[e.ServiceID]
	l.mu.RUnlock()
	if r == nil {
		r = l.ringFor(e.ServiceID)
	}
	e.Seq = l.seq.Add(1)
	r.add(&e)
	r.last.Store(e.Time.UnixNano())
}

func (l *Log) ringFor(id string) *ring {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.rings[id]; r != nil {
		return r
	}
	if len(l.rings) >= MaxServices {
		oldest, at := "", int64(0)
		for k, r := range l.rings {
			if t := r.last.Load(); oldest == "" || t < at {
				oldest, at = k, t
			}
		}
		delete(l.rings, oldest)
	}
	r := newRing()
	l.rings[id] = r
	return r
}

// Forget drops a service's ring (when the service is deleted).
func (l *Log) Forget(serviceID string) {
	l.mu.Lock()
	delete(l.rings, serviceID)
	l.mu.Unlock()
}

// Filter selects entries; zero fields select everything.
type Filter struct {
	ServiceID string
	Decision  Decision
	Address   netip.Prefix // a single address is a /32 or /128 prefix
	Identity  string       // substring, case-insensitive
	After     uint64       // only entries with a larger Seq
	Limit     int          // at most this many, newest first
}

func (f *Filter) match(e *Entry) bool {
	return e.Seq > f.After &&
		(f.Decision == 0 || e.Decision == f.Decision) &&
		(!f.Address.IsValid() || e.Addr.IsValid() && f.Address.Contains(e.Addr)) &&
		(f.Identity == "" || strings.Contains(strings.ToLower(e.Identity), strings.ToLower(f.Identity)))
}

// Query returns the matching entries, newest first.
func (l *Log) Query(f Filter) []Entry {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	l.mu.RLock()
	var rings []*ring
	if f.ServiceID != "" {
		if r := l.rings[f.ServiceID]; r != nil {
			rings = append(rings, r)
		}
	} else {
		for _, r := range l.rings {
			rings = append(rings, r)
		}
	}
	l.mu.RUnlock()
	var out []Entry
	for _, r := range rings {
		out = append(out, r.newest(&f)...)
	}
	// Newest first across services.
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(b.Seq, a.Seq) })
	if len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out
}
