// Package oidc is Gatehouse's OpenID Connect. Today it is the relying
// party the panel uses to sign visitors in to services and administrators
// in to the panel: discovery of the provider, the authorization request
// (state, nonce, PKCE S256), the code redemption with the ID token and
// nonce checks, the claims, and the sealed cookie that carries a sign-in in
// progress. The settings (issuer, client, scopes) belong to forward-auth,
// which stores them; this package only uses them.
package oidc

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// ErrNotConfigured is returned while the OpenID provider is not configured
// or single sign-on is switched off.
var ErrNotConfigured = errors.New("single sign-on is not configured")

// Settings are the relying party's registration at the provider.
type Settings struct {
	Issuer, ClientID, ClientSecret string
	Scopes                         []string
	// GroupsClaim names the claim that lists the person's groups.
	GroupsClaim string
}

// Client discovers providers and runs sign-ins with them. It keeps the last
// discovered provider in memory: each replica discovers it once.
type Client struct {
	http *http.Client

	mu     sync.Mutex
	issuer string
	prov   *oidc.Provider
}

// NewClient returns a client that reaches providers with hc.
func NewClient(hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{http: hc}
}

// Forget drops the discovered provider: the settings changed.
func (c *Client) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prov, c.issuer = nil, ""
}

// provider returns the discovered provider for issuer, discovering it once.
func (c *Client) provider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prov != nil && c.issuer == issuer {
		return c.prov, nil
	}
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return nil, fmt.Errorf("discover OpenID provider %q: %w", issuer, err)
	}
	c.prov, c.issuer = p, issuer
	return p, nil
}

// Flow discovers s.Issuer (once) and returns a sign-in flow whose redirect
// URL is redirectURL.
func (c *Client) Flow(ctx context.Context, s Settings, redirectURL string) (*Flow, error) {
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, c.http), 10*time.Second)
	defer cancel()
	prov, err := c.provider(dctx, s.Issuer)
	if err != nil {
		return nil, err
	}
	return &Flow{c: c, prov: prov, groupsClaim: s.GroupsClaim, oc: &oauth2.Config{
		ClientID: s.ClientID, ClientSecret: s.ClientSecret, Endpoint: prov.Endpoint(),
		RedirectURL: redirectURL, Scopes: s.Scopes,
	}}, nil
}

// CheckTimeout bounds Check: an administrator saving the settings waits for it.
const CheckTimeout = 5 * time.Second

// Check reads issuer's /.well-known/openid-configuration (go-oidc also
// checks that the document names the same issuer), so a switched-on
// provider that no one can sign in with is refused when saved rather than
// at the first sign-in. The issuer is a URL an administrator typed,
// possibly an internal one: the error says what went wrong (a status code,
// a generic reason) and never what the server answered.
func (c *Client) Check(ctx context.Context, issuer string) error {
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, c.http), CheckTimeout)
	defer cancel()
	wellKnown := strings.TrimSuffix(issuer, "/") + "/.well-known/openid-configuration"
	req, err := http.NewRequestWithContext(dctx, http.MethodGet, wellKnown, nil)
	if err != nil {
		return errors.New("the issuer is not a usable URL")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return errors.New(httpx.FetchFailure(err))
	}
	_ = resp.Body.Close() // only the status is used; go-oidc reads the document below
	if resp.StatusCode != http.StatusOK {
		return httpx.StatusError{Code: resp.StatusCode}
	}
	if _, err := oidc.NewProvider(dctx, issuer); err != nil {
		switch {
		case strings.Contains(err.Error(), "did not match the issuer"):
			return errors.New("the document names another issuer (check the trailing slash)")
		case errors.Is(err, context.DeadlineExceeded), errors.Is(dctx.Err(), context.DeadlineExceeded):
			return fmt.Errorf("no answer within %s", CheckTimeout)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			return errors.New(httpx.FetchFailure(err))
		}
		return errors.New("the answer is not an OpenID discovery document")
	}
	return nil
}

// Flow is one relying party set up for one callback.
type Flow struct {
	c           *Client
	oc          *oauth2.Config
	prov        *oidc.Provider
	groupsClaim string
}

// AuthCodeURL is where to send the browser: the authorization request with
// state, nonce and the PKCE challenge of verifier (oauth2.GenerateVerifier).
func (f *Flow) AuthCodeURL(state, nonce, verifier string) string {
	return f.oc.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
}

// Redeem exchanges the code with the PKCE verifier, verifies the ID token
// (signature, issuer, audience, expiry) and its nonce, and reads the claims,
// completed from the userinfo answer when the ID token has no groups.
func (f *Flow) Redeem(ctx context.Context, code, verifier, nonce string) (Identity, error) {
	if code == "" {
		return Identity{}, errors.New("no code in the callback")
	}
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, f.c.http), 15*time.Second)
	defer cancel()
	tok, err := f.oc.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("exchange code: %w", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, errors.New("the provider returned no ID token")
	}
	idt, err := f.prov.Verifier(&oidc.Config{ClientID: f.oc.ClientID}).Verify(ctx, raw)
	if err != nil {
		return Identity{}, fmt.Errorf("verify ID token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return Identity{}, errors.New("ID token nonce does not match")
	}
	claims := map[string]any{}
	if err := idt.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("read ID token claims: %w", err)
	}
	if _, ok := claims[f.groupsClaim]; !ok && f.prov.UserInfoEndpoint() != "" {
		// Many providers put groups only in the userinfo answer.
		if ui, err := f.prov.UserInfo(ctx, oauth2.StaticTokenSource(tok)); err == nil {
			extra := map[string]any{}
			if ui.Claims(&extra) == nil && (ui.Subject == "" || ui.Subject == idt.Subject) {
				for k, v := range extra {
					if _, ok := claims[k]; !ok {
						claims[k] = v
					}
				}
			}
		}
	}
	return identityOf(idt.Issuer, idt.Subject, claims, f.groupsClaim), nil
}
