package provider

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// signingKey is a row of oidc_signing_keys (migration 0031): the private
// key is sealed with the panel's age identity.
type signingKey struct {
	ID         string
	Alg        string
	PrivateKey string
	CreatedAt  time.Time
	ActiveFrom time.Time
	ExpiresAt  *time.Time
}

func (signingKey) TableName() string { return "oidc_signing_keys" }

// authRequest is a row of oidc_auth_requests: an authorization request
// from its arrival until its code is exchanged (kept, marked used, until
// it expires, so that a second use of the code is recognised).
type authRequest struct {
	ID                  string
	ClientID            string
	RedirectURI         string `gorm:"column:redirect_uri"`
	State               string
	Nonce               string
	Scopes              store.JSON[[]string]
	ResponseType        string
	ResponseMode        string
	CodeChallenge       string
	CodeChallengeMethod string
	MaxAge              *int64
	Prompt              store.JSON[[]string]
	// ACRValues are the acr_values the app asked for; ACR is what the
	// answer's ID token says was done (migration 0036).
	ACRValues       store.JSON[[]string] `gorm:"column:acr_values"`
	ACR             string               `gorm:"column:acr"`
	PersonID        *string
	PortalSessionID string
	AuthTime        *time.Time
	AMR             store.JSON[[]string] `gorm:"column:amr"`
	Done            bool
	Denied          bool
	CodeHash        *string
	CodeUsedAt      *time.Time
	CreatedAt       time.Time
	ExpiresAt       time.Time
}

func (authRequest) TableName() string { return "oidc_auth_requests" }

// token is a row of oidc_tokens: an access or a refresh token.
type token struct {
	ID              string
	Kind            string
	TokenHash       string
	ClientID        string
	PersonID        string
	Scopes          store.JSON[[]string]
	Audience        store.JSON[[]string]
	AMR             store.JSON[[]string] `gorm:"column:amr"`
	AuthTime        time.Time
	FamilyID        string
	AuthRequestID   string
	PortalSessionID string
	UsedAt          *time.Time
	RevokedAt       *time.Time
	CreatedAt       time.Time
	ExpiresAt       time.Time
}

func (token) TableName() string { return "oidc_tokens" }

const (
	kindAccess  = "access"
	kindRefresh = "refresh"
)

// deviceRow is a row of oidc_device_codes.
type deviceRow struct {
	DeviceCodeHash string
	UserCode       string
	ClientID       string
	Scopes         store.JSON[[]string]
	State          string
	PersonID       *string
	AuthTime       *time.Time
	AMR            store.JSON[[]string] `gorm:"column:amr"`
	// PolledAt is the device's last poll; PollInterval (seconds) how often
	// it may poll, grown by each slow_down.
	PolledAt     *time.Time
	PollInterval int
	CreatedAt    time.Time
	ExpiresAt    time.Time
}

func (deviceRow) TableName() string { return "oidc_device_codes" }

const (
	devicePending  = "pending"
	deviceApproved = "approved"
	deviceDenied   = "denied"
	deviceConsumed = "consumed"
)

// consent is a row of oidc_consents: the scopes a person granted a client.
type consent struct {
	PersonID  string
	ClientID  string
	Scopes    store.JSON[[]string]
	CreatedAt time.Time
}

func (consent) TableName() string { return "oidc_consents" }
