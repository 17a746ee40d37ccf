package people

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
)

// Person is one person as the people page shows them: never a secret (no
// hash, no TOTP seed, no session token), so a viewer reads it whole.
type Person struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	Email       string `json:"email"`
	DisplayName string `json:"displayName"`
	// PanelRole is what the person may do on the panel: "admin", "viewer",
	// or "none" (no panel at all).
	PanelRole string     `json:"panelRole"`
	Enabled   bool       `json:"enabled"`
	Groups    []GroupRef `json:"groups"`
	// Factors says what the person signs in with, without the secrets.
	Factors admin.Factors `json:"factors"`
	// LinkedIdentities are the person's links to the OpenID provider
	// (read-only; an administrator may remove one).
	LinkedIdentities []LinkedIdentity `json:"linkedIdentities"`
	// LastSignInAt is when the newest live session opened; nil without one.
	LastSignInAt *time.Time `json:"lastSignInAt"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
}

// GroupRef names a group a person belongs to.
type GroupRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Page is one page of a people list.
type Page struct {
	Items  []Person `json:"items"`
	Total  int64    `json:"total"`
	Limit  int      `json:"limit"`
	Offset int      `json:"offset"`
}

// ListQuery filters and pages the people list.
type ListQuery struct {
	Q         string // matches username, e-mail or display name, any case
	PanelRole string // "", or one panel role
	GroupID   string // "", or members of one group
	Limit     int
	Offset    int
}

// CreateRequest is POST /api/people. Password is optional: a person
// without one signs in with single sign-on (or, later, an invitation).
type CreateRequest struct {
	Username    string   `json:"username"`
	Email       string   `json:"email"`
	DisplayName string   `json:"displayName"`
	PanelRole   string   `json:"panelRole"`
	Password    string   `json:"password"`
	Enabled     *bool    `json:"enabled"`
	Groups      []string `json:"groups"` // group ids
}

// UpdateRequest is PATCH /api/people/{id}; absent fields stay.
type UpdateRequest struct {
	Username    *string   `json:"username"`
	Email       *string   `json:"email"`
	DisplayName *string   `json:"displayName"`
	PanelRole   *string   `json:"panelRole"`
	Enabled     *bool     `json:"enabled"`
	Groups      *[]string `json:"groups"`
}

// PasswordRequest is PUT /api/people/{id}/password.
type PasswordRequest struct {
	Password string `json:"password"`
}

// Group is a group with its members.
type Group struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// ProviderName, when set, is the exact value of the OpenID provider's
	// groups claim that gives this group at a portal sign-in (set by the
	// upgrade from per-service single sign-on); empty: the group's name,
	// whatever the case.
	ProviderName string      `json:"providerName"`
	Members      []PersonRef `json:"members"`
	CreatedAt    time.Time   `json:"createdAt"`
	UpdatedAt    time.Time   `json:"updatedAt"`
}

// PersonRef names a member of a group.
type PersonRef struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	DisplayName string `json:"displayName"`
}

// GroupRequest is POST /api/groups and PATCH /api/groups/{id} (absent
// fields stay on PATCH).
type GroupRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// MemberRequest is POST /api/groups/{id}/members.
type MemberRequest struct {
	PersonID string `json:"personId"`
}
