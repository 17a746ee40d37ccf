package adminsso

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Sign-ins in progress live in the database (store.SSOPending) for
// loginTTL, single-use, so a sign-in started on one replica finishes on any
// other. Expired ones are swept with the forward-auth ones (access).
const (
	loginTTL   = 10 * time.Minute
	maxPending = 10000
)

// attempt is one sign-in in progress, keyed by its OAuth state.
type attempt struct {
	Nonce    string `json:"nonce"`
	Verifier string `json:"verifier"`
}

type pending struct {
	db  *gorm.DB
	now func() time.Time
}

func newPending(db *gorm.DB, now func() time.Time) *pending {
	return &pending{db: db, now: now}
}

// add stores a; store.ErrTooManyPending while maxPending are in progress.
func (p *pending) add(ctx context.Context, state string, a attempt) error {
	now := p.now()
	return store.PutPending(ctx, p.db, store.PendingAdminLogin, state, a, now, now.Add(loginTTL), maxPending)
}

// take returns and forgets a live attempt: of several replicas, one gets it.
func (p *pending) take(ctx context.Context, state string) (attempt, bool, error) {
	var a attempt
	ok, err := store.TakePending(ctx, p.db, store.PendingAdminLogin, state, p.now(), &a)
	return a, ok, err
}
