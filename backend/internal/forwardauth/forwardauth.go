// Package forwardauth is Gatehouse's forward-auth: the GET /api/auth/verify
// endpoint Traefik calls on every request to a protected service, the
// protections behind it (basic auth, OpenID Connect single sign-on, one-use
// shared links), the sessions they open, and their administration API.
//
// The verify hot path reads only in-memory state: a policy snapshot rebuilt
// after any change on the bus, and caches of sessions and basic-auth results.
// Every write that could make cached state too permissive publishes or
// receives a change event that drops it, so the caches fail closed.
package forwardauth

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// Limits of failed basic-auth and sign-in attempts per IP and per user.
const (
	MaxFailures   = 10
	FailureWindow = 15 * time.Minute
)

// Deps are the dependencies of the forward-auth service.
type Deps struct {
	DB     *gorm.DB
	Bus    *change.Bus
	Now    func() time.Time
	Logger *slog.Logger
	// Writable refuses, with the reason, a service whose protections may
	// not be changed through the API (one managed by container labels).
	// Nil: every service is writable.
	Writable func(ctx context.Context, serviceID string) error
	// PanelURL returns the panel's public base URL (no trailing slash), where
	// browsers are sent to sign in. It is read when the policy snapshot is
	// rebuilt, so it may query settings.
	PanelURL func(ctx context.Context) (string, error)
	// BcryptCost for credential-set passwords; 0 means bcrypt.DefaultCost.
	BcryptCost int
	// HTTPClient talks to the OpenID provider; nil means a client with a timeout.
	HTTPClient *http.Client
	// Secrets seals the SSO client secret at rest; nil means a key that lives
	// only in memory (tests).
	Secrets Sealer
	// Schemes says whether a service is reached on http or https, for the
	// URL of a shared link; nil means the entrypoint names alone decide
	// (dynconf.IsTLSByName, no global defaults).
	Schemes Schemes
	// Rules are the access rules (package access); nil means none.
	Rules RuleSource
	// Tokens are the machine tokens (package machinetokens); nil means none.
	Tokens TokenSource
	// Geo answers countries for country rules; nil without a database.
	Geo rules.Geo
	// TrustedProxies are proxies in front of Traefik whose
	// X-Forwarded-For entries count (PANEL_TRUSTED_PROXIES).
	TrustedProxies []netip.Prefix
	// Log receives every decision; nil keeps none.
	Log *accesslog.Log
	// Traffic counts every decision and its latency per service; nil
	// counts none.
	Traffic *traffic.Recorder
	// Notify hears when a service has many failed sign-ins; nil discards.
	Notify notify.Publisher
	// Mailer sends the e-mail code protection's codes; nil sends none (the
	// pages still answer alike, and the log says why no mail left).
	Mailer Mailer
	// Portal reads who is signed in on the sign-in portal, for the hop
	// that opens a "people" protection's session on a service; nil means
	// no portal (the protection refuses every browser).
	Portal PortalSessions
	// PortalURL returns the sign-in portal's public base URL (no trailing
	// slash), "" when no portal host is set. Read when the policy snapshot
	// is rebuilt; nil means no portal.
	PortalURL func(ctx context.Context) (string, error)
	// AppPasswords checks people's app passwords, for clients that can
	// only do basic auth on a "people" protection; nil means none.
	AppPasswords AppPasswords
	// Apps answers which services are linked to an OpenID Connect client a
	// person may sign in to, for the launcher; nil means none.
	Apps LinkedApps
}

// LinkedApps answers the launcher about OpenID Connect clients (package
// oidc/clients owns them).
type LinkedApps interface {
	// LinkedServices returns the ids of the services linked to an enabled
	// client that admits the person.
	LinkedServices(ctx context.Context, personID string) (map[string]bool, error)
}

// PortalSignIn is a person's sign-in on the portal.
type PortalSignIn struct {
	PersonID string
	// SessionID names the portal session: the service sessions opened from
	// it end when it ends (sign out everywhere).
	SessionID string
	// SecondFactor says the sign-in used a second factor or a passkey.
	SecondFactor bool
	// At is when the person last proved who they are (sign-in or step-up).
	At time.Time
}

// PortalSessions reads the portal's session from a request made on the
// portal's host (package admin owns the sessions).
type PortalSessions interface {
	PortalSignIn(ctx context.Context, r *http.Request) (PortalSignIn, bool, error)
}

// AppPasswords checks an app password (package people owns them).
type AppPasswords interface {
	// CheckAppPassword returns the person whose app password secret is,
	// for that person's username; ok is false when none matches.
	CheckAppPassword(ctx context.Context, username, secret string) (personID string, ok bool, err error)
}

// RuleSource reads every access-rule list, for the policy snapshot.
type RuleSource interface {
	Snapshot(ctx context.Context) (access.Snapshot, error)
}

// TokenSource reads the usable machine tokens, for the policy snapshot, and
// takes note of their use off the request path.
type TokenSource interface {
	Snapshot(ctx context.Context) (map[string]*machinetokens.Policy, error)
	RecordUse(id string, at time.Time, addr netip.Addr)
}

// Schemes answers which scheme browsers use to reach a service on the given
// entrypoints (none: the global defaults). dynconf.Service implements it with
// the TLS rules its generated routers follow.
type Schemes interface {
	Scheme(ctx context.Context, entrypoints []string) (string, error)
}

// Sealer encrypts secrets at rest and derives keys every replica sharing
// the same identity derives alike (sealbox.Box).
type Sealer interface {
	Seal(plain string) (string, error)
	Open(sealed string) (string, error)
	DeriveKey(purpose string) ([]byte, error)
}

// schemesByName is the Schemes of last resort: dynconf's name rule only.
type schemesByName struct{}

func (schemesByName) Scheme(_ context.Context, entrypoints []string) (string, error) {
	for _, ep := range entrypoints {
		if dynconf.IsTLSByName(ep) {
			return "https", nil
		}
	}
	if len(entrypoints) == 0 {
		return "https", nil
	}
	return "http", nil
}

// Service is the forward-auth feature.
type Service struct {
	// writable is Deps.Writable, asked by the API's writes only: the
	// container labels apply protections through the service itself.
	writable func(ctx context.Context, serviceID string) error
	db       *gorm.DB
	bus      *change.Bus
	now      func() time.Time
	log      *slog.Logger
	panelURL func(ctx context.Context) (string, error)
	// portalURL, portal and appPasswords serve the people protection.
	portalURL    func(ctx context.Context) (string, error)
	portal       PortalSessions
	appPasswords AppPasswords
	apps         LinkedApps
	cost         int
	client       *http.Client
	secrets      Sealer
	schemes      Schemes
	rules        RuleSource
	tokens       TokenSource
	geo          rules.Geo
	trusted      []netip.Prefix
	decided      *accesslog.Log
	traffic      *traffic.Recorder

	policy   *policyCache
	sessions *sessionStore
	basic    *basicCache
	limiter  *ratelimit.Limiter
	// pinByLink and pinByAddr count wrong shared-link PINs per link and
	// per client address, across replicas on PostgreSQL.
	pinByLink *ratelimit.Limiter
	pinByAddr *ratelimit.Limiter
	failures  *notify.SignInAlarm // many failed sign-ins on one service
	sso       *ssoState
	rp        *oidc.Client  // the OpenID relying party of visitors and administrators
	signIns   *oidc.SignIns // sign-ins in progress, sealed into the browser's cookie
	dummy     []byte        // bcrypt hash compared against for unknown users (equal timing)

	mailer    Mailer        // sends e-mail codes
	codes     codeLimits    // e-mail code sends and wrong codes
	codeKey   []byte        // keys the hash of stored e-mail codes
	mailSlots chan struct{} // bounds the codes being mailed at once
}

// NewService returns the forward-auth service and subscribes its caches to the bus.
func NewService(o Deps) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.BcryptCost == 0 {
		o.BcryptCost = bcrypt.DefaultCost
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Secrets == nil {
		box, err := sealbox.Ephemeral()
		if err != nil {
			panic(err) // the system's random source failed
		}
		o.Secrets = box
	}
	if o.Schemes == nil {
		o.Schemes = schemesByName{}
	}
	if o.PanelURL == nil {
		o.PanelURL = func(context.Context) (string, error) { return "", nil }
	}
	var err error
	dummy, _ := bcrypt.GenerateFromPassword([]byte("gatehouse-timing-equaliser"), o.BcryptCost)
	s := &Service{
		db: o.DB, bus: o.Bus, now: o.Now, log: o.Logger, panelURL: o.PanelURL,
		cost: o.BcryptCost, client: o.HTTPClient, dummy: dummy, secrets: o.Secrets, schemes: o.Schemes,
		rules: o.Rules, tokens: o.Tokens, geo: o.Geo, trusted: o.TrustedProxies, decided: o.Log, traffic: o.Traffic,
		limiter: ratelimit.Shared(o.DB, "access", MaxFailures, FailureWindow, o.Now, ratelimit.WithLogger(o.Logger)),
		pinByLink: ratelimit.Shared(o.DB, "link.pin", LinkPINWindowFailures, LinkPINWindow, o.Now,
			ratelimit.WithLogger(o.Logger)),
		pinByAddr: ratelimit.Shared(o.DB, "link.pin.address", LinkPINAddressFailures, LinkPINWindow, o.Now,
			ratelimit.WithLogger(o.Logger)),
		// A service, whatever the addresses and names tried, gets the
		// limiter's own threshold and window.
		failures: notify.NewSignInAlarm(o.Notify, MaxFailures, FailureWindow, o.Now),
	}
	s.portalURL, s.portal, s.appPasswords, s.apps = o.PortalURL, o.Portal, o.AppPasswords, o.Apps
	s.writable = o.Writable
	if s.writable == nil {
		s.writable = func(context.Context, string) error { return nil }
	}
	s.mailer, s.mailSlots = o.Mailer, make(chan struct{}, maxMailsInFlight)
	s.codes = newCodeLimits(o.DB, o.Now, ratelimit.WithLogger(o.Logger))
	if s.codeKey, err = o.Secrets.DeriveKey(emailCodeKeyPurpose); err != nil {
		panic(err) // HKDF of a fixed-size key does not fail
	}
	s.policy = newPolicyCache(s.loadPolicy)
	s.sessions = newSessionStore(o.DB, o.Now)
	s.basic = newBasicCache()
	s.sso = newSSOState(o.DB, o.Now)
	s.rp = oidc.NewClient(o.HTTPClient)
	key, err := o.Secrets.DeriveKey(oidc.SignInKeyPurpose)
	if err != nil {
		panic(err) // HKDF of a fixed-size key does not fail
	}
	if s.signIns, err = oidc.NewSignIns(key, o.DB, o.Now); err != nil {
		panic(err) // the derived key is always 32 bytes
	}
	if o.Bus != nil {
		o.Bus.Subscribe(s.onChange)
	}
	return s
}

// onChange drops cached state that a committed write may have made stale.
func (s *Service) onChange(e change.Event) {
	switch e.Entity {
	case change.Service, change.Domain, change.Settings:
		s.policy.invalidate()
		if e.Entity == change.Service && (e.Kind == change.Disabled || e.Kind == change.Deleted) {
			s.sessions.dropService(e.ID)
			s.basic.flush()
		}
		if e.Entity == change.Service && e.Kind == change.Deleted && s.decided != nil {
			s.decided.Forget(e.ID)
		}
		if e.Entity == change.Service && e.Kind == change.Deleted {
			s.traffic.Forget(e.ID)
		}
	case change.Security:
		s.policy.invalidate()
		s.basic.flush()
		if e.ID == store.KeySSO { // the provider settings changed (an edit or an import)
			s.rp.Forget()
		}
		if e.Kind == change.Deleted { // a service's protections went (an import): so did its sessions
			s.sessions.dropService(e.ID)
		}
	case change.Access:
		// Rules and tokens live only in the snapshot: a revoked token is
		// refused from the next request on.
		s.policy.invalidate()
	case change.Session:
		s.sessions.dropMatching(e.ID)
	case change.All: // events from other replicas may have been missed
		s.policy.invalidate()
		s.sessions.drop(nil)
		s.basic.flush()
		s.rp.Forget()
	}
}

// publish announces a committed write. The bus hands it to onChange at once,
// so this replica's caches are dropped before the caller answers, and then
// to the relay for the other replicas. Without a bus (tests) onChange
// applies it directly.
func (s *Service) publish(e change.Event) {
	if s.bus == nil {
		s.onChange(e)
		return
	}
	s.bus.Publish(e)
}

// Loops are the background jobs every replica runs: writing last-seen times
// off the hot path.
func (s *Service) Loops() []background.Loop {
	return []background.Loop{{Name: "forward-auth sessions last seen", Run: func(ctx context.Context) {
		s.sessions.touchLoop(ctx, 5*time.Second, s.log)
	}}}
}

// LeaderLoops are the jobs one replica runs for all (the leader, with
// several replicas): deleting expired sessions and expired pending sign-ins
// from the database.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("forward-auth sweep", time.Minute, func(ctx context.Context) {
		if err := s.sessions.sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sweep forward-auth sessions", "err", err)
		}
		if err := s.sso.sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sweep pending sign-ins", "err", err)
		}
		if err := s.sweepCodes(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sweep e-mail codes", "err", err)
		}
	})}
}

// InvalidatePolicy forgets the policy snapshot (for example once the panel's
// bound address, part of its public URL, is known).
func (s *Service) InvalidatePolicy() { s.policy.invalidate() }
