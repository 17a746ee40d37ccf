package access

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/gatehouse-proxy/gatehouse/internal/token"
)

// Lifetimes of the in-memory sign-in state. Both are single-use; a restart
// forgets them, which costs at most one retried sign-in.
const (
	loginTTL    = 10 * time.Minute
	exchangeTTL = 60 * time.Second
	maxPending  = 10000
)

// login is one sign-in in progress, keyed by its OAuth state.
type login struct {
	serviceID, rd   string
	nonce, verifier string
	expires         time.Time
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
	expires         time.Time
}

type ssoState struct {
	now       func() time.Time
	mu        sync.Mutex
	logins    map[string]*login
	exchanges map[string]*exchange

	provMu sync.Mutex
	issuer string
	prov   *oidc.Provider
}

func newSSOState(now func() time.Time) *ssoState {
	return &ssoState{now: now, logins: map[string]*login{}, exchanges: map[string]*exchange{}}
}

var errTooManyPending = fmt.Errorf("too many sign-ins in progress")

func (s *ssoState) addLogin(state string, l *login) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.logins) >= maxPending {
		s.sweepLocked()
		if len(s.logins) >= maxPending {
			return errTooManyPending
		}
	}
	l.expires = s.now().Add(loginTTL)
	s.logins[state] = l
	return nil
}

// takeLogin returns and forgets a live login.
func (s *ssoState) takeLogin(state string) *login {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.logins[state]
	delete(s.logins, state)
	if l == nil || !s.now().Before(l.expires) {
		return nil
	}
	return l
}

func (s *ssoState) addExchange(e *exchange) (string, error) {
	tok, err := token.New()
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.exchanges) >= maxPending {
		s.sweepLocked()
		if len(s.exchanges) >= maxPending {
			return "", errTooManyPending
		}
	}
	e.expires = s.now().Add(exchangeTTL)
	s.exchanges[token.Hash(tok)] = e
	return tok, nil
}

// redeem returns and forgets a live exchange: a token works once.
func (s *ssoState) redeem(tok string) *exchange {
	if len(tok) > 128 {
		return nil
	}
	h := token.Hash(tok)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.exchanges[h]
	delete(s.exchanges, h)
	if e == nil || !s.now().Before(e.expires) {
		return nil
	}
	return e
}

func (s *ssoState) sweep() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
}

func (s *ssoState) sweepLocked() {
	now := s.now()
	for k, l := range s.logins {
		if !now.Before(l.expires) {
			delete(s.logins, k)
		}
	}
	for k, e := range s.exchanges {
		if !now.Before(e.expires) {
			delete(s.exchanges, k)
		}
	}
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
