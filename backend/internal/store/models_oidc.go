package store

import "time"

// OIDCClient is an app that signs people in with the panel as its OpenID
// provider (migration 0030). ID is the client_id. A confidential client
// keeps only the SHA-256 of its secret; a public client has none and must
// use PKCE (S256).
type OIDCClient struct {
	ID      string
	Name    string
	LogoURL string `gorm:"column:logo_url"`
	// Preset names the app preset the client was made from ("" for none).
	Preset     string
	Public     bool
	SecretHash string
	// RedirectURIs are matched exactly, byte for byte.
	RedirectURIs           JSON[[]string] `gorm:"column:redirect_uris"`
	PostLogoutRedirectURIs JSON[[]string] `gorm:"column:post_logout_redirect_uris"`
	// BackchannelLogoutURI, when set, is told when a person's portal
	// session ends (OpenID Connect Back-Channel Logout 1.0).
	BackchannelLogoutURI string `gorm:"column:backchannel_logout_uri"`
	// AllowedGroups are group ids; empty lets every active person in.
	AllowedGroups JSON[[]string]
	// Scopes the client may ask for (subset of openid profile email groups
	// offline_access).
	Scopes JSON[[]string]
	// GrantTypes: authorization_code, refresh_token,
	// urn:ietf:params:oauth:grant-type:device_code.
	GrantTypes JSON[[]string]
	// SigningAlg is RS256 (default) or ES256.
	SigningAlg    string
	ClaimMappings JSON[[]OIDCClaimMapping]
	// ImpliedConsent skips the consent screen (first-party apps).
	ImpliedConsent bool
	// SecondFactor admits only a portal sign-in made with a second factor;
	// MaxAgeSeconds, when not 0, only one at most that old (migration
	// 0036): the app's step-up, as a people protection has.
	SecondFactor           bool
	MaxAgeSeconds          int `gorm:"column:max_age_seconds"`
	AccessTokenTTLSeconds  int `gorm:"column:access_token_ttl_seconds"`
	IDTokenTTLSeconds      int `gorm:"column:id_token_ttl_seconds"`
	RefreshTokenTTLSeconds int `gorm:"column:refresh_token_ttl_seconds"`
	// ServiceID links the client to a service: the launcher shows one entry.
	ServiceID  *string
	DisabledAt *time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// TableName is the table's name in migration 0030.
func (OIDCClient) TableName() string { return "oidc_clients" }

// OIDCClaimMapping adds one claim to a client's ID token and userinfo.
// Kind "groups" builds Claim from the person's groups: the first entry of
// Values whose key is a group the person is in gives the value (a role
// claim, such as Grafana's role_attribute_path); Default otherwise (no
// claim when empty). Kind "static" sets Claim to Default. Kind "rename"
// copies the standard claim From (preferred_username, name, email,
// groups) under the name Claim.
type OIDCClaimMapping struct {
	Claim   string           `json:"claim"`
	Kind    string           `json:"kind"`
	From    string           `json:"from,omitempty"`
	Values  []OIDCClaimValue `json:"values,omitempty"`
	Default string           `json:"default,omitempty"`
}

// OIDCClaimValue maps a group (by name) to the claim's value.
type OIDCClaimValue struct {
	Group string `json:"group"`
	Value string `json:"value"`
}
