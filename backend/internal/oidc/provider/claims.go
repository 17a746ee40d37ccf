package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// directory reads people and their groups, fresh on every call: a person
// disabled on any replica is refused from the next call.
type directory struct{ db *gorm.DB }

// person is what the claims say of someone.
type person struct {
	store.Person
	groups []store.Group
}

func (d *directory) active(ctx context.Context, id string) (store.Person, error) {
	var p store.Person
	err := d.db.WithContext(ctx).Where("id = ?", id).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return p, errInactive
	}
	if err != nil {
		return p, fmt.Errorf("read person: %w", err)
	}
	if p.DisabledAt != nil {
		return p, errInactive
	}
	return p, nil
}

func (d *directory) withGroups(ctx context.Context, id string) (person, error) {
	p, err := d.active(ctx, id)
	if err != nil {
		return person{}, err
	}
	var groups []store.Group
	if err := d.db.WithContext(ctx).Table("people_groups").
		Joins("JOIN people_group_members m ON m.group_id = people_groups.id").
		Where("m.person_id = ?", id).Order("people_groups.name").Find(&groups).Error; err != nil {
		return person{}, fmt.Errorf("read groups: %w", err)
	}
	return person{Person: p, groups: groups}, nil
}

// allowed reports whether p may use c: c lists no groups, or p is in one.
func allowed(c store.OIDCClient, p person) bool {
	if len(c.AllowedGroups.V) == 0 {
		return true
	}
	for _, g := range p.groups {
		if slices.Contains(c.AllowedGroups.V, g.ID) {
			return true
		}
	}
	return false
}

// admits: a token made for p still serves c. The client must still admit
// p's groups, and when it asks for a second factor the sign-in behind the
// token must have had one (an app that starts asking for one stops
// accepting older tokens at their next use, as a people protection does
// with sessions).
func admits(c store.OIDCClient, p person, amr []string) bool {
	return allowed(c, p) && (!c.SecondFactor || slices.Contains(amr, "mfa"))
}

// setClaims fills info for scopes, then applies the client's mappings.
func setClaims(info *oidc.UserInfo, p person, c store.OIDCClient, scopes []string) {
	info.Subject = p.ID
	has := func(s string) bool { return slices.Contains(scopes, s) }
	if has(oidc.ScopeProfile) {
		info.PreferredUsername = p.Username
		info.Name = p.DisplayName
		if info.Name == "" {
			info.Name = p.Username
		}
	}
	if has(oidc.ScopeEmail) && p.Email != "" {
		info.Email = p.Email
		// Addresses reach the directory from an administrator, an
		// invitation mailed to them, or a provider that vouched for them.
		info.EmailVerified = true
	}
	names := make([]string, 0, len(p.groups))
	for _, g := range p.groups {
		names = append(names, g.Name)
	}
	if has(scopeGroups) {
		info.AppendClaims("groups", names)
	}
	for _, m := range c.ClaimMappings.V {
		if v, ok := mapped(m, info, names); ok {
			info.AppendClaims(m.Claim, v)
		}
	}
}

// reserved claims a mapping may not replace.
var reserved = []string{"sub", "iss", "aud", "exp", "iat", "nbf", "auth_time", "nonce", "azp", "at_hash", "c_hash", "sid", "jti", "amr", "acr"}

func mapped(m store.OIDCClaimMapping, info *oidc.UserInfo, groups []string) (any, bool) {
	if m.Claim == "" || len(m.Claim) > 128 || slices.Contains(reserved, m.Claim) {
		return nil, false
	}
	switch m.Kind {
	case "static":
		return m.Default, m.Default != ""
	case "groups":
		for _, v := range m.Values {
			if slices.Contains(groups, v.Group) {
				return v.Value, true
			}
		}
		return m.Default, m.Default != ""
	case "rename":
		switch m.From {
		case "preferred_username":
			return info.PreferredUsername, info.PreferredUsername != ""
		case "name":
			return info.Name, info.Name != ""
		case "email":
			return info.Email, info.Email != ""
		case "groups":
			return groups, true
		}
	}
	return nil, false
}

// SetUserinfoFromScopes is deprecated in the op package; the claims come
// from SetUserinfoFromRequest.
func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest fills the ID token's claims.
func (s *storage) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	c, err := s.clients.get(ctx, req.GetClientID())
	if err != nil {
		return err
	}
	p, err := s.people.withGroups(ctx, req.GetSubject())
	if err != nil {
		return err
	}
	if !allowed(c, p) {
		return oidc.ErrAccessDenied().WithDescription("not in a group this app admits")
	}
	setClaims(info, p, c, scopes)
	// sid names the portal session, as the back-channel logout token does.
	session := ""
	switch r := req.(type) {
	case *authReq:
		session = r.r.PortalSessionID
	case *refreshReq:
		session = r.t.PortalSessionID
	}
	if v := sid(session); v != "" {
		info.AppendClaims("sid", v)
	}
	return nil
}

// accessToken reads a live access token by its id and checks, on every
// call, that its person and client are still active and admitted.
func (s *storage) accessToken(ctx context.Context, id, subject string) (token, person, store.OIDCClient, error) {
	if len(id) > 256 {
		return token{}, person{}, store.OIDCClient{}, errNotFound
	}
	t, err := s.tokenByHash(ctx, bearer.Hash(id), kindAccess)
	if err != nil {
		return t, person{}, store.OIDCClient{}, err
	}
	if t.PersonID != subject {
		return t, person{}, store.OIDCClient{}, errNotFound
	}
	c, err := s.clients.get(ctx, t.ClientID)
	if err != nil {
		return t, person{}, c, errInactive
	}
	p, err := s.people.withGroups(ctx, t.PersonID)
	if err != nil {
		return t, p, c, err
	}
	if !admits(c, p, t.AMR.V) {
		return t, p, c, errInactive
	}
	return t, p, c, nil
}

// SetUserinfoFromToken answers userinfo for a live access token.
func (s *storage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, id, subject, _ string) error {
	t, p, c, err := s.accessToken(ctx, id, subject)
	if err != nil {
		return oidc.ErrAccessDenied().WithDescription("the token is not active")
	}
	setClaims(info, p, c, t.Scopes.V)
	return nil
}

// SetIntrospectionFromToken answers introspection for a live access token
// (the op package answers active=false on an error).
func (s *storage) SetIntrospectionFromToken(ctx context.Context, resp *oidc.IntrospectionResponse, id, subject, clientID string) error {
	t, p, c, err := s.accessToken(ctx, id, subject)
	if err != nil {
		return err
	}
	if t.ClientID != clientID {
		return errNotFound // only the app a token was issued to may ask about it
	}
	info := new(oidc.UserInfo)
	setClaims(info, p, c, t.Scopes.V)
	resp.SetUserInfo(info)
	resp.Scope = t.Scopes.V
	resp.ClientID = t.ClientID
	resp.Audience = t.Audience.V
	resp.Expiration = oidc.FromTime(t.ExpiresAt)
	resp.IssuedAt = oidc.FromTime(t.CreatedAt)
	resp.TokenType = oidc.BearerToken
	return nil
}

// GetPrivateClaimsFromScopes: access tokens are opaque, without claims.
func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}
