package audit

import (
	"context"
	"encoding/json"
	"sync"
)

type reportKey struct{}

// report is what the handler of a Reported route says its write changed,
// as decoded JSON.
type report struct {
	mu            sync.Mutex
	set, failed   bool
	before, after any
}

// Changed tells the audit log the one resource the write of the request in
// ctx changed: its representation as the API shows it (what the list or
// item GET answers for it), before the write (nil: it did not exist) and
// after (nil: it is gone). A route audit.Overrides marks Reported is
// recorded from it instead of reading the route's list before and after,
// so recording the write costs one resource whatever the size of the list.
// The values are encoded at once; called more than once, the entry spans
// the first before and the last after. Outside such a request (another
// route, the CLI, an import) it does nothing.
func Changed(ctx context.Context, before, after any) {
	r, _ := ctx.Value(reportKey{}).(*report)
	if r == nil {
		return
	}
	b, okB := encode(before)
	a, okA := encode(after)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.set {
		r.before = b
		r.failed = !okB
	}
	r.set, r.after = true, a
	r.failed = r.failed || !okA
}

// withReport returns ctx carrying a new report for Changed to fill.
func withReport(ctx context.Context) (context.Context, *report) {
	r := &report{}
	return context.WithValue(ctx, reportKey{}, r), r
}

// values returns what was reported; ok is false when nothing was, or a value
// could not be encoded (the diff would not be honest).
func (r *report) values() (before, after any, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.before, r.after, r.set && !r.failed
}

// encode turns a representation into decoded JSON, as a GET's answer is.
func encode(v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, false
	}
	return out, true
}
