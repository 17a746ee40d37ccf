package sso

import "github.com/gatehouse-proxy/gatehouse/internal/actor"

// Claims a rule can test.
const (
	ClaimEmail    = "email"    // the verified email address, case-insensitive
	ClaimUsername = "username" // preferred_username, case-insensitive
	ClaimGroup    = "group"    // one of the groups (the provider document's groups claim), exact
)

// Rule gives the role Role to whoever the provider says has Claim = Value.
// Rules are tried in order and the first match wins, so a list reads like
// a firewall: put the narrow rules first.
type Rule struct {
	Claim string     `json:"claim" validate:"required"`
	Value string     `json:"value" validate:"required,max=256"`
	Role  actor.Role `json:"role" validate:"required"`
}

// doc is the app_config "admin_sso" document.
type doc struct {
	Enabled        bool   `json:"enabled"`
	Rules          []Rule `json:"rules"`
	CreateAdmins   bool   `json:"createAdmins"`
	LocalPasswords bool   `json:"localPasswords"`
}

// defaults: SSO off, passwords on.
func defaults() doc { return doc{Rules: []Rule{}, LocalPasswords: true} }

// Request is the body of PUT /api/admin/sso.
type Request struct {
	Enabled        bool   `json:"enabled"`
	Rules          []Rule `json:"rules" validate:"max=100,dive"`
	CreateAdmins   bool   `json:"createAdmins"`
	LocalPasswords bool   `json:"localPasswords"`
}

// Response is the panel's sign-in settings as the API shows them.
type Response struct {
	Enabled        bool   `json:"enabled"`
	Rules          []Rule `json:"rules"`
	CreateAdmins   bool   `json:"createAdmins"`
	LocalPasswords bool   `json:"localPasswords"`
	// ProviderConfigured: the OpenID provider (the services' single
	// sign-on settings) is set up and switched on.
	ProviderConfigured bool `json:"providerConfigured"`
	// RedirectURL is the callback to register at the provider ("" while
	// the panel's public URL is unknown).
	RedirectURL string `json:"redirectUrl"`
}

// SignIn is what the login page needs to know.
type SignIn struct {
	SSO            bool // SSO sign-in is enabled and the provider configured
	LocalPasswords bool
}
