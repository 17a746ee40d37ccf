package forwardauth

import (
	"context"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// OIDCClient is the OpenID provider configured for services, set up for
// another of the panel's sign-in flows (administrators signing in to the
// panel), so the provider's settings, discovery and token checks live here
// once.
type OIDCClient struct {
	s    *Service
	oc   *oauth2.Config
	prov *oidc.Provider
}

// Identity is who the provider says signed in.
type Identity struct {
	Issuer, Subject string
	// Username is the preferred_username claim as sent (maybe empty).
	Username string
	Email    string
	// EmailVerified: the email_verified claim is present and true.
	EmailVerified bool
	Name          string
	Groups        []string // from the provider document's groups claim
}

// OIDCClient discovers the provider and returns a client whose redirect URL
// is the panel's public URL + callbackPath. It returns ErrSSOOff while the
// provider is not configured or the panel's public URL is unknown.
func (s *Service) OIDCClient(ctx context.Context, callbackPath string) (*OIDCClient, error) {
	panel, err := s.panelURL(ctx)
	if err != nil {
		return nil, err
	}
	oc, prov, err := s.oauthClient(ctx, strings.TrimRight(panel, "/"), callbackPath)
	if err != nil {
		return nil, err
	}
	return &OIDCClient{s: s, oc: oc, prov: prov}, nil
}

// SSOConfigured reports whether the OpenID provider is configured and
// switched on (without contacting it).
func (s *Service) SSOConfigured(ctx context.Context) (bool, error) {
	d, err := s.loadSSO(ctx)
	if err != nil {
		return false, err
	}
	return d.Enabled && d.Issuer != "" && d.ClientID != "", nil
}

// AuthCodeURL is where to send the browser: the authorization request with
// state, nonce and the PKCE challenge of verifier (oauth2.GenerateVerifier).
func (c *OIDCClient) AuthCodeURL(state, nonce, verifier string) string {
	return c.oc.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
}

// Redeem exchanges the code with the PKCE verifier, verifies the ID token
// (signature, issuer, audience, expiry) and its nonce, and reads the claims.
func (c *OIDCClient) Redeem(ctx context.Context, code, verifier, nonce string) (Identity, error) {
	id, err := c.s.redeemCode(ctx, c.oc, c.prov, code, &login{Nonce: nonce, Verifier: verifier})
	if err != nil {
		return Identity{}, err
	}
	return Identity{Issuer: id.issuer, Subject: id.subject, Username: id.preferred, Email: id.email,
		EmailVerified: id.emailVerified, Name: id.name, Groups: id.groups}, nil
}
