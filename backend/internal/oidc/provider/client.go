package provider

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Scopes the provider knows; a client asks for a subset of them.
var knownScopes = []string{oidc.ScopeOpenID, oidc.ScopeProfile, oidc.ScopeEmail, scopeGroups, oidc.ScopeOfflineAccess}

const scopeGroups = "groups"

// errUnknownClient is a plain error: the op package answers invalid_client.
var errUnknownClient = errors.New("unknown or disabled client")

// client adapts a store.OIDCClient to op.Client.
type client struct {
	c store.OIDCClient
	// loginURL is where an authorization request goes for sign-in.
	loginURL func(id string) string
}

func (c *client) GetID() string                    { return c.c.ID }
func (c *client) RedirectURIs() []string           { return c.c.RedirectURIs.V }
func (c *client) PostLogoutRedirectURIs() []string { return c.c.PostLogoutRedirectURIs.V }

// ApplicationType: web for a confidential client, user agent for a public
// one. Never native: the op package lets a native client's loopback
// redirect URI differ by port, and redirect URIs match exactly here.
func (c *client) ApplicationType() op.ApplicationType {
	if c.c.Public {
		return op.ApplicationTypeUserAgent
	}
	return op.ApplicationTypeWeb
}

func (c *client) AuthMethod() oidc.AuthMethod {
	if c.c.Public {
		return oidc.AuthMethodNone
	}
	return oidc.AuthMethodBasic
}

func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}

func (c *client) GrantTypes() []oidc.GrantType {
	out := make([]oidc.GrantType, 0, len(c.c.GrantTypes.V))
	for _, g := range c.c.GrantTypes.V {
		out = append(out, oidc.GrantType(g))
	}
	if len(out) == 0 {
		out = append(out, oidc.GrantTypeCode)
	}
	return out
}

func (c *client) LoginURL(id string) string           { return c.loginURL(id) }
func (c *client) AccessTokenType() op.AccessTokenType { return op.AccessTokenTypeBearer }
func (c *client) IDTokenLifetime() time.Duration      { return ttl(c.c.IDTokenTTLSeconds, time.Hour) }
func (c *client) DevMode() bool                       { return false }

//nolint:revive // the op package names this method
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

// IsScopeAllowed admits the groups scope when the client may ask for it;
// the standard scopes are filtered in CreateAuthRequest.
func (c *client) IsScopeAllowed(scope string) bool { return c.allows(scope) }

// allows reports whether the client may ask for scope: one of its scopes,
// or, when it lists none, any scope the provider knows.
func (c *client) allows(scope string) bool {
	if !slices.Contains(knownScopes, scope) {
		return false
	}
	return len(c.c.Scopes.V) == 0 || slices.Contains(c.c.Scopes.V, scope)
}

// IDTokenUserinfoClaimsAssertion puts the profile claims in the ID token
// too: many apps (Grafana, Immich) read them only there.
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }

func ttl(seconds int, def time.Duration) time.Duration {
	if seconds <= 0 {
		return def
	}
	return time.Duration(seconds) * time.Second
}

// clients caches the clients' rows; a change event of kind oidc_client
// drops the cache (the admin API publishes one on every write).
type clients struct {
	db *gorm.DB
	mu sync.RWMutex
	m  map[string]store.OIDCClient
}

func (cs *clients) drop() {
	cs.mu.Lock()
	cs.m = nil
	cs.mu.Unlock()
}

// get returns the enabled client id.
func (cs *clients) get(ctx context.Context, id string) (store.OIDCClient, error) {
	if id == "" || len(id) > 256 {
		return store.OIDCClient{}, errUnknownClient
	}
	cs.mu.RLock()
	c, ok := cs.m[id]
	loaded := cs.m != nil
	cs.mu.RUnlock()
	if !loaded {
		var rows []store.OIDCClient
		if err := cs.db.WithContext(ctx).Find(&rows).Error; err != nil {
			return store.OIDCClient{}, oidc.ErrServerError().WithParent(err)
		}
		m := make(map[string]store.OIDCClient, len(rows))
		for _, r := range rows {
			m[r.ID] = r
		}
		cs.mu.Lock()
		cs.m = m
		cs.mu.Unlock()
		c, ok = m[id]
	}
	if !ok || c.DisabledAt != nil {
		return store.OIDCClient{}, errUnknownClient
	}
	return c, nil
}

// SecretHash is how a confidential client's secret is stored (package
// oidc/clients makes and checks it): hex SHA-256.
func SecretHash(secret string) string { return bearer.Hash(secret) }
