// Package provider is the panel's OpenID Connect provider: apps sign
// people in with the portal (github.com/zitadel/oidc/v3's op package, its
// storage in the panel's database). Clients are read from oidc_clients
// (package oidc/clients administers them); the protocol endpoints answer on
// the portal's host under /oidc and /.well-known/openid-configuration.
package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/cors"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	oidcclients "github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
)

// ClientEntity is the change bus entity the clients' administration
// publishes on every write; the provider drops its cache of clients.
const ClientEntity change.Entity = "oidc_client"

// keyEntity tells every replica that the signing keys changed.
const keyEntity change.Entity = "oidc_key"

// Paths of the protocol endpoints, relative to the issuer (the portal's
// address).
const (
	PathPrefix    = "/oidc/"
	DiscoveryPath = oidcclients.DiscoveryPath
	pathAuthorize = oidcclients.AuthorizationPath
	pathCallback  = "/oidc/authorize/callback"
	pathLogin     = "/oidc/login"
	pathToken     = oidcclients.TokenPath
	pathUserinfo  = oidcclients.UserinfoPath
	pathKeys      = oidcclients.JWKSPath
	pathRevoke    = "/oidc/revoke"
	pathIntro     = "/oidc/introspect"
	pathEnd       = oidcclients.EndSessionPath
	pathDevice    = oidcclients.DeviceAuthorizationPath
	// Portal pages (the single-page app) the sign-in sends people to.
	pageSignIn  = "/login"
	pageConsent = "/apps/consent"
	pageRefused = "/apps/refused"
	pageDevice  = "/apps/device"
)

// Session is a person's sign-in on the portal.
type Session struct {
	PersonID     string
	SessionID    string
	SecondFactor bool
	ProvedAt     time.Time
}

// Portal reads the portal session of a request made on the portal's host
// (package admin), and whether a person has a second factor to step up
// with.
type Portal interface {
	PortalSignIn(ctx context.Context, r *http.Request) (Session, bool, error)
	HasSecondFactor(ctx context.Context, personID string) (bool, error)
}

// Deps is what the provider needs.
type Deps struct {
	DB      *gorm.DB
	Bus     *change.Bus
	Secrets Sealer
	Now     func() time.Time
	Logger  *slog.Logger
	Portal  Portal
	// PortalURL is the portal's address ("https://auth.example.com"): the
	// issuer. "" when there is no portal: the provider answers nothing.
	PortalURL func(ctx context.Context) string
	// PortalHost is the portal's host name ("" for none).
	PortalHost func(ctx context.Context) string
	// EndPortalSession ends one portal session (RP-initiated logout).
	EndPortalSession func(ctx context.Context, personID, sessionID string) error
	// HTTPClient sends back-channel logout tokens; nil uses one with a
	// short timeout.
	HTTPClient *http.Client
	// Key rotation: how long a key signs, how long a new key is published
	// before it signs, how long a replaced key stays published. Zero
	// values take the defaults (90 days, 1 hour, 7 days).
	RotateEvery, PublishAhead, Overlap time.Duration
	// DevicePoll is how often a device may poll (5 s when zero).
	DevicePoll time.Duration
}

// Service is the provider.
type Service struct {
	d       Deps
	log     *slog.Logger
	store   *storage
	op      *op.Provider
	keys    *keyring
	clients *clients
	people  *directory
	http    *http.Client
	guesses *ratelimit.Limiter

	docMu sync.RWMutex
	docs  map[string]cachedDoc // discovery documents by issuer
}

type cachedDoc struct {
	body []byte
	etag string
}

// NewService builds the provider. Its signing keys are made on first use
// (Start) and loaded by every replica.
func NewService(d Deps) (*Service, error) {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.RotateEvery <= 0 {
		d.RotateEvery = 90 * 24 * time.Hour
	}
	if d.PublishAhead <= 0 {
		d.PublishAhead = time.Hour
	}
	if d.DevicePoll <= 0 {
		d.DevicePoll = 5 * time.Second
	}
	if d.Overlap <= 0 {
		d.Overlap = 7 * 24 * time.Hour
	}
	s := &Service{d: d, log: d.Logger, docs: map[string]cachedDoc{}, http: d.HTTPClient}
	if s.http == nil {
		s.http = &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	s.guesses = ratelimit.Shared(d.DB, "oidc.device", maxDeviceGuesses, deviceGuessSpan, d.Now)
	s.clients = &clients{db: d.DB}
	s.people = &directory{db: d.DB}
	s.keys = &keyring{log: d.Logger, db: d.DB, sealer: d.Secrets, now: d.Now, rotateEvery: d.RotateEvery, publishAhead: d.PublishAhead, overlap: d.Overlap}
	s.store = &storage{db: d.DB, now: d.Now, clients: s.clients, keys: s.keys, people: s.people, poll: d.DevicePoll,
		loginURL: func(id string) string { return pathLogin + "?id=" + id }}
	cfg := &op.Config{
		DefaultLogoutRedirectURI: "/",
		CodeMethodS256:           true,
		AuthMethodPost:           true,
		GrantTypeRefreshToken:    true,
		SupportedUILocales:       []language.Tag{language.English, language.German, language.French},
		SupportedScopes:          knownScopes,
		SupportedClaims:          append(append([]string{}, op.DefaultSupportedClaims...), "groups", "sid"),
		DeviceAuthorization: op.DeviceAuthorizationConfig{
			Lifetime: 10 * time.Minute, PollInterval: d.DevicePoll, UserFormPath: pageDevice, UserCode: op.UserCodeBase20,
		},
		BackChannelLogoutSupported:        true,
		BackChannelLogoutSessionSupported: true,
	}
	issuer := func(bool) (op.IssuerFromRequest, error) {
		return func(r *http.Request) string { return s.issuer(r.Context()) }, nil
	}
	p, err := op.NewProvider(cfg, s.store, issuer,
		op.WithCustomAuthEndpoint(op.NewEndpoint(pathAuthorize)),
		op.WithCustomTokenEndpoint(op.NewEndpoint(pathToken)),
		op.WithCustomIntrospectionEndpoint(op.NewEndpoint(pathIntro)),
		op.WithCustomUserinfoEndpoint(op.NewEndpoint(pathUserinfo)),
		op.WithCustomRevocationEndpoint(op.NewEndpoint(pathRevoke)),
		op.WithCustomEndSessionEndpoint(op.NewEndpoint(pathEnd)),
		op.WithCustomKeysEndpoint(op.NewEndpoint(pathKeys)),
		op.WithCustomDeviceAuthorizationEndpoint(op.NewEndpoint(pathDevice)),
		op.WithCrypto(tokenCrypto{}),
		// Browser apps (public clients) call the token, userinfo and
		// revocation endpoints from their own origin, but never with the
		// portal's cookies: a page elsewhere must not read answers made
		// with the person's portal session.
		op.WithCORSOptions(&cors.Options{
			AllowOriginFunc:  func(string) bool { return true },
			AllowCredentials: false,
			AllowedHeaders:   []string{"Accept", "Accept-Language", "Authorization", "Content-Type"},
			AllowedMethods:   []string{http.MethodGet, http.MethodHead, http.MethodPost},
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("build the OpenID provider: %w", err)
	}
	s.op = p
	s.store.terminate = s.terminate
	if d.Bus != nil {
		d.Bus.Subscribe(func(e change.Event) {
			switch e.Entity {
			case ClientEntity, change.All:
				s.clients.drop()
			}
			if e.Entity == keyEntity || e.Entity == change.All {
				go s.reloadKeys(context.Background())
			}
		})
	}
	return s, nil
}

func (s *Service) issuer(ctx context.Context) string {
	if s.d.PortalURL == nil {
		return ""
	}
	return strings.TrimSuffix(s.d.PortalURL(ctx), "/")
}

// Start makes the first signing keys if there are none, and loads them.
func (s *Service) Start(ctx context.Context) error { return s.keys.ensure(ctx) }

func (s *Service) reloadKeys(ctx context.Context) {
	if err := s.keys.reload(ctx); err != nil {
		s.log.Warn("reload the OpenID provider's signing keys", "error", err)
		return
	}
	s.docMu.Lock()
	s.docs = map[string]cachedDoc{}
	s.docMu.Unlock()
}

// Loops returns what every replica runs: it reloads the published keys each minute (a new key
// is published an hour before it signs, so every replica knows it first).
func (s *Service) Loops() []background.Loop {
	return []background.Loop{background.Every("oidc provider keys", time.Minute, s.reloadKeys)}
}

// LeaderLoops returns what one replica runs for all: it rotates the keys and prunes what expired.
func (s *Service) LeaderLoops() []background.Loop {
	return []background.Loop{background.Every("oidc provider rotation and prune", 10*time.Minute, func(ctx context.Context) {
		if err := s.Rotate(ctx); err != nil {
			s.log.Warn("rotate the OpenID provider's signing keys", "error", err)
		}
		if err := s.prune(ctx); err != nil {
			s.log.Warn("prune the OpenID provider's state", "error", err)
		}
	})}
}

// Rotate publishes new keys when due and tells every replica.
func (s *Service) Rotate(ctx context.Context) error {
	changed, err := s.keys.rotate(ctx)
	if err != nil {
		return err
	}
	if changed {
		s.reloadKeys(ctx)
		if s.d.Bus != nil {
			s.d.Bus.Publish(change.Event{Entity: keyEntity, Kind: change.Updated})
		}
	}
	return nil
}

func (s *Service) prune(ctx context.Context) error {
	now := s.d.Now()
	db := s.d.DB.WithContext(ctx)
	for _, q := range []struct {
		model any
		where string
	}{
		{&authRequest{}, "expires_at < ?"},
		{&token{}, "expires_at < ?"},
		{&deviceRow{}, "expires_at < ?"},
	} {
		if err := db.Where(q.where, now.Add(-usedRequestKept)).Delete(q.model).Error; err != nil {
			return err
		}
	}
	return nil
}

type requestKey struct{}

// ServeHTTP answers the protocol endpoints (/oidc/*, discovery) on the
// portal's host, and nothing elsewhere.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if s.issuer(ctx) == "" || s.d.PortalHost == nil || !route.IsPortalHost(r.Host, s.d.PortalHost(ctx)) {
		http.NotFound(w, r)
		return
	}
	if len(r.URL.RawQuery) > 8192 {
		http.Error(w, "query too long", http.StatusRequestURITooLong)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	ctx = context.WithValue(route.WithPortal(ctx), requestKey{}, r)
	r = r.WithContext(ctx)
	switch r.URL.Path {
	case DiscoveryPath:
		s.serveCached(w, r, s.discovery(ctx))
		return
	case pathKeys:
		body, etag := s.keys.document()
		s.serveCached(w, r, cachedDoc{body: body, etag: etag})
		return
	case pathLogin:
		s.login(w, r)
		return
	case pathToken:
		if id := tokenClientID(r); id != "" {
			r = r.WithContext(context.WithValue(ctx, clientKey{}, id))
		}
	}
	s.op.ServeHTTP(w, r)
}

// tokenClientID reads the client a token request names, for the signing
// key; the op package authenticates it.
func tokenClientID(r *http.Request) string {
	if id, _, ok := r.BasicAuth(); ok {
		return id
	}
	if err := r.ParseForm(); err != nil {
		return ""
	}
	return r.PostForm.Get("client_id")
}

// discovery is the issuer's document, built once per issuer and key set.
func (s *Service) discovery(ctx context.Context) cachedDoc {
	iss := s.issuer(ctx)
	s.docMu.RLock()
	d, ok := s.docs[iss]
	s.docMu.RUnlock()
	if ok {
		return d
	}
	cfg := op.CreateDiscoveryConfig(op.ContextWithIssuer(ctx, iss), s.op, s.store)
	cfg.CodeChallengeMethodsSupported = []oidc.CodeChallengeMethod{oidc.CodeChallengeMethodS256}
	cfg.ResponseModesSupported = []string{string(oidc.ResponseModeQuery)}
	cfg.ACRValuesSupported = acrSupported
	body, err := json.Marshal(cfg)
	if err != nil {
		return cachedDoc{}
	}
	sum := sha256.Sum256(body)
	d = cachedDoc{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	s.docMu.Lock()
	if len(s.docs) < 16 {
		s.docs[iss] = d
	}
	s.docMu.Unlock()
	return d
}

// serveCached answers a document from memory, with its ETag.
func (s *Service) serveCached(w http.ResponseWriter, r *http.Request, d cachedDoc) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if d.body == nil {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	h := w.Header()
	h.Set("ETag", d.etag)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, d.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(d.body)
}
