package forwardauth

import (
	"context"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// exchangeTTL is the lifetime of an exchange token. Tokens are single-use
// and live in the database (store.SSOPending), so the hop back to the
// service may land on any replica.
const exchangeTTL = 60 * time.Second

// login is one sign-in to a service in progress, sealed into the browser's
// cookie (oidc.SignIns) under its OAuth state.
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
	// issuer and subject are the stable identity (they link an
	// administrator, and sub: entries of an allow-list match them);
	// preferred is preferred_username as sent.
	issuer, subject, preferred string
	// email is the email claim as sent: verified or not. A service sees and
	// matches only verifiedEmail.
	emailVerified bool // email_verified is present and true
}

// verifiedEmail is the e-mail address when the provider has verified it,
// "" otherwise: an unverified address could be anyone's.
func (id identity) verifiedEmail() string {
	if id.emailVerified {
		return id.email
	}
	return ""
}

// identityOf keeps what a service's session needs of who signed in.
func identityOf(id oidc.Identity) identity {
	return identity{user: id.User, email: id.Email, emailVerified: id.EmailVerified, name: id.Name, groups: id.Groups,
		issuer: id.Issuer, subject: id.Subject, preferred: id.Username}
}

// exchange is a one-time token carrying a signed-in identity from the
// panel's host to the service's host. Keyed by the token's hash.
type exchange struct {
	serviceID, host string
	// kind is the session it opens: store.SessionSSO (also when empty, as
	// stored before e-mail codes) or store.SessionEmailCode.
	kind string
	id   identity
	// people exchanges: the person and the portal sign-in.
	personID, portalSessionID string
	secondFactor              bool
	signedInAt                time.Time
}

// exchangeJSON is an exchange as stored. Email is set only when verified.
type exchangeJSON struct {
	ServiceID string   `json:"serviceId"`
	Host      string   `json:"host"`
	User      string   `json:"user"`
	Email     string   `json:"email"`
	Name      string   `json:"name"`
	Groups    []string `json:"groups"`
	Issuer    string   `json:"issuer"`
	Subject   string   `json:"subject"`
	Preferred string   `json:"preferred"`
	Kind      string   `json:"kind,omitempty"`
	// people exchanges
	PersonID        string    `json:"personId,omitempty"`
	PortalSessionID string    `json:"portalSessionId,omitempty"`
	SecondFactor    bool      `json:"secondFactor,omitempty"`
	SignedInAt      time.Time `json:"signedInAt,omitzero"`
}

// ssoState keeps the exchange tokens (in the database) and the opened
// client secret.
type ssoState struct {
	db  *gorm.DB
	now func() time.Time

	// The client secret, opened once per sealed value: opening costs an
	// X25519 operation, which every sign-in start would otherwise pay.
	secretMu           sync.Mutex
	sealedKey, openKey string
}

// clientSecret opens sealed with secrets, reusing the last answer while
// sealed is unchanged.
func (s *ssoState) clientSecret(sealed string, secrets Sealer) (string, error) {
	s.secretMu.Lock()
	defer s.secretMu.Unlock()
	if sealed == s.sealedKey && s.openKey != "" {
		return s.openKey, nil
	}
	plain, err := secrets.Open(sealed)
	if err != nil {
		return "", err
	}
	s.sealedKey, s.openKey = sealed, plain
	return plain, nil
}

func newSSOState(db *gorm.DB, now func() time.Time) *ssoState {
	return &ssoState{db: db, now: now}
}

func (s *ssoState) addExchange(ctx context.Context, e *exchange) (string, error) {
	tok, err := bearer.New()
	if err != nil {
		return "", err
	}
	v := exchangeJSON{ServiceID: e.serviceID, Host: e.host, User: e.id.user, Email: e.id.verifiedEmail(), Name: e.id.name,
		Groups: e.id.groups, Issuer: e.id.issuer, Subject: e.id.subject, Preferred: e.id.preferred, Kind: e.kind,
		PersonID: e.personID, PortalSessionID: e.portalSessionID, SecondFactor: e.secondFactor, SignedInAt: e.signedInAt}
	if err := store.PutPending(ctx, s.db, store.PendingExchange, tok, v, s.now().Add(exchangeTTL)); err != nil {
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
	kind := v.Kind
	if kind == "" {
		kind = store.SessionSSO
	}
	return &exchange{serviceID: v.ServiceID, host: v.Host, kind: kind,
		id: identity{user: v.User, email: v.Email, emailVerified: v.Email != "", name: v.Name, groups: v.Groups,
			issuer: v.Issuer, subject: v.Subject, preferred: v.Preferred},
		personID: v.PersonID, portalSessionID: v.PortalSessionID, secondFactor: v.SecondFactor, signedInAt: v.SignedInAt}, nil
}

// sweep deletes expired exchange tokens and used states, the panel's own included (they share the table).
func (s *ssoState) sweep(ctx context.Context) error {
	return store.SweepPending(ctx, s.db, s.now())
}
