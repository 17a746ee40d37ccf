package access

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/token"
)

// Lifetimes of the sign-in state. Both are single-use and live in the
// database (store.SSOPending), so a sign-in started on one replica finishes
// on any other.
const (
	loginTTL    = 10 * time.Minute
	exchangeTTL = 60 * time.Second
	maxPending  = 10000
)

// login is one sign-in in progress, keyed by its OAuth state.
type login struct {
	ServiceID string `json:"serviceId"`
	RD        string `json:"rd"`
	Nonce     string `json:"nonce"`
	Verifier  string `json:"verifier"`
}

// identity is who the provider says signed in.
type identity struct {
	user, email, name string
	groups            []string
	// The raw claims another sign-in flow needs (administrators): issuer
	// and subject link an account; preferred is preferred_username as sent.
	issuer, subject, preferred string
	emailVerified              bool // email_verified is present and true
}

// exchange is a one-time token carrying a signed-in identity from the
// panel's host to the service's host. Keyed by the token's hash.
type exchange struct {
	serviceID, host string
	id              identity
}

// exchangeJSON is an exchange as stored.
type exchangeJSON struct {
	ServiceID string   `json:"serviceId"`
	Host      string   `json:"host"`
	User      string   `json:"user"`
	Email     string   `json:"email"`
	Name      string   `json:"name"`
	Groups    []string `json:"groups"`
}

// ssoState keeps the pending sign-ins (in the database) and the discovered
// provider (in memory: each replica discovers it once).
type ssoState struct {
	db  *gorm.DB
	now func() time.Time

	provMu sync.Mutex
	issuer string
	prov   *oidc.Provider
}

func newSSOState(db *gorm.DB, now func() time.Time) *ssoState {
	return &ssoState{db: db, now: now}
}

func (s *ssoState) addLogin(ctx context.Context, state string, l *login) error {
	now := s.now()
	return store.PutPending(ctx, s.db, store.PendingLogin, state, l, now, now.Add(loginTTL), maxPending)
}

// takeLogin returns and forgets a live login; nil when there is none.
func (s *ssoState) takeLogin(ctx context.Context, state string) (*login, error) {
	var l login
	ok, err := store.TakePending(ctx, s.db, store.PendingLogin, state, s.now(), &l)
	if !ok || err != nil {
		return nil, err
	}
	return &l, nil
}

func (s *ssoState) addExchange(ctx context.Context, e *exchange) (string, error) {
	tok, err := token.New()
	if err != nil {
		return "", err
	}
	v := exchangeJSON{ServiceID: e.serviceID, Host: e.host, User: e.id.user, Email: e.id.email, Name: e.id.name, Groups: e.id.groups}
	now := s.now()
	if err := store.PutPending(ctx, s.db, store.PendingExchange, tok, v, now, now.Add(exchangeTTL), maxPending); err != nil {
		return "", err
	}
	return tok, nil
}

// redeem returns and forgets a live exchange: a token works once, whichever
// replica it reaches. nil when there is none.
func (s *ssoState) redeem(ctx context.Context, tok string) (*exchange, error) {
	if len(tok) > 128 {
		return nil, nil
	}
	var v exchangeJSON
	ok, err := store.TakePending(ctx, s.db, store.PendingExchange, tok, s.now(), &v)
	if !ok || err != nil {
		return nil, err
	}
	return &exchange{serviceID: v.ServiceID, host: v.Host,
		id: identity{user: v.User, email: v.Email, name: v.Name, groups: v.Groups}}, nil
}

// sweep deletes expired sign-ins, the panel's own included (they share the table).
func (s *ssoState) sweep(ctx context.Context) error {
	return store.SweepPending(ctx, s.db, s.now())
}

// provider returns the discovered provider for issuer, discovering it once.
func (s *ssoState) provider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	s.provMu.Lock()
	defer s.provMu.Unlock()
	if s.prov != nil && s.issuer == issuer {
		return s.prov, nil
	}
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return nil, fmt.Errorf("discover OpenID provider %q: %w", issuer, err)
	}
	s.prov, s.issuer = p, issuer
	return p, nil
}

func (s *ssoState) resetProvider() {
	s.provMu.Lock()
	defer s.provMu.Unlock()
	s.prov, s.issuer = nil, ""
}
