//go:build bench

package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/provider"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const (
	oidcRedirect = "https://app.bench.test/callback" //nolint:gosec // G101: a URL, not a credential
	oidcSecret   = "bench-secret-bench-secret-bench-secret"
)

// oidcBenchPortal signs in one person for every request carrying its cookie.
type oidcBenchPortal struct{ personID string }

func (p oidcBenchPortal) PortalSignIn(_ context.Context, r *http.Request) (provider.Session, bool, error) {
	ck, err := r.Cookie("bench")
	if errors.Is(err, http.ErrNoCookie) || ck.Value != "1" {
		return provider.Session{}, false, nil
	}
	if err != nil {
		return provider.Session{}, false, err
	}
	return provider.Session{PersonID: p.personID, SessionID: "bench", ProvedAt: time.Now()}, true, nil
}

func (oidcBenchPortal) HasSecondFactor(context.Context, string) (bool, error) { return false, nil }

type oidcPanel struct {
	url     string
	queries *atomic.Int64
}

// startOIDCPanel is the provider behind the API's Echo stack (as app.go
// mounts it) on a SQLite file whose queries are counted, with one person
// and one confidential client.
func startOIDCPanel(ctx context.Context, t *testing.T) *oidcPanel {
	t.Helper()
	db, bus := benchStore(ctx, t)
	var queries atomic.Int64
	count := func(*gorm.DB) { queries.Add(1) }
	cb := db.Callback()
	_ = cb.Query().Before("gorm:query").Register("bench:count", count)
	_ = cb.Create().Before("gorm:create").Register("bench:count", count)
	_ = cb.Update().Before("gorm:update").Register("bench:count", count)
	_ = cb.Delete().Before("gorm:delete").Register("bench:count", count)
	_ = cb.Row().Before("gorm:row").Register("bench:count", count)
	_ = cb.Raw().Before("gorm:raw").Register("bench:count", count)
	now := store.Now()
	person := store.Person{ID: store.NewID(), Username: "alice", PanelRole: store.PanelRoleNone, Email: "alice@bench.test", CreatedAt: now, UpdatedAt: now}
	if err := db.Create(&person).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Create(&store.OIDCClient{ID: "app", Name: "App", SecretHash: provider.SecretHash(oidcSecret),
		RedirectURIs: store.NewJSON([]string{oidcRedirect}), GrantTypes: store.NewJSON([]string{"authorization_code", "refresh_token"}),
		SigningAlg: "RS256", ImpliedConsent: true, CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	var base string
	svc, err := provider.NewService(provider.Deps{DB: db, Bus: bus, Secrets: box, Portal: oidcBenchPortal{person.ID},
		PortalURL: func(context.Context) string { return base }, PortalHost: func(context.Context) string { return "127.0.0.1" }})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	srv := httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		OIDC:          svc,
	})
	base = serve(t, srv)
	return &oidcPanel{url: base, queries: &queries}
}

// code runs one authorization request through sign-in and returns its
// code and PKCE verifier.
func (p *oidcPanel) code(t *testing.T, c *http.Client, offline bool) (string, string) {
	verifier := oauth2.GenerateVerifier()
	scope := "openid profile email"
	if offline {
		scope += " offline_access"
	}
	q := url.Values{"client_id": {"app"}, "redirect_uri": {oidcRedirect}, "response_type": {"code"}, "scope": {scope},
		"state": {"s"}, "nonce": {"n"}, "code_challenge": {oauth2.S256ChallengeFromVerifier(verifier)}, "code_challenge_method": {"S256"}}
	u := p.url + "/oidc/authorize?" + q.Encode()
	for range 4 {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Cookie", "bench=1")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		loc, err := resp.Request.URL.Parse(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || err != nil {
			t.Fatalf("GET %s = %d", u, resp.StatusCode)
		}
		if loc.Host == "app.bench.test" {
			return loc.Query().Get("code"), verifier
		}
		u = loc.String()
	}
	t.Fatal("no code after four hops")
	return "", ""
}

type tokenAnswer struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	IDToken      string `json:"id_token"`
}

func (p *oidcPanel) token(c *http.Client, form url.Values) (tokenAnswer, error) {
	req, _ := http.NewRequest(http.MethodPost, p.url+"/oidc/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("app", oidcSecret)
	resp, err := c.Do(req)
	if err != nil {
		return tokenAnswer{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	var out tokenAnswer
	if resp.StatusCode != http.StatusOK {
		return out, fmt.Errorf("token endpoint answered %d", resp.StatusCode)
	}
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// loadResult is a closed-loop load's throughput and p99.
type loadResult struct {
	rps float64
	p99 time.Duration
	n   int
}

// load runs op on conns workers until d passes (or op says stop) and
// reports throughput and the p99 latency.
func load(t *testing.T, conns int, d time.Duration, op func(worker int) (bool, error)) loadResult {
	t.Helper()
	var mu sync.Mutex
	var lat []time.Duration
	var failed atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 1024)
			for time.Now().Before(deadline) {
				s := time.Now()
				more, err := op(w)
				if err != nil {
					failed.Store(err)
					break
				}
				mine = append(mine, time.Since(s))
				if !more {
					break
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	if len(lat) == 0 {
		t.Fatal("no request completed")
	}
	return loadResult{rps: float64(len(lat)) / wall.Seconds(), p99: quantile(lat, 0.99), n: len(lat)}
}

func client(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestBenchOIDCProvider measures the provider's token endpoint over HTTP
// (the API's Echo stack, SQLite): the authorization code exchange (PKCE,
// client secret, an access token stored, an RS256 ID token signed) and a
// refresh (rotation: the old refresh token marked used, a new access and
// refresh token stored, an ID token signed), at 8 and 64 connections,
// against the RS256 signature of an ID token alone on as many goroutines
// in the same run; then discovery and the JWKS with wrk, which must be
// served from memory (0 database queries) with ETags.
func TestBenchOIDCProvider(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := startOIDCPanel(ctx, t)
	const d = 3 * time.Second
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "k"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	claims, _ := json.Marshal(map[string]any{"iss": p.url, "sub": store.NewID(), "aud": []string{"app"}, "exp": time.Now().Add(time.Hour).Unix(),
		"iat": time.Now().Unix(), "nonce": "n", "at_hash": "x", "preferred_username": "alice", "email": "alice@bench.test", "name": "Alice"})
	fmt.Printf("\nOpenID provider: the token endpoint over HTTP (SQLite), %s closed-loop runs, against\n", d)
	fmt.Printf("the RS256 signature of an ID token alone on as many goroutines\n")
	fmt.Printf("%-24s %6s  %10s  %10s  %12s  %10s\n", "operation", "conns", "req/s", "p99", "sign-only/s", "sign p99")
	for _, conns := range []int{8, 64} {
		base := load(t, conns, d, func(int) (bool, error) {
			obj, err := signer.Sign(claims)
			if err == nil {
				_, err = obj.CompactSerialize()
			}
			return true, err
		})
		c := client(conns)
		// Codes made beforehand: an exchange uses one each.
		need := int(base.rps*d.Seconds()/4) + conns*8
		type pair struct{ code, verifier string }
		codes := make(chan pair, need)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range need / 8 {
					code, v := p.code(t, c, false)
					codes <- pair{code, v}
				}
			}()
		}
		wg.Wait()
		close(codes)
		exchange := load(t, conns, d, func(int) (bool, error) {
			pc, ok := <-codes
			if !ok {
				return false, nil
			}
			_, err := p.token(c, url.Values{"grant_type": {"authorization_code"}, "code": {pc.code}, "redirect_uri": {oidcRedirect}, "code_verifier": {pc.verifier}})
			return true, err
		})
		refresh := make([]string, conns)
		for i := range refresh {
			code, v := p.code(t, c, true)
			tok, err := p.token(c, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {oidcRedirect}, "code_verifier": {v}})
			if err != nil {
				t.Fatal(err)
			}
			refresh[i] = tok.RefreshToken
		}
		refreshed := load(t, conns, d, func(w int) (bool, error) {
			tok, err := p.token(c, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh[w]}})
			refresh[w] = tok.RefreshToken
			return true, err
		})
		fmt.Printf("%-24s %6d  %10.0f  %10s  %12.0f  %10s\n", "code exchange", conns, exchange.rps, ms3(exchange.p99), base.rps, ms3(base.p99))
		fmt.Printf("%-24s %6d  %10.0f  %10s  %12.0f  %10s\n", "refresh (rotation)", conns, refreshed.rps, ms3(refreshed.p99), base.rps, ms3(base.p99))
	}
	fmt.Printf("\n%-36s %6s  %10s  %10s  %8s  %s\n", "document (wrk)", "conns", "req/s", "p99", "queries", "ETag / 304")
	for _, path := range []string{"/.well-known/openid-configuration", "/oidc/keys"} {
		resp, err := http.Get(p.url + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		etag := resp.Header.Get("ETag")
		req, _ := http.NewRequest(http.MethodGet, p.url+path, nil)
		req.Header.Set("If-None-Match", etag)
		again, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = again.Body.Close()
		for _, conns := range []int{8, 64} {
			before := p.queries.Load()
			r := wrk(t, p.url+path, conns, nil)
			fmt.Printf("%-36s %6d  %10.0f  %10s  %8d  %s / %d\n", path, conns, r.rps, ms3(r.p99), p.queries.Load()-before, etag, again.StatusCode)
		}
	}
	fmt.Println("goals: the token endpoint within a small factor of the signature alone (it stores tokens and signs once);")
	fmt.Println("discovery and JWKS 0 queries, an ETag and 304 for a matching If-None-Match")
}
