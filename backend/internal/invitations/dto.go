package invitations

import (
	"encoding/json"
	"time"
)

// Invitation states, as the list shows them.
const (
	StatePending = "pending"
	StateUsed    = "used"
	StateExpired = "expired"
	StateRevoked = "revoked"
)

// Invitation is one invitation as the People page lists it: never its
// token (only the answer to its creation carries the link, once).
type Invitation struct {
	ID        string     `json:"id"`
	PersonID  *string    `json:"personId"`
	Username  string     `json:"username"`
	Email     string     `json:"email"`
	State     string     `json:"state"`
	CreatedBy string     `json:"createdBy"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt time.Time  `json:"expiresAt"`
	UsedAt    *time.Time `json:"usedAt"`
	RevokedAt *time.Time `json:"revokedAt"`
}

// List is GET /api/invitations.
type List struct {
	Items []Invitation `json:"items"`
}

// CreateRequest is POST /api/invitations: who is invited, and how the
// link reaches them ("link": shown to the administrator; "email": mailed).
type CreateRequest struct {
	Username    string   `json:"username"`
	Email       string   `json:"email"`
	DisplayName string   `json:"displayName"`
	PanelRole   string   `json:"panelRole"`
	Groups      []string `json:"groups"`
	Delivery    string   `json:"delivery"`
	// ExpiresInHours defaults to DefaultTTL; 1 to MaxTTL.
	ExpiresInHours int `json:"expiresInHours"`
}

// Created answers a creation: the invitation and its link, shown once.
type Created struct {
	Invitation Invitation `json:"invitation"`
	Link       string     `json:"link"`
	Mailed     bool       `json:"mailed"`
}

// TokenRequest names an invitation or reset by its token (in the body, so
// it never lands in an access log).
type TokenRequest struct {
	Token string `json:"token"`
}

// Preview is what the invitation page shows before the person accepts.
type Preview struct {
	Username          string    `json:"username"`
	DisplayName       string    `json:"displayName"`
	Email             string    `json:"email"`
	ExpiresAt         time.Time `json:"expiresAt"`
	PasskeysAvailable bool      `json:"passkeysAvailable"`
}

// PasskeyOptions start a passkey registration on the invitation page.
type PasskeyOptions struct {
	Options   any    `json:"options"`
	Challenge string `json:"challenge"`
}

// AcceptRequest is POST /api/invitations/accept: a password, a passkey
// (the registration's challenge and the authenticator's answer), or both.
type AcceptRequest struct {
	Token    string         `json:"token"`
	Password string         `json:"password"`
	Passkey  *PasskeyAnswer `json:"passkey"`
}

// PasskeyAnswer is a finished passkey registration.
type PasskeyAnswer struct {
	Challenge  string          `json:"challenge"`
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// Accepted answers an accepted invitation: where to sign in.
type Accepted struct {
	Username string `json:"username"`
}

// ResetAvailability says whether "forgot password" is offered.
type ResetAvailability struct {
	Available bool `json:"available"`
}

// ForgotRequest is POST /api/password-reset/request.
type ForgotRequest struct {
	Login string `json:"login"` // username or e-mail address
}

// ResetRequest is POST /api/password-reset.
type ResetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// RegistrationSettings is GET/PUT /api/registration/settings: whether
// visitors may register themselves ("off", or "domains": only addresses in
// Domains), and the groups (ids) a new person joins. A registered person
// always has the panel role none.
type RegistrationSettings struct {
	Mode    string   `json:"mode"`
	Domains []string `json:"domains"`
	Groups  []string `json:"groups"`
}

// RegistrationAvailability is GET /api/registration: whether the sign-in
// page offers "Create an account".
type RegistrationAvailability struct {
	Available bool `json:"available"`
}

// RegisterRequest is POST /api/registration.
type RegisterRequest struct {
	Username string `json:"username"`
	Email    string `json:"email"`
}
