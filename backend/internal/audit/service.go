package audit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
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
	// mu serializes this process's appends (the database's write lock
	// serializes them across processes, e.g. the CLI).
	mu sync.Mutex
	// failures counts entries that could not be recorded since start.
	failures atomic.Int64

	routesOnce sync.Once
	routes     routeSet
}

// NewService returns the audit service. sessionCookie is the name of the
// admin session cookie.
func NewService(db *gorm.DB, now func() time.Time, log *slog.Logger, sessionCookie string) *Service {
	return &Service{db: db, now: now, log: log, sessionCookie: sessionCookie}
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
