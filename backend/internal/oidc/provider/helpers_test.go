package provider

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const (
	appRedirect  = "https://app.example.com/oauth/callback"
	appSecret    = "app-secret-0123456789-abcdefghijklmnop"
	portalCookie = "test_portal"
	logoutPage   = "https://app.example.com/signed-out"
)

// sessions stands in for the portal's sign-in (package admin, proved in
// internal/app): a cookie names a session of a real person.
type sessions struct {
	mu      sync.Mutex
	m       map[string]Session
	factors map[string]bool // people with a second factor
}

func (s *sessions) HasSecondFactor(_ context.Context, personID string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.factors[personID], nil
}

func (s *sessions) PortalSignIn(_ context.Context, r *http.Request) (Session, bool, error) {
	ck, err := r.Cookie(portalCookie)
	if err != nil {
		return Session{}, false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.m[ck.Value]
	return sess, ok, nil
}

func (s *sessions) end(_ context.Context, _, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if v.SessionID == id {
			delete(s.m, k)
		}
	}
	return nil
}

// env is a provider on a real database behind a real Echo server.
type env struct {
	t        testing.TB
	db       *gorm.DB
	svc      *Service
	srv      *httptest.Server
	issuer   string
	portal   *sessions
	database string
	box      *sealbox.Box
}

func newEnv(t testing.TB, opts ...func(*Deps)) *env {
	t.Helper()
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	return newReplica(t, testutil.NewDatabase(t), box, &sessions{m: map[string]Session{}}, opts...)
}

// newReplica is another panel on the same database (and age identity).
func newReplica(t testing.TB, database string, box *sealbox.Box, portal *sessions, opts ...func(*Deps)) *env {
	t.Helper()
	db := testutil.OpenDB(t, database)
	e := &env{t: t, db: db, portal: portal, database: database, box: box}
	ec := echo.New()
	ec.Validator = httpx.NewValidator()
	ec.HTTPErrorHandler = func(err error, c echo.Context) {
		ae, _ := httpx.AppError(err)
		_ = httpx.WriteError(c, ae, "")
	}
	e.srv = httptest.NewServer(ec)
	t.Cleanup(e.srv.Close)
	e.issuer = e.srv.URL
	// Ending a portal session tells the provider, as package admin does.
	endSession := func(ctx context.Context, personID, id string) error {
		_ = e.portal.end(ctx, personID, id)
		return e.svc.EndPortalSessions(ctx, id)
	}
	d := Deps{DB: db, Secrets: box, Portal: e.portal, EndPortalSession: endSession, DevicePoll: time.Second,
		PortalURL:  func(context.Context) string { return e.issuer },
		PortalHost: func(context.Context) string { return "127.0.0.1" }}
	for _, o := range opts {
		o(&d)
	}
	svc, err := NewService(d)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	Mount(ec, svc)
	NewHandler(svc).Register(route.NewRegistrar(ec.Group("/api"), route.NewTable()))
	ec.Any("/login", func(c echo.Context) error { return c.String(http.StatusOK, "sign-in page") })
	ec.Any("/apps/*", func(c echo.Context) error { return c.String(http.StatusOK, "portal page") })
	return e
}

// Mount is how the tests mount the protocol endpoints (package httpapi
// does the same in the panel).
func Mount(e *echo.Echo, h http.Handler) {
	e.Any(DiscoveryPath, echo.WrapHandler(h))
	e.Any(PathPrefix+"*", echo.WrapHandler(h))
}

func (e *env) person(name string, groups ...string) store.Person {
	e.t.Helper()
	now := store.Now()
	p := store.Person{ID: store.NewID(), Username: name, PanelRole: store.PanelRoleNone, Email: name + "@example.com",
		DisplayName: strings.ToUpper(name[:1]) + name[1:], CreatedAt: now, UpdatedAt: now}
	if err := e.db.Create(&p).Error; err != nil {
		e.t.Fatal(err)
	}
	for _, g := range groups {
		var row store.Group
		if err := e.db.Where("name = ?", g).Take(&row).Error; err != nil {
			row = store.Group{ID: store.NewID(), Name: g, CreatedAt: now, UpdatedAt: now}
			if err := e.db.Create(&row).Error; err != nil {
				e.t.Fatal(err)
			}
		}
		if err := e.db.Create(&store.GroupMember{GroupID: row.ID, PersonID: p.ID, CreatedAt: now}).Error; err != nil {
			e.t.Fatal(err)
		}
	}
	return p
}

func (e *env) groupID(name string) string {
	var row store.Group
	if err := e.db.Where("name = ?", name).Take(&row).Error; err != nil {
		e.t.Fatal(err)
	}
	return row.ID
}

// client stores a confidential client (public: no secret, PKCE).
func (e *env) client(id string, edit ...func(*store.OIDCClient)) store.OIDCClient {
	e.t.Helper()
	now := store.Now()
	c := store.OIDCClient{ID: id, Name: "App " + id, SecretHash: SecretHash(appSecret),
		RedirectURIs:           store.NewJSON([]string{appRedirect}),
		PostLogoutRedirectURIs: store.NewJSON([]string{logoutPage}),
		AllowedGroups:          store.NewJSON([]string{}), Scopes: store.NewJSON([]string{}),
		GrantTypes: store.NewJSON([]string{"authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"}),
		SigningAlg: "RS256", ClaimMappings: store.NewJSON([]store.OIDCClaimMapping{}), ImpliedConsent: true,
		AccessTokenTTLSeconds: 3600, IDTokenTTLSeconds: 3600, RefreshTokenTTLSeconds: 86400, CreatedAt: now, UpdatedAt: now}
	for _, f := range edit {
		f(&c)
	}
	if c.Public {
		c.SecretHash = ""
	}
	if err := e.db.Create(&c).Error; err != nil {
		e.t.Fatal(err)
	}
	e.svc.clients.drop()
	return c
}

// signIn opens a portal session for p and returns a browser carrying it.
func (e *env) signIn(p store.Person) *browser {
	e.t.Helper()
	key := store.NewID()
	e.portal.mu.Lock()
	e.portal.m[key] = Session{PersonID: p.ID, SessionID: "sess-" + key, ProvedAt: time.Now().UTC()}
	e.portal.mu.Unlock()
	b := e.browser()
	u, _ := url.Parse(e.issuer)
	b.jar.SetCookies(u, []*http.Cookie{{Name: portalCookie, Value: key, Path: "/"}}) //nolint:gosec // a test cookie over plain HTTP
	return b
}

// browser follows redirects on the portal and stops at the app.
type browser struct {
	jar    *cookiejar.Jar
	client *http.Client
	last   *url.URL
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	b := &browser{jar: jar}
	b.client = &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		b.last = req.URL
		if req.URL.Host != strings.TrimPrefix(e.issuer, "http://") {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	return b
}

// visit opens u and returns where the browser ended: the app's URL it was
// sent to, or the portal page it stopped on.
func (b *browser) visit(t testing.TB, u string) *url.URL {
	t.Helper()
	b.last = nil
	resp, err := b.client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode/100 == 3 {
		out, err := resp.Request.URL.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return resp.Request.URL
}

// rp is a relying party: go-oidc and x/oauth2.
type rp struct {
	provider *gooidc.Provider
	cfg      oauth2.Config
	verifier *gooidc.IDTokenVerifier
}

func (e *env) rp(clientID string, public bool, scopes ...string) *rp {
	e.t.Helper()
	ctx := e.ctx()
	p, err := gooidc.NewProvider(ctx, e.issuer)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(scopes) == 0 {
		scopes = []string{gooidc.ScopeOpenID, "profile", "email", "groups", gooidc.ScopeOfflineAccess}
	}
	cfg := oauth2.Config{ClientID: clientID, Endpoint: p.Endpoint(), RedirectURL: appRedirect, Scopes: scopes}
	if !public {
		cfg.ClientSecret = appSecret
	}
	return &rp{provider: p, cfg: cfg, verifier: p.Verifier(&gooidc.Config{ClientID: clientID})}
}

func (e *env) ctx() context.Context {
	return context.Background()
}

func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// authorize runs the browser through the authorization request and
// returns the code (or fails with where it stopped).
func (e *env) authorize(b *browser, authURL string) (code string, at *url.URL) {
	e.t.Helper()
	at = b.visit(e.t, authURL)
	if at.Host != "app.example.com" {
		return "", at
	}
	return at.Query().Get("code"), at
}

// api calls the portal API as the browser b.
func (e *env) api(b *browser, method, path, body string) (int, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.issuer+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// tokens runs a whole code flow for p with r and returns the tokens.
func (e *env) tokens(r *rp, b *browser, nonce string) *oauth2.Token {
	e.t.Helper()
	verifier, _ := pkce()
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}
	if nonce != "" {
		opts = append(opts, gooidc.Nonce(nonce))
	}
	code, at := e.authorize(b, r.cfg.AuthCodeURL("st", opts...))
	if code == "" {
		e.t.Fatalf("no code: ended at %s", at)
	}
	tok, err := r.cfg.Exchange(e.ctx(), code, oauth2.VerifierOption(verifier))
	if err != nil {
		e.t.Fatalf("exchange: %v", err)
	}
	return tok
}

// userinfo calls the userinfo endpoint with an access token.
func (e *env) userinfo(access string) int {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.issuer+"/oidc/userinfo", nil)
	req.Header.Set("Authorization", "Bearer "+access)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// introspect asks whether access is active, as the confidential client id.
func (e *env) introspect(id, access string) bool {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.issuer+"/oidc/introspect", strings.NewReader(url.Values{"token": {access}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, appSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out struct {
		Active bool `json:"active"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatalf("introspection answered %d: %v", resp.StatusCode, err)
	}
	return out.Active
}
