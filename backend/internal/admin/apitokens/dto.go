// Package apitokens owns administrators' API tokens: bearer credentials for
// scripts that call the panel's API (`Authorization: Bearer gha_...`). A
// token acts with its role, never more than its creator's current role,
// until it expires or is revoked; it stops working when its creator is
// disabled and disappears with them. Only a SHA-256 hash of the value is
// stored; the value is shown once, when the token is created.
//
// These are not machine tokens (package forwardauth/machinetokens), which open proxied
// services through forward-auth and never the panel.
package apitokens

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

// Status values of a token.
const (
	StatusActive  = "active"
	StatusExpired = "expired"
	StatusRevoked = "revoked"
)

// Token is an API token as the API shows it (never its value).
type Token struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Prefix          string     `json:"prefix"`
	Role            actor.Role `json:"role"`
	CreatedBy       string     `json:"createdBy"` // the creator's username
	CreatedAt       time.Time  `json:"createdAt"`
	ExpiresAt       *time.Time `json:"expiresAt"`
	RevokedAt       *time.Time `json:"revokedAt"`
	LastUsedAt      *time.Time `json:"lastUsedAt"`
	LastUsedAddress string     `json:"lastUsedAddress"`
	Status          string     `json:"status"`
}

// CreateRequest is POST /api/admin/tokens.
type CreateRequest struct {
	Name      string     `json:"name"`
	Role      actor.Role `json:"role"`
	ExpiresAt *time.Time `json:"expiresAt"`
}

// Created is the answer to a create: the only time the value is shown.
type Created struct {
	Token Token  `json:"token"`
	Value string `json:"value"`
}

// List is GET /api/admin/tokens.
type List struct {
	Items []Token `json:"items"`
}
