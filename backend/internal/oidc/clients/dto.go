// Package clients administers the OpenID Connect clients: the apps (Grafana,
// Immich, Nextcloud, …) that sign people in with the panel as their OpenID
// provider, and the presets that fill a new client from an app's own
// documentation. The provider (package oidc/provider) reads the same rows
// and drops what it caches on every change.Event of entity OIDCClient this
// package publishes. A confidential client's secret is shown once, when it
// is made; only its SHA-256 is kept.
package clients

import "time"

// ClaimValue maps a group (by name) to a claim's value.
type ClaimValue struct {
	Group string `json:"group"`
	Value string `json:"value"`
}

// ClaimMapping adds one claim to the client's ID token and userinfo (see
// store.OIDCClaimMapping for the kinds).
type ClaimMapping struct {
	Claim   string       `json:"claim"`
	Kind    string       `json:"kind"`
	From    string       `json:"from,omitempty"`
	Values  []ClaimValue `json:"values,omitempty"`
	Default string       `json:"default,omitempty"`
}

// Ref names another resource (a group, a service) by id and name.
type Ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Client is an OpenID Connect client as the API shows it: never its secret
// or the secret's hash. ID is the client_id the app is configured with.
type Client struct {
	ID                     string         `json:"id"`
	Name                   string         `json:"name"`
	LogoURL                string         `json:"logoUrl"`
	Preset                 string         `json:"preset"`
	Public                 bool           `json:"public"`
	SecretSet              bool           `json:"secretSet"`
	RedirectURIs           []string       `json:"redirectUris"`
	PostLogoutRedirectURIs []string       `json:"postLogoutRedirectUris"`
	BackchannelLogoutURI   string         `json:"backchannelLogoutUri"`
	AllowedGroups          []Ref          `json:"allowedGroups"`
	Scopes                 []string       `json:"scopes"`
	GrantTypes             []string       `json:"grantTypes"`
	SigningAlg             string         `json:"signingAlg"`
	ClaimMappings          []ClaimMapping `json:"claimMappings"`
	ImpliedConsent         bool           `json:"impliedConsent"`
	SecondFactor           bool           `json:"secondFactor"`
	MaxAgeSeconds          int            `json:"maxAgeSeconds"`
	AccessTokenTTLSeconds  int            `json:"accessTokenTtlSeconds"`
	IDTokenTTLSeconds      int            `json:"idTokenTtlSeconds"`
	RefreshTokenTTLSeconds int            `json:"refreshTokenTtlSeconds"`
	Service                *Ref           `json:"service"`
	Disabled               bool           `json:"disabled"`
	CreatedAt              time.Time      `json:"createdAt"`
	UpdatedAt              time.Time      `json:"updatedAt"`
}

// Input is the body of a create (POST /api/oidc/clients) and of an update
// (PUT /api/oidc/clients/{id}), which replaces every field. Zero lifetimes,
// an empty signing algorithm and empty scopes or grant types take the
// defaults.
type Input struct {
	Name                   string         `json:"name"`
	LogoURL                string         `json:"logoUrl"`
	Preset                 string         `json:"preset"`
	Public                 bool           `json:"public"`
	RedirectURIs           []string       `json:"redirectUris"`
	PostLogoutRedirectURIs []string       `json:"postLogoutRedirectUris"`
	BackchannelLogoutURI   string         `json:"backchannelLogoutUri"`
	AllowedGroupIDs        []string       `json:"allowedGroupIds"`
	Scopes                 []string       `json:"scopes"`
	GrantTypes             []string       `json:"grantTypes"`
	SigningAlg             string         `json:"signingAlg"`
	ClaimMappings          []ClaimMapping `json:"claimMappings"`
	ImpliedConsent         bool           `json:"impliedConsent"`
	SecondFactor           bool           `json:"secondFactor"`
	MaxAgeSeconds          int            `json:"maxAgeSeconds"`
	AccessTokenTTLSeconds  int            `json:"accessTokenTtlSeconds"`
	IDTokenTTLSeconds      int            `json:"idTokenTtlSeconds"`
	RefreshTokenTTLSeconds int            `json:"refreshTokenTtlSeconds"`
	ServiceID              string         `json:"serviceId"`
	Disabled               bool           `json:"disabled"`
}

// WithSecret is the answer of a create and of a secret rotation: the only
// time the secret is shown. Secret is "" for a public client.
type WithSecret struct {
	Client Client `json:"client"`
	Secret string `json:"secret"`
}

// Provider is where an app finds the panel as its OpenID provider: the
// issuer is the sign-in portal's address, "" while no portal is set.
type Provider struct {
	Issuer                      string `json:"issuer"`
	DiscoveryURL                string `json:"discoveryUrl"`
	AuthorizationEndpoint       string `json:"authorizationEndpoint"`
	TokenEndpoint               string `json:"tokenEndpoint"`
	UserinfoEndpoint            string `json:"userinfoEndpoint"`
	JWKSURI                     string `json:"jwksUri"`
	EndSessionEndpoint          string `json:"endSessionEndpoint"`
	DeviceAuthorizationEndpoint string `json:"deviceAuthorizationEndpoint"`
}

// List is GET /api/oidc/clients.
type List struct {
	Items    []Client `json:"items"`
	Provider Provider `json:"provider"`
}

// PresetList is GET /api/oidc/presets.
type PresetList struct {
	Items []Preset `json:"items"`
}
