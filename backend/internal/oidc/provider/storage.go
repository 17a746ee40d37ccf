package provider

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	oidcclients "github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Lifetimes of what the provider keeps between requests.
const (
	authRequestTTL = 10 * time.Minute
	codeTTL        = time.Minute
	// usedRequestKept: an exchanged code's request stays this long after
	// it expires, so a second use is recognised and revokes what it gave.
	usedRequestKept = time.Hour
	maxParam        = 1024
)

var (
	errNotFound    = errors.New("not found")
	errCodeReused  = errors.New("authorization code used twice: the tokens it gave are revoked")
	errRefreshUsed = errors.New("refresh token used twice: its whole family is revoked")
	errInactive    = errors.New("the person or the client is no longer active")
)

// storage is op.Storage in the panel's database.
type storage struct {
	db        *gorm.DB
	now       func() time.Time
	clients   *clients
	keys      *keyring
	people    *directory
	loginURL  func(id string) string
	poll      time.Duration // how often a device may poll at first
	terminate func(ctx context.Context, req *op.EndSessionRequest) (string, error)
}

var (
	_ op.Storage                        = (*storage)(nil)
	_ op.DeviceAuthorizationStorage     = (*storage)(nil)
	_ op.CanSetUserinfoFromRequest      = (*storage)(nil)
	_ op.CanTerminateSessionFromRequest = (*storage)(nil)
)

func (s *storage) Health(ctx context.Context) error { return store.Ping(ctx, s.db) }

func (s *storage) client(ctx context.Context, id string) (*client, error) {
	c, err := s.clients.get(ctx, id)
	if err != nil {
		return nil, err
	}
	return &client{c: c, loginURL: s.loginURL}, nil
}

// GetClientByClientID answers an enabled client.
func (s *storage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	return s.client(ctx, id)
}

// AuthorizeClientIDSecret checks a confidential client's secret.
func (s *storage) AuthorizeClientIDSecret(ctx context.Context, id, secret string) error {
	c, err := s.clients.get(ctx, id)
	if err != nil {
		return err
	}
	if c.Public || !oidcclients.VerifySecret(c.SecretHash, secret) {
		return errors.New("wrong client secret")
	}
	return nil
}

// CreateAuthRequest stores a validated authorization request, after the
// checks the op package leaves to the provider: PKCE with S256 only
// (required of public clients; plain is refused), scopes the client may
// ask for, and bounded parameters.
func (s *storage) CreateAuthRequest(ctx context.Context, req *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	c, err := s.clients.get(ctx, req.ClientID)
	if err != nil {
		return nil, err
	}
	if len(req.State) > maxParam || len(req.Nonce) > maxParam || len(req.CodeChallenge) > 128 || len(req.LoginHint) > maxParam {
		return nil, oidc.ErrInvalidRequest().WithDescription("a parameter is too long")
	}
	switch {
	case req.CodeChallenge == "" && c.Public:
		return nil, oidc.ErrInvalidRequest().WithDescription("PKCE (code_challenge with S256) is required of this client")
	case req.CodeChallenge != "" && req.CodeChallengeMethod != oidc.CodeChallengeMethodS256:
		return nil, oidc.ErrInvalidRequest().WithDescription("code_challenge_method must be S256")
	case req.CodeChallenge != "" && (len(req.CodeChallenge) != 43 || strings.ContainsFunc(req.CodeChallenge, notBase64URL)):
		return nil, oidc.ErrInvalidRequest().WithDescription("code_challenge must be a base64url SHA-256")
	}
	cl := &client{c: c}
	scopes := make([]string, 0, len(req.Scopes))
	for _, sc := range req.Scopes {
		if cl.allows(sc) && !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	if !slices.Contains(scopes, oidc.ScopeOpenID) {
		return nil, oidc.ErrInvalidScope().WithDescription("the openid scope is required")
	}
	now := s.now()
	row := authRequest{
		ID: store.NewID(), ClientID: c.ID, RedirectURI: req.RedirectURI, State: req.State, Nonce: req.Nonce,
		Scopes: store.NewJSON(scopes), ResponseType: string(req.ResponseType), ResponseMode: string(req.ResponseMode),
		CodeChallenge: req.CodeChallenge, CodeChallengeMethod: string(req.CodeChallengeMethod),
		Prompt: store.NewJSON([]string(req.Prompt)), AMR: store.NewJSON([]string{}),
		ACRValues: store.NewJSON(keptACRValues(req.ACRValues)),
		CreatedAt: now, ExpiresAt: now.Add(authRequestTTL),
	}
	if req.MaxAge != nil {
		v := int64(min(*req.MaxAge, 1<<31))
		row.MaxAge = &v
	}
	if row.Prompt.V == nil {
		row.Prompt.V = []string{}
	}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		return nil, fmt.Errorf("store authorization request: %w", err)
	}
	return &authReq{row}, nil
}

func notBase64URL(r rune) bool {
	return (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '_'
}

func (s *storage) requestByID(ctx context.Context, id string) (authRequest, error) {
	var r authRequest
	if id == "" || len(id) > 64 {
		return r, errNotFound
	}
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return r, errNotFound
	}
	if err != nil {
		return r, fmt.Errorf("read authorization request: %w", err)
	}
	if !s.now().Before(r.ExpiresAt) || r.CodeUsedAt != nil {
		return r, errNotFound
	}
	return r, nil
}

// AuthRequestByID answers a pending request.
func (s *storage) AuthRequestByID(ctx context.Context, id string) (op.AuthRequest, error) {
	r, err := s.requestByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return &authReq{r}, nil
}

// AuthRequestByCode answers the request of an unused code. A code used
// before revokes every token its first use gave (RFC 9700, 4.4.1.12).
func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	if code == "" || len(code) > 256 {
		return nil, errNotFound
	}
	var r authRequest
	err := s.db.WithContext(ctx).Where("code_hash = ?", bearer.Hash(code)).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read authorization code: %w", err)
	}
	if r.CodeUsedAt != nil {
		if err := s.revokeFromRequest(ctx, r.ID); err != nil {
			return nil, err
		}
		return nil, errCodeReused
	}
	if !s.now().Before(r.ExpiresAt) || !r.Done || r.PersonID == nil {
		return nil, errNotFound
	}
	return &authReq{r}, nil
}

// SaveAuthCode keeps the code's hash; the code lives codeTTL.
func (s *storage) SaveAuthCode(ctx context.Context, id, code string) error {
	res := s.db.WithContext(ctx).Model(&authRequest{}).Where("id = ? AND code_hash IS NULL AND done", id).
		Updates(map[string]any{"code_hash": bearer.Hash(code), "expires_at": s.now().Add(codeTTL)})
	if res.Error != nil {
		return fmt.Errorf("save authorization code: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return oidc.ErrInvalidRequest().WithDescription("authorization request already answered")
	}
	return nil
}

// DeleteAuthRequest runs once tokens are issued: the request was marked
// used when they were (useCode), and stays until it is pruned.
func (s *storage) DeleteAuthRequest(context.Context, string) error { return nil }

// useCode marks the request's code used in tx; a code used already is a
// replay: what it gave is revoked.
func (s *storage) useCode(tx *gorm.DB, id string) error {
	res := tx.Model(&authRequest{}).Where("id = ? AND code_used_at IS NULL", id).
		Updates(map[string]any{"code_used_at": s.now(), "expires_at": s.now().Add(usedRequestKept)})
	if res.Error != nil {
		return fmt.Errorf("use authorization code: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return errCodeReused
	}
	return nil
}

// revokeFromRequest revokes every token issued from the request id, and
// the families of its refresh tokens.
func (s *storage) revokeFromRequest(ctx context.Context, id string) error {
	var families []string
	if err := s.db.WithContext(ctx).Model(&token{}).Where("auth_request_id = ?", id).Distinct().Pluck("family_id", &families).Error; err != nil {
		return fmt.Errorf("find tokens of a reused code: %w", err)
	}
	return s.revokeFamilies(ctx, s.db.WithContext(ctx), families...)
}

func (s *storage) revokeFamilies(ctx context.Context, tx *gorm.DB, families ...string) error {
	if len(families) == 0 {
		return nil
	}
	if err := tx.WithContext(ctx).Model(&token{}).Where("family_id IN ? AND revoked_at IS NULL", families).
		Update("revoked_at", s.now()).Error; err != nil {
		return fmt.Errorf("revoke tokens: %w", err)
	}
	return nil
}

// grant is what a token is issued for, whatever the flow.
type grant struct {
	clientID, personID, portalSession, authRequestID, family string
	scopes, audience, amr                                    []string
	authTime                                                 time.Time
}

func (s *storage) grantOf(tx *gorm.DB, req op.TokenRequest) (grant, error) {
	switch r := req.(type) {
	case *authReq:
		if err := s.useCode(tx, r.r.ID); err != nil {
			return grant{}, err
		}
		return grant{clientID: r.r.ClientID, personID: r.GetSubject(), portalSession: r.r.PortalSessionID, authRequestID: r.r.ID,
			family: store.NewID(), scopes: r.GetScopes(), audience: r.GetAudience(), amr: r.GetAMR(), authTime: r.GetAuthTime()}, nil
	case *refreshReq:
		return grant{clientID: r.t.ClientID, personID: r.t.PersonID, portalSession: r.t.PortalSessionID, authRequestID: r.t.AuthRequestID,
			family: r.t.FamilyID, scopes: r.scopes, audience: r.t.Audience.V, amr: r.t.AMR.V, authTime: r.t.AuthTime}, nil
	case *op.DeviceAuthorizationState:
		return grant{clientID: r.ClientID, personID: r.Subject, family: store.NewID(), scopes: r.Scopes,
			audience: r.GetAudience(), amr: r.AMR, authTime: r.AuthTime}, nil
	}
	return grant{}, oidc.ErrUnsupportedGrantType()
}

// issue stores a token of kind for g and returns its secret.
func (s *storage) issue(tx *gorm.DB, g grant, kind string, life time.Duration) (string, time.Time, error) {
	secret, err := bearer.New()
	if err != nil {
		return "", time.Time{}, err
	}
	now := s.now()
	exp := now.Add(life)
	row := token{ID: store.NewID(), Kind: kind, TokenHash: bearer.Hash(secret), ClientID: g.clientID, PersonID: g.personID,
		Scopes: store.NewJSON(nonNil(g.scopes)), Audience: store.NewJSON(nonNil(g.audience)), AMR: store.NewJSON(nonNil(g.amr)),
		AuthTime: g.authTime, FamilyID: g.family, AuthRequestID: g.authRequestID, PortalSessionID: g.portalSession,
		CreatedAt: now, ExpiresAt: exp}
	if row.AuthTime.IsZero() {
		row.AuthTime = now
	}
	if err := tx.Create(&row).Error; err != nil {
		return "", time.Time{}, fmt.Errorf("store %s token: %w", kind, err)
	}
	return secret, exp, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// CreateAccessToken issues an access token (a flow without a refresh token).
func (s *storage) CreateAccessToken(ctx context.Context, req op.TokenRequest) (string, time.Time, error) {
	var id string
	var exp time.Time
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		g, err := s.grantOf(tx, req)
		if err != nil {
			return err
		}
		c, err := s.clients.get(ctx, g.clientID)
		if err != nil {
			return err
		}
		id, exp, err = s.issue(tx, g, kindAccess, ttl(c.AccessTokenTTLSeconds, time.Hour))
		return err
	})
	if errors.Is(err, errCodeReused) {
		s.revokeReplayed(ctx, req)
		return "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("%s", errCodeReused.Error())
	}
	return id, exp, err
}

// revokeReplayed revokes what a code gave when a concurrent exchange of
// the same code lost the race.
func (s *storage) revokeReplayed(ctx context.Context, req op.TokenRequest) {
	if r, ok := req.(*authReq); ok {
		_ = s.revokeFromRequest(ctx, r.r.ID)
	}
}

// CreateAccessAndRefreshTokens issues an access token and a refresh
// token. For a refresh, the presented token is marked used in the same
// transaction; a token used already revokes its whole family.
func (s *storage) CreateAccessAndRefreshTokens(ctx context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	var access, refresh string
	var exp time.Time
	reused := ""
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		g, err := s.grantOf(tx, req)
		if err != nil {
			return err
		}
		if current != "" {
			res := tx.Model(&token{}).Where("token_hash = ? AND kind = ? AND used_at IS NULL AND revoked_at IS NULL", bearer.Hash(current), kindRefresh).
				Update("used_at", s.now())
			if res.Error != nil {
				return fmt.Errorf("rotate refresh token: %w", res.Error)
			}
			if res.RowsAffected == 0 {
				reused = g.family
				return errRefreshUsed
			}
		}
		c, err := s.clients.get(ctx, g.clientID)
		if err != nil {
			return err
		}
		if access, exp, err = s.issue(tx, g, kindAccess, ttl(c.AccessTokenTTLSeconds, time.Hour)); err != nil {
			return err
		}
		refresh, _, err = s.issue(tx, g, kindRefresh, ttl(c.RefreshTokenTTLSeconds, 30*24*time.Hour))
		return err
	})
	switch {
	case errors.Is(err, errCodeReused):
		s.revokeReplayed(ctx, req)
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("%s", errCodeReused.Error())
	case errors.Is(err, errRefreshUsed):
		_ = s.revokeFamilies(ctx, s.db.WithContext(ctx), reused)
		return "", "", time.Time{}, oidc.ErrInvalidGrant().WithDescription("%s", errRefreshUsed.Error())
	}
	return access, refresh, exp, err
}

// tokenByHash reads a token that is neither revoked nor expired.
func (s *storage) tokenByHash(ctx context.Context, hash, kind string) (token, error) {
	var t token
	err := s.db.WithContext(ctx).Where("token_hash = ? AND kind = ?", hash, kind).Take(&t).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return t, errNotFound
	}
	if err != nil {
		return t, fmt.Errorf("read token: %w", err)
	}
	if t.RevokedAt != nil || !s.now().Before(t.ExpiresAt) {
		return t, errNotFound
	}
	return t, nil
}

// TokenRequestByRefreshToken answers an unused refresh token of an active
// person and client. A used one is a replay: its family is revoked.
func (s *storage) TokenRequestByRefreshToken(ctx context.Context, refresh string) (op.RefreshTokenRequest, error) {
	if refresh == "" || len(refresh) > 256 {
		return nil, errNotFound
	}
	t, err := s.tokenByHash(ctx, bearer.Hash(refresh), kindRefresh)
	if err != nil {
		return nil, err
	}
	if t.UsedAt != nil {
		if err := s.revokeFamilies(ctx, s.db.WithContext(ctx), t.FamilyID); err != nil {
			return nil, err
		}
		return nil, errRefreshUsed
	}
	c, err := s.clients.get(ctx, t.ClientID)
	if err != nil {
		return nil, errInactive
	}
	p, err := s.people.withGroups(ctx, t.PersonID)
	if err != nil {
		return nil, err
	}
	if !admits(c, p, t.AMR.V) {
		return nil, errInactive
	}
	return &refreshReq{t: t, scopes: t.Scopes.V}, nil
}

// TerminateSession revokes what the person's tokens for the client.
func (s *storage) TerminateSession(ctx context.Context, personID, clientID string) error {
	return s.db.WithContext(ctx).Model(&token{}).Where("person_id = ? AND client_id = ? AND revoked_at IS NULL", personID, clientID).
		Update("revoked_at", s.now()).Error
}

// refreshMarker prefixes the token id GetRefreshTokenInfo answers: the
// hash of a refresh token, as RevokeToken receives it back.
const refreshMarker = "rh:"

// GetRefreshTokenInfo answers a refresh token's person and id.
func (s *storage) GetRefreshTokenInfo(ctx context.Context, _, refresh string) (string, string, error) {
	if refresh == "" || len(refresh) > 256 {
		return "", "", op.ErrInvalidRefreshToken
	}
	h := bearer.Hash(refresh)
	t, err := s.tokenByHash(ctx, h, kindRefresh)
	if errors.Is(err, errNotFound) {
		return "", "", op.ErrInvalidRefreshToken
	}
	if err != nil {
		return "", "", err
	}
	return t.PersonID, refreshMarker + h, nil
}

// RevokeToken revokes an access token (by id) or a refresh token with its
// family (RFC 7009, 2.1), if the client is the one it was issued to.
func (s *storage) RevokeToken(ctx context.Context, tokenOrID, _, clientID string) *oidc.Error {
	hash, kind := "", kindAccess
	if h, ok := strings.CutPrefix(tokenOrID, refreshMarker); ok {
		hash, kind = h, kindRefresh
	} else if len(tokenOrID) <= 256 {
		hash = bearer.Hash(tokenOrID)
	}
	t, err := s.tokenByHash(ctx, hash, kind)
	if err != nil && !errors.Is(err, errNotFound) {
		return oidc.ErrServerError().WithParent(err)
	}
	if errors.Is(err, errNotFound) || t.ClientID != clientID {
		return nil // unknown or someone else's: nothing to say (RFC 7009, 2.2)
	}
	q := s.db.WithContext(ctx).Model(&token{}).Where("revoked_at IS NULL")
	if kind == kindRefresh {
		q = q.Where("family_id = ?", t.FamilyID)
	} else {
		q = q.Where("id = ?", t.ID)
	}
	if err := q.Update("revoked_at", s.now()).Error; err != nil {
		return oidc.ErrServerError().WithParent(err)
	}
	return nil
}

// SigningKey is the key of the client the request is for (its SigningAlg),
// RS256 when none.
func (s *storage) SigningKey(ctx context.Context) (op.SigningKey, error) {
	alg := algRS256
	if id, ok := ctx.Value(clientKey{}).(string); ok {
		if c, err := s.clients.get(ctx, id); err == nil && c.SigningAlg == algES256 {
			alg = algES256
		}
	}
	return s.keys.signing(alg)
}

func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256, jose.ES256}, nil
}

func (s *storage) KeySet(context.Context) ([]op.Key, error) { return s.keys.published(), nil }

// GetKeyByIDAndClientID would answer a client's own key (private_key_jwt),
// which no client has.
func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errors.New("client keys are not supported")
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("the JWT profile grant is not supported")
}

// clientKey carries the client a token request is for (SigningKey).
type clientKey struct{}

// tokenCrypto makes the access token from the op package's "id:subject":
// the id is 256 random bits (only its hash is stored), so the token needs
// no encryption, only an encoding a bearer header carries.
type tokenCrypto struct{}

func (tokenCrypto) Encrypt(s string) (string, error) {
	return base64.RawURLEncoding.EncodeToString([]byte(s)), nil
}

func (tokenCrypto) Decrypt(s string) (string, error) {
	if len(s) > 512 {
		return "", errors.New("token too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
