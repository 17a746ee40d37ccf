package clients

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Directory answers what clients need to know about services, groups and
// people; package app wires their owners in.
type Directory interface {
	// ServiceNames maps the service ids that exist to their names.
	ServiceNames(ctx context.Context, ids []string) (map[string]string, error)
	// GroupNames maps the group ids that exist to their names.
	GroupNames(ctx context.Context, ids []string) (map[string]string, error)
	// GroupIDsOf returns the ids of the groups a person is in; ok is false
	// for a person who does not exist or is disabled.
	GroupIDsOf(ctx context.Context, personID string) (ids []string, ok bool, err error)
}

// Service manages OpenID Connect clients.
type Service struct {
	db     *gorm.DB
	bus    *change.Bus
	now    func() time.Time
	dir    Directory
	portal func(ctx context.Context) string
}

// Deps are the Service's collaborators.
type Deps struct {
	DB        *gorm.DB
	Bus       *change.Bus
	Now       func() time.Time
	Directory Directory
	// PortalURL returns the sign-in portal's base URL (no trailing slash),
	// the provider's issuer; "" while no portal host is set.
	PortalURL func(ctx context.Context) string
}

// NewService returns the clients service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.PortalURL == nil {
		d.PortalURL = func(context.Context) string { return "" }
	}
	return &Service{db: d.DB, bus: d.Bus, now: d.Now, dir: d.Directory, portal: d.PortalURL}
}

// VerifySecret reports, in constant time, whether secret is the one whose
// hash (hex SHA-256, as stored in store.OIDCClient.SecretHash) is hash. An
// empty hash (a public client, or one without a secret yet) matches
// nothing.
func VerifySecret(hash, secret string) bool {
	if hash == "" || secret == "" || len(secret) > maxSecret {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(bearer.Hash(secret)), []byte(hash)) == 1
}

// maxSecret bounds what is hashed: the panel's secrets are 43 characters.
const maxSecret = 512

// newClientID returns a client_id: 128 random bits, URL-safe, so it can
// be typed into any app and appears in URLs unescaped.
func newClientID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate client id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// event is the change every write publishes: the provider drops what it
// caches about the client.
func event(kind change.Kind, id string) change.Event {
	return change.Event{Entity: change.OIDCClient, Kind: kind, ID: id}
}

// List returns every client by name, and where apps find the provider.
func (s *Service) List(ctx context.Context) (List, error) {
	var rows []store.OIDCClient
	if err := s.db.WithContext(ctx).Order("name, id").Find(&rows).Error; err != nil {
		return List{}, fmt.Errorf("list oidc clients: %w", err)
	}
	items, err := s.toDTOs(ctx, rows)
	if err != nil {
		return List{}, err
	}
	return List{Items: items, Provider: ProviderAt(s.portal(ctx))}, nil
}

// Get returns one client.
func (s *Service) Get(ctx context.Context, id string) (Client, error) {
	row, err := s.row(ctx, s.db, id)
	if err != nil {
		return Client{}, err
	}
	out, err := s.toDTOs(ctx, []store.OIDCClient{row})
	if err != nil {
		return Client{}, err
	}
	return out[0], nil
}

func (s *Service) row(ctx context.Context, db *gorm.DB, id string) (store.OIDCClient, error) {
	var row store.OIDCClient
	if len(id) > maxID {
		return row, apperr.NotFound("OpenID Connect client")
	}
	if err := db.WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return row, apperr.NotFound("OpenID Connect client")
		}
		return row, fmt.Errorf("read oidc client %s: %w", id, err)
	}
	return row, nil
}

// check validates in and that the groups and the service it names exist.
func (s *Service) check(ctx context.Context, in *Input) error {
	if err := in.normalize(); err != nil {
		return err
	}
	var c apperr.Collector
	groups, err := s.dir.GroupNames(ctx, in.AllowedGroupIDs)
	if err != nil {
		return err
	}
	for i, id := range in.AllowedGroupIDs {
		if _, ok := groups[id]; !ok {
			c.Add(fmt.Sprintf("allowedGroupIds[%d]", i), "no such group")
		}
	}
	if in.ServiceID != "" {
		names, err := s.dir.ServiceNames(ctx, []string{in.ServiceID})
		if err != nil {
			return err
		}
		if _, ok := names[in.ServiceID]; !ok {
			c.Add("serviceId", "no such service")
		}
	}
	return c.Err()
}

// apply copies in onto row.
func (in *Input) apply(row *store.OIDCClient, now time.Time) {
	row.Name, row.LogoURL, row.Preset, row.Public = in.Name, in.LogoURL, in.Preset, in.Public
	row.RedirectURIs = store.NewJSON(in.RedirectURIs)
	row.PostLogoutRedirectURIs = store.NewJSON(in.PostLogoutRedirectURIs)
	row.BackchannelLogoutURI = in.BackchannelLogoutURI
	row.AllowedGroups = store.NewJSON(in.AllowedGroupIDs)
	row.Scopes, row.GrantTypes = store.NewJSON(in.Scopes), store.NewJSON(in.GrantTypes)
	row.SigningAlg = in.SigningAlg
	mappings := make([]store.OIDCClaimMapping, len(in.ClaimMappings))
	for i, m := range in.ClaimMappings {
		sm := store.OIDCClaimMapping{Claim: m.Claim, Kind: m.Kind, From: m.From, Default: m.Default}
		for _, v := range m.Values {
			sm.Values = append(sm.Values, store.OIDCClaimValue{Group: v.Group, Value: v.Value})
		}
		mappings[i] = sm
	}
	row.ClaimMappings = store.NewJSON(mappings)
	row.ImpliedConsent = in.ImpliedConsent
	row.SecondFactor, row.MaxAgeSeconds = in.SecondFactor, in.MaxAgeSeconds
	row.AccessTokenTTLSeconds, row.IDTokenTTLSeconds, row.RefreshTokenTTLSeconds =
		in.AccessTokenTTLSeconds, in.IDTokenTTLSeconds, in.RefreshTokenTTLSeconds
	row.ServiceID = nil
	if in.ServiceID != "" {
		id := in.ServiceID
		row.ServiceID = &id
	}
	switch {
	case !in.Disabled:
		row.DisabledAt = nil
	case row.DisabledAt == nil:
		row.DisabledAt = &now
	}
	if row.Public {
		row.SecretHash = "" // a public client has no secret (and uses PKCE)
	}
	row.UpdatedAt = now
}

// uniqueName refuses a name another client has.
func uniqueName(tx *gorm.DB, name, id string) error {
	var n int64
	if err := tx.Model(&store.OIDCClient{}).Where("name = ? AND id <> ?", name, id).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return apperr.Conflict("name", "an OpenID Connect client named %q already exists", name)
	}
	return nil
}

// Create stores a new client; a confidential one gets a secret, shown in
// the answer only.
func (s *Service) Create(ctx context.Context, in Input) (WithSecret, error) {
	if err := s.check(ctx, &in); err != nil {
		return WithSecret{}, err
	}
	id, err := newClientID()
	if err != nil {
		return WithSecret{}, err
	}
	now := s.now()
	row := store.OIDCClient{ID: id, CreatedAt: now}
	in.apply(&row, now)
	var secret string
	if !row.Public {
		if secret, err = bearer.New(); err != nil {
			return WithSecret{}, err
		}
		row.SecretHash = bearer.Hash(secret)
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := uniqueName(tx, row.Name, row.ID); err != nil {
			return err
		}
		return tx.Create(&row).Error
	})
	if err != nil {
		return WithSecret{}, wrap(err, "create oidc client %q", in.Name)
	}
	s.bus.Publish(event(change.Created, row.ID))
	c, err := s.Get(ctx, row.ID)
	return WithSecret{Client: c, Secret: secret}, err
}

// Update replaces a client's settings. Its id and secret stay; turning it
// public drops the secret, turning it confidential leaves it without one
// until RotateSecret makes one.
func (s *Service) Update(ctx context.Context, id string, in Input) (Client, error) {
	if err := s.check(ctx, &in); err != nil {
		return Client{}, err
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.row(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := uniqueName(tx, in.Name, id); err != nil {
			return err
		}
		in.apply(&row, s.now())
		return tx.Select("*").Omit("created_at").Save(&row).Error
	})
	if err != nil {
		return Client{}, wrap(err, "update oidc client %s", id)
	}
	s.bus.Publish(event(change.Updated, id))
	return s.Get(ctx, id)
}

// Delete removes a client; the provider stops honouring its tokens on the
// change event.
func (s *Service) Delete(ctx context.Context, id string) error {
	if len(id) > maxID {
		return apperr.NotFound("OpenID Connect client")
	}
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.OIDCClient{})
	if res.Error != nil {
		return fmt.Errorf("delete oidc client %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("OpenID Connect client")
	}
	s.bus.Publish(event(change.Deleted, id))
	return nil
}

// RotateSecret gives a confidential client a new secret, shown in the
// answer only; the old one stops working at once.
func (s *Service) RotateSecret(ctx context.Context, id string) (WithSecret, error) {
	secret, err := bearer.New()
	if err != nil {
		return WithSecret{}, err
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.row(ctx, tx, id)
		if err != nil {
			return err
		}
		if row.Public {
			return apperr.Conflict("public", "a public client has no secret: it proves itself with PKCE")
		}
		return tx.Model(&store.OIDCClient{}).Where("id = ?", id).
			Updates(map[string]any{"secret_hash": bearer.Hash(secret), "updated_at": s.now()}).Error
	})
	if err != nil {
		return WithSecret{}, wrap(err, "rotate oidc client secret %s", id)
	}
	s.bus.Publish(event(change.Updated, id))
	c, err := s.Get(ctx, id)
	return WithSecret{Client: c, Secret: secret}, err
}

// LinkedServices returns the services linked to an enabled client the
// person may sign in to (no allowed groups, or one of the person's), for
// the portal's launcher.
func (s *Service) LinkedServices(ctx context.Context, personID string) (map[string]bool, error) {
	var rows []store.OIDCClient
	err := s.db.WithContext(ctx).Select("id", "service_id", "allowed_groups").
		Where("service_id IS NOT NULL AND disabled_at IS NULL").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list linked oidc clients: %w", err)
	}
	out := map[string]bool{}
	if len(rows) == 0 {
		return out, nil
	}
	groups, ok, err := s.dir.GroupIDsOf(ctx, personID)
	if err != nil || !ok {
		return out, err
	}
	for _, r := range rows {
		allowed := r.AllowedGroups.V
		if len(allowed) == 0 || slices.ContainsFunc(groups, func(g string) bool { return slices.Contains(allowed, g) }) {
			out[*r.ServiceID] = true
		}
	}
	return out, nil
}

func (s *Service) toDTOs(ctx context.Context, rows []store.OIDCClient) ([]Client, error) {
	out := make([]Client, 0, len(rows))
	var groupIDs, serviceIDs []string
	for _, r := range rows {
		groupIDs = append(groupIDs, r.AllowedGroups.V...)
		if r.ServiceID != nil {
			serviceIDs = append(serviceIDs, *r.ServiceID)
		}
	}
	groups, err := s.dir.GroupNames(ctx, groupIDs)
	if err != nil {
		return nil, err
	}
	services, err := s.dir.ServiceNames(ctx, serviceIDs)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		c := Client{ID: r.ID, Name: r.Name, LogoURL: r.LogoURL, Preset: r.Preset, Public: r.Public,
			SecretSet: r.SecretHash != "", RedirectURIs: orEmpty(r.RedirectURIs.V),
			PostLogoutRedirectURIs: orEmpty(r.PostLogoutRedirectURIs.V), BackchannelLogoutURI: r.BackchannelLogoutURI,
			AllowedGroups: []Ref{}, Scopes: orEmpty(r.Scopes.V), GrantTypes: orEmpty(r.GrantTypes.V),
			SigningAlg: r.SigningAlg, ClaimMappings: []ClaimMapping{}, ImpliedConsent: r.ImpliedConsent,
			SecondFactor: r.SecondFactor, MaxAgeSeconds: r.MaxAgeSeconds,
			AccessTokenTTLSeconds: r.AccessTokenTTLSeconds, IDTokenTTLSeconds: r.IDTokenTTLSeconds,
			RefreshTokenTTLSeconds: r.RefreshTokenTTLSeconds, Disabled: r.DisabledAt != nil,
			CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
		for _, id := range r.AllowedGroups.V {
			// A group deleted since keeps its place (nobody is in it, so
			// it admits nobody) and shows without a name.
			c.AllowedGroups = append(c.AllowedGroups, Ref{ID: id, Name: groups[id]})
		}
		for _, m := range r.ClaimMappings.V {
			cm := ClaimMapping{Claim: m.Claim, Kind: m.Kind, From: m.From, Default: m.Default}
			for _, v := range m.Values {
				cm.Values = append(cm.Values, ClaimValue{Group: v.Group, Value: v.Value})
			}
			c.ClaimMappings = append(c.ClaimMappings, cm)
		}
		if r.ServiceID != nil {
			c.Service = &Ref{ID: *r.ServiceID, Name: services[*r.ServiceID]}
		}
		out = append(out, c)
	}
	return out, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// wrap keeps client-actionable errors as they are and adds context to
// the others.
func wrap(err error, format string, args ...any) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// The provider's endpoints on the portal host (package oidc/provider
// serves them; its discovery document is the truth apps read).
const (
	DiscoveryPath           = "/.well-known/openid-configuration"
	AuthorizationPath       = "/oidc/authorize"
	TokenPath               = "/oidc/token"
	UserinfoPath            = "/oidc/userinfo"
	JWKSPath                = "/oidc/keys"
	EndSessionPath          = "/oidc/end_session"
	DeviceAuthorizationPath = "/oidc/device_authorization"
)

// ProviderAt returns the provider's addresses for the portal at base
// (no trailing slash); all empty when there is no portal.
func ProviderAt(base string) Provider {
	base = strings.TrimRight(base, "/")
	if base == "" {
		return Provider{}
	}
	return Provider{Issuer: base, DiscoveryURL: base + DiscoveryPath,
		AuthorizationEndpoint: base + AuthorizationPath, TokenEndpoint: base + TokenPath,
		UserinfoEndpoint: base + UserinfoPath, JWKSURI: base + JWKSPath, EndSessionEndpoint: base + EndSessionPath,
		DeviceAuthorizationEndpoint: base + DeviceAuthorizationPath}
}
