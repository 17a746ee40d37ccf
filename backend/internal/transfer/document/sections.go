package document

import (
	"encoding/json"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Config holds the panel-wide settings, each as the panel stores it. A
// section left out is left alone by an import.
type Config struct {
	// Global is the global configuration (admin domain, default entrypoints,
	// global middlewares, default lifetime).
	Global json.RawMessage `json:"global,omitempty"`
	// SSO is the OpenID provider of the services' single sign-on, without
	// its client secret (that travels only in Sealed).
	SSO json.RawMessage `json:"sso,omitempty"`
	// AdminSSO is the panel's own sign-in settings.
	AdminSSO json.RawMessage `json:"adminSso,omitempty"`
	// Portal is the sign-in portal's settings: host, name, logo, accent
	// colour and session policy (settings.Portal).
	Portal json.RawMessage `json:"portal,omitempty"`
	// RequireTwoFactor is the panel-wide two-factor requirement.
	RequireTwoFactor *bool `json:"requireTwoFactor,omitempty"`
	// AccessRules are the global access rules.
	AccessRules []rules.Rule `json:"accessRules,omitempty"`
	// Managed is the managed-mode Traefik configuration.
	Managed json.RawMessage `json:"managed,omitempty"`
	// DNSCredentials names the managed-mode DNS credentials; their values
	// travel only in Sealed.
	DNSCredentials []string `json:"dnsCredentials,omitempty"`
}

// ServiceAccess is a service's own access rules.
type ServiceAccess struct {
	DefaultAction string       `json:"defaultAction"`
	Rules         []rules.Rule `json:"rules"`
}

// MachineToken is a machine token's metadata; its value never leaves the
// panel that issued it, its hash only inside Sealed.
type MachineToken struct {
	ID           string     `json:"id,omitempty"`
	Name         string     `json:"name"`
	Prefix       string     `json:"prefix"`
	ScopePath    string     `json:"scopePath"`
	ScopeMethods []string   `json:"scopeMethods"`
	ExpiresAt    *time.Time `json:"expiresAt,omitempty"`
	Revoked      bool       `json:"revoked"`
	// Services names the services (by name) the token opens.
	Services  []string  `json:"services"`
	CreatedAt time.Time `json:"createdAt"`
}

// OIDCClient is an OpenID Connect client: an app that signs people in with
// the panel. ID is the client_id the app is configured with (kept when
// free); its secret's hash travels only inside Sealed.
type OIDCClient struct {
	ID                     string   `json:"id,omitempty"`
	Name                   string   `json:"name"`
	LogoURL                string   `json:"logoUrl,omitempty"`
	Preset                 string   `json:"preset,omitempty"`
	Public                 bool     `json:"public"`
	RedirectURIs           []string `json:"redirectUris"`
	PostLogoutRedirectURIs []string `json:"postLogoutRedirectUris"`
	BackchannelLogoutURI   string   `json:"backchannelLogoutUri,omitempty"`
	// AllowedGroups names the groups (by name) whose members may sign in.
	AllowedGroups          []string                 `json:"allowedGroups"`
	Scopes                 []string                 `json:"scopes"`
	GrantTypes             []string                 `json:"grantTypes"`
	SigningAlg             string                   `json:"signingAlg"`
	ClaimMappings          []store.OIDCClaimMapping `json:"claimMappings"`
	ImpliedConsent         bool                     `json:"impliedConsent"`
	SecondFactor           bool                     `json:"secondFactor,omitempty"`
	MaxAgeSeconds          int                      `json:"maxAgeSeconds,omitempty"`
	AccessTokenTTLSeconds  int                      `json:"accessTokenTtlSeconds"`
	IDTokenTTLSeconds      int                      `json:"idTokenTtlSeconds"`
	RefreshTokenTTLSeconds int                      `json:"refreshTokenTtlSeconds"`
	// Service names the service (by name) the client is linked to.
	Service   string    `json:"service,omitempty"`
	Disabled  bool      `json:"disabled"`
	CreatedAt time.Time `json:"createdAt"`
}

// AlertRule is an alert rule: a threshold on a service's traffic history
// (Service names the service) or on the panel's totals (Service empty),
// held for ForMinutes. Its episodes and whether it fires stay with the
// panel that evaluated it.
type AlertRule struct {
	ID      string `json:"id,omitempty"`
	Name    string `json:"name"`
	Service string `json:"service,omitempty"`
	// Kind is error_ratio (Threshold in percent), latency_p95 (Threshold
	// in milliseconds), no_traffic or backend_down (no threshold).
	Kind       string  `json:"kind"`
	Threshold  float64 `json:"threshold"`
	ForMinutes int     `json:"forMinutes"`
	// Enabled defaults to true, as in the API.
	Enabled   *bool      `json:"enabled,omitempty"`
	CreatedAt *time.Time `json:"createdAt,omitempty"`
}

// NotifyChannel is a notification channel; the secret parts of its URL
// travel only in Sealed.
type NotifyChannel struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Kind     string          `json:"kind"`
	Settings json.RawMessage `json:"settings"`
	Events   []string        `json:"events"`
	Enabled  bool            `json:"enabled"`
}

// Admin is a person of the directory with their panel role ("admin",
// "viewer" or "none"), exported only when asked; the password hash travels
// only in Sealed.
type Admin struct {
	Username    string `json:"username"`
	Role        string `json:"role"`
	Email       string `json:"email,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
	SSOIssuer   string `json:"ssoIssuer,omitempty"`
	SSOSubject  string `json:"ssoSubject,omitempty"`
	Disabled    bool   `json:"disabled"`
}

// Group is a group of people; Members are usernames.
type Group struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Members     []string `json:"members"`
}

// Secrets is the plain content of Document.Sealed.
type Secrets struct {
	SSOClientSecret string `json:"ssoClientSecret,omitempty"`
	// DNSCredentials are the managed-mode DNS credentials' values by name.
	DNSCredentials map[string]string `json:"dnsCredentials,omitempty"`
	// NotifyChannels are each channel's secrets (JSON) by channel name.
	NotifyChannels map[string]json.RawMessage `json:"notifyChannels,omitempty"`
	// MachineTokens are the tokens' hashes by token name.
	MachineTokens map[string]string `json:"machineTokens,omitempty"`
	// OIDCClients are the confidential clients' secret hashes by name.
	OIDCClients map[string]string `json:"oidcClients,omitempty"`
	// AdminPasswords are the administrators' bcrypt hashes by username.
	AdminPasswords map[string]string `json:"adminPasswords,omitempty"`
}
