package audit

import (
	"context"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

// Service records entries for the API middleware and answers the log's
// queries, verification and pruning.
type Service struct {
	db  *gorm.DB
	now func() time.Time
	log *slog.Logger
	// sessionCookie is the admin session cookie: a sign-in step that sets it
	// opened a session.
	sessionCookie string
	onSignIn      func(r *http.Request, action string)
	// mu serializes this process's appends (the database's write lock
	// serializes them across processes, e.g. the CLI).
	mu sync.Mutex
	// failures counts entries that could not be recorded since start.
	failures atomic.Int64

	routesOnce sync.Once
	routes     routeSet

	// hidden are the fields each resource type's view hides from viewers
	// (HideFromViewers); the log hides them in the changes too.
	hidden map[string]viewmask.Paths
}

// HideFromViewers declares, per resource type ("services", "admin.sso"),
// the fields its view hides from viewers. The log then shows a viewer
// (a session or a token with the viewer role) Hidden for those values in
// JSON and CSV, and a viewer's free-text search does not look into those
// entries' changes. Call it while wiring, before serving.
func (s *Service) HideFromViewers(types map[string]viewmask.Paths) {
	if s.hidden == nil {
		s.hidden = map[string]viewmask.Paths{}
	}
	for t, p := range types {
		s.hidden[t] = append(s.hidden[t], p...)
	}
}

// HiddenFromViewers returns the fields of a resource type hidden from
// viewers.
func (s *Service) HiddenFromViewers(resourceType string) viewmask.Paths {
	return s.hidden[resourceType]
}

// hiddenTypes lists the resource types with fields hidden from viewers.
func (s *Service) hiddenTypes() []string {
	out := make([]string, 0, len(s.hidden))
	for t := range s.hidden {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// forReader hides, for a reader who may not see them, the fields the
// entry's resource type declares hidden.
func (s *Service) forReader(e EntryView, hide bool) EntryView {
	p := s.hidden[e.Resource.Type]
	if !hide || len(p) == 0 {
		return e
	}
	for i, c := range e.Changes {
		e.Changes[i].Before, e.Changes[i].After = p.Change(c.Path, c.Before, c.After)
	}
	return e
}

// Deps are the Service's collaborators.
type Deps struct {
	DB     *gorm.DB
	Now    func() time.Time
	Logger *slog.Logger
	// SessionCookie is the name of the admin session cookie.
	SessionCookie string
	// OnSignIn, when set, hears every sign-in step recorded, with its
	// action (ActionSignIn, ActionSignInStep, ActionSignInFailed,
	// ActionSetup): the panel's metrics.
	OnSignIn func(r *http.Request, action string)
}

// NewService returns the audit service.
func NewService(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, now: d.Now, log: d.Logger, sessionCookie: d.SessionCookie, onSignIn: d.OnSignIn}
}

// Failures is how many entries could not be recorded since the process
// started (each is also logged as an error).
func (s *Service) Failures() int64 { return s.failures.Load() }

// record appends e; a failure is logged and counted, never returned: the
// change it describes has already happened.
func (s *Service) record(ctx context.Context, e Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The request may be cancelled once its answer is written; the entry
	// is still written.
	ctx = context.WithoutCancel(ctx)
	if _, err := appendEntry(ctx, s.db, s.now(), e); err != nil {
		s.failures.Add(1)
		s.log.Error("audit entry not recorded", "action", e.Action, "resource_type", e.ResourceType,
			"resource_id", e.ResourceID, "route", e.Route, "err", err)
	}
}
