// Package machinetokens owns machine tokens: bearer credentials for clients
// that cannot follow a browser sign-in (mobile and desktop apps, CalDAV and
// WebDAV clients, scripts). A token opens the services it is bound to,
// optionally only below a path and for some methods, until it expires or
// is revoked. Only a SHA-256 hash of the value is stored; the value is
// shown once, when the token is created.
package machinetokens

import "time"

// Status values of a token.
const (
	StatusActive  = "active"
	StatusExpired = "expired"
	StatusRevoked = "revoked"
)

// ServiceRef names a service a token opens.
type ServiceRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Scope narrows what a token opens; empty fields mean no limit.
type Scope struct {
	PathPrefix string   `json:"pathPrefix"`
	Methods    []string `json:"methods"`
}

// Token is a machine token as the API shows it (never its value).
type Token struct {
	ID              string       `json:"id"`
	Name            string       `json:"name"`
	Prefix          string       `json:"prefix"`
	Services        []ServiceRef `json:"services"`
	Scope           Scope        `json:"scope"`
	ExpiresAt       *time.Time   `json:"expiresAt"`
	CreatedAt       time.Time    `json:"createdAt"`
	RevokedAt       *time.Time   `json:"revokedAt"`
	LastUsedAt      *time.Time   `json:"lastUsedAt"`
	LastUsedAddress string       `json:"lastUsedAddress"`
	Status          string       `json:"status"`
}

// CreateRequest is POST /api/machine-tokens.
type CreateRequest struct {
	Name       string     `json:"name"`
	ServiceIDs []string   `json:"serviceIds"`
	Scope      Scope      `json:"scope"`
	ExpiresAt  *time.Time `json:"expiresAt"`
}

// Created is the answer to a create: the only time the value is shown.
type Created struct {
	Token    Token    `json:"token"`
	Value    string   `json:"value"`
	Warnings []string `json:"warnings"`
}

// List is GET /api/machine-tokens.
type List struct {
	Items []Token `json:"items"`
}

// Policy is one usable token as forward-auth checks it, from a snapshot.
type Policy struct {
	ID, Name  string
	Services  map[string]bool
	ScopePath string   // "" for any path
	Methods   []string // nil for any method
	ExpiresAt time.Time
	// User is the Remote-User value upstreams receive, "token:<name>",
	// built once per snapshot.
	User []string
}
