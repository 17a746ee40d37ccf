package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"
)

// JSON stores a value as JSON text in a TEXT column.
type JSON[T any] struct{ V T }

// NewJSON wraps v.
func NewJSON[T any](v T) JSON[T] { return JSON[T]{V: v} }

// Value implements driver.Valuer.
func (j JSON[T]) Value() (driver.Value, error) {
	b, err := json.Marshal(j.V)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// Scan implements sql.Scanner.
func (j *JSON[T]) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		var zero T
		j.V = zero
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("store.JSON: cannot scan %T", src)
	}
	return json.Unmarshal(b, &j.V)
}

// Person is someone Gatehouse knows (migration 0017): a username, an
// optional e-mail and display name, the factors they sign in with, and a
// panel role. Administrators are people whose panel role is not "none".
type Person struct {
	ID           string
	Username     string
	PasswordHash string
	// PanelRole is "admin", "viewer" (actor.Role) or "none" (PanelRoleNone):
	// a person without a panel role may not use the panel at all.
	PanelRole string `gorm:"column:panel_role"`
	// DisabledAt, when set, refuses every sign-in and ends the person's
	// sessions (migration 0005).
	DisabledAt *time.Time
	// Email is unique when set, whatever its case. With SSOIssuer and
	// SSOSubject it links a person to the OpenID provider; the subject is
	// empty until the first SSO sign-in (migration 0009).
	Email       string
	DisplayName string
	SSOIssuer   string `gorm:"column:sso_issuer"`
	SSOSubject  string `gorm:"column:sso_subject"`
	// SSOLinkedAt is when the link to the provider was made (migration
	// 0026; nil for links made before).
	SSOLinkedAt *time.Time `gorm:"column:sso_linked_at"`
	// SSOUsername, set only by the upgrade from per-service single sign-on,
	// links this unlinked person to the first provider identity whose
	// preferred_username or subject it is (case-insensitive).
	SSOUsername string `gorm:"column:sso_username"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName is the table's name since migration 0017.
func (Person) TableName() string { return "people" }

// PanelRoleNone is the panel role of a person who may not use the panel.
const PanelRoleNone = "none"

// Group is a named set of people (migration 0017).
type Group struct {
	ID          string
	Name        string
	Description string
	// ProviderName, when set, is the exact value of the OpenID provider's
	// groups claim that means this group (migration 0026).
	ProviderName string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// TableName is the table's name in migration 0017.
func (Group) TableName() string { return "people_groups" }

// GroupMember puts a person in a group.
type GroupMember struct {
	GroupID   string `gorm:"primaryKey"`
	PersonID  string `gorm:"primaryKey"`
	CreatedAt time.Time
	// FromProvider: the OpenID provider's groups claim gave this
	// membership, and takes it back when the claim no longer names the
	// group (migration 0026).
	FromProvider bool
}

// TableName is the table's name in migration 0017.
func (GroupMember) TableName() string { return "people_group_members" }

// AdminSession is a signed-in administrator; only the token's hash is stored.
type AdminSession struct {
	ID        string
	TokenHash string
	UserID    string
	// UserAgent and Address describe the client that signed in (migration 0004).
	UserAgent  string
	Address    string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	// ProvedAt is when the person last proved who they are in this
	// session: the sign-in, or a proof given again (migration 0016).
	ProvedAt *time.Time
	// Portal marks a session opened on the sign-in portal's host;
	// SecondFactor a sign-in that used a second factor or a passkey;
	// Remember one that asked to be remembered (migration 0021).
	Portal       bool
	SecondFactor bool
	Remember     bool
}

// CertConfig asks Traefik for one certificate (main + SANs) from a resolver.
type CertConfig struct {
	Main     string   `json:"main"`
	SANs     []string `json:"sans"`
	Resolver string   `json:"resolver"`
}

// Domain is a base domain services hang their hostnames from.
type Domain struct {
	ID           string
	Name         string
	Domain       string
	CertResolver string
	Wildcard     bool
	IsDefault    bool
	CertConfigs  JSON[[]CertConfig]
	// HTTPSRedirect and HSTS are the defaults of the domain's services.
	HTTPSRedirect bool       `gorm:"column:https_redirect"`
	HSTS          JSON[HSTS] `gorm:"column:hsts"`
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Service kinds.
const (
	KindProxy    = "proxy"
	KindRedirect = "redirect"
	// KindTCP routes TCP connections (HostSNI, or every connection of an
	// entrypoint); KindUDP routes the datagrams of an entrypoint.
	KindTCP = "tcp"
	KindUDP = "udp"
)

// TCP TLS modes.
const (
	TLSNone        = "none"        // plain TCP: only with the catch-all HostSNI(`*`)
	TLSPassthrough = "passthrough" // the target terminates TLS
	TLSTerminate   = "terminate"   // Traefik terminates TLS with the domain's resolver
)

// TCP is a TCP service's options (migration 0034). Its SNI host names are
// the service's hostnames (none: every connection of its entrypoints).
type TCP struct {
	TLS string `json:"tls"`
	// ProxyProtocol sends the PROXY protocol header (version 1 or 2) to the
	// targets; 0 sends none.
	ProxyProtocol int `json:"proxyProtocol"`
	// AllowList admits only clients from these addresses or CIDR ranges;
	// empty admits every client.
	AllowList []string `json:"allowList"`
	// MaxConnections bounds the simultaneous connections; 0 is no limit.
	MaxConnections int `json:"maxConnections"`
}

// Redirect is where a redirect service sends every request.
type Redirect struct {
	URL       string `json:"url"`
	Permanent bool   `json:"permanent"`
	KeepPath  bool   `json:"keepPath"` // append the request's path and query to URL
}

// HSTS is a Strict-Transport-Security policy; MaxAge 0 sends no header.
type HSTS struct {
	MaxAge            int64 `json:"maxAge"`
	IncludeSubdomains bool  `json:"includeSubdomains"`
	Preload           bool  `json:"preload"`
}

// Hostname types.
const (
	HostSubdomain = "subdomain"
	HostApex      = "apex"
	HostCustom    = "custom"
)

// Hostname is how a service names one of its hosts.
type Hostname struct {
	Type  string `json:"type"`
	Value string `json:"value,omitempty"`
}

// Target is one upstream server.
type Target struct {
	Scheme string `json:"scheme"`
	Host   string `json:"host"`
	Port   int    `json:"port"`
	// Weight shares requests among targets (weighted round robin); 0 is 1.
	Weight int `json:"weight,omitempty"`
}

// Launcher is how a service shows on the portal's launcher, to the people
// its people protection admits.
type Launcher struct {
	Hidden      bool   `json:"hidden"`
	Description string `json:"description"`
	// Icon is an https URL or the name of a built-in icon.
	Icon  string `json:"icon"`
	Group string `json:"group"`
	Order int    `json:"order"`
}

// LoadBalancer holds a service's load-balancer options; nil parts are off.
type LoadBalancer struct {
	HealthCheck *HealthCheck `json:"healthCheck"`
	Sticky      *Sticky      `json:"sticky"`
	Timeouts    Timeouts     `json:"timeouts"`
}

// HealthCheck is Traefik's active health check of each target.
type HealthCheck struct {
	Path            string `json:"path"`
	IntervalSeconds int    `json:"intervalSeconds"`
	TimeoutSeconds  int    `json:"timeoutSeconds"`
	Status          int    `json:"status"` // 0: any 2xx or 3xx
}

// Sticky keeps a client on one target with a cookie.
type Sticky struct {
	CookieName string `json:"cookieName"` // empty: Traefik's generated name
	Secure     bool   `json:"secure"`
	HTTPOnly   bool   `json:"httpOnly"`
	SameSite   string `json:"sameSite"` // "", none, lax or strict
}

// Timeouts bound the upstream connection, in seconds; 0 keeps Traefik's default.
type Timeouts struct {
	DialSeconds           int `json:"dialSeconds"`
	ResponseHeaderSeconds int `json:"responseHeaderSeconds"`
	IdleConnSeconds       int `json:"idleConnSeconds"`
}

// Rule is an extra match condition combined with the host match.
type Rule struct {
	Type  string `json:"type"`
	Name  string `json:"name,omitempty"`
	Value string `json:"value"`
}

// Expiry types.
const (
	ExpiryNever    = "never"
	ExpiryAt       = "at"
	ExpiryDuration = "duration"
)

// Service is one proxied service.
type Service struct {
	ID                 string
	Name               string
	DomainID           *string
	Hostnames          JSON[[]Hostname]
	Targets            JSON[[]Target]
	PassHostHeader     bool
	InsecureSkipVerify bool
	Entrypoints        JSON[[]string]
	Rules              JSON[[]Rule]
	Middlewares        JSON[[]string]
	Headers            JSON[map[string]string]
	// HTTPSRedirect and HSTS override the domain's defaults; nil inherits.
	HTTPSRedirect *bool       `gorm:"column:https_redirect"`
	HSTS          JSON[*HSTS] `gorm:"column:hsts"`
	Kind          string      // KindProxy, KindRedirect, KindTCP or KindUDP
	Redirect      JSON[Redirect]
	// Maintenance answers MaintenanceMessage instead of the upstream.
	Maintenance        bool
	MaintenanceMessage string
	LoadBalancer       JSON[LoadBalancer]
	// Launcher is how the service shows on the portal (migration 0022).
	Launcher JSON[Launcher]
	// TCP holds a tcp service's options (migration 0034).
	TCP             JSON[TCP] `gorm:"column:tcp"`
	Enabled         bool
	ExpiryType      string
	LifetimeSeconds *int64
	ExpiresAt       *time.Time
	EnabledAt       *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time

	Domain *Domain `gorm:"foreignKey:DomainID"`
}

// ServiceHostname maps one resolved hostname to its service.
type ServiceHostname struct {
	Hostname  string `gorm:"primaryKey"`
	ServiceID string
}

// CredentialSet is a reusable set of basic-auth users.
type CredentialSet struct {
	ID        string
	Name      string
	CreatedAt time.Time
	UpdatedAt time.Time
	Users     []CredentialUser `gorm:"foreignKey:SetID"`
}

// CredentialUser is one basic-auth user; the password is stored as a bcrypt hash.
type CredentialUser struct {
	ID           string
	SetID        string
	Username     string
	PasswordHash string
	CreatedAt    time.Time
}

// Security config types.
const (
	SecurityBasicAuth   = "basic_auth"
	SecuritySSO         = "sso"
	SecuritySharedLinks = "shared_links"
	SecurityTokens      = "tokens" // machine tokens; settings may name a header
	// SecurityEmailCode: a six-digit code sent by e-mail to allowed
	// addresses; settings hold the allow-list and the session length.
	SecurityEmailCode = "email_code"
	// SecurityPeople admits people of the directory signed in on the portal.
	SecurityPeople = "people"
)

// SecurityConfig is one protection attached to a service.
type SecurityConfig struct {
	ID              string
	ServiceID       string
	Type            string
	Enabled         bool
	CredentialSetID *string
	Settings        JSON[map[string]any]
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// SharedLink is a one-use, time-limited link to a service.
type SharedLink struct {
	ID        string
	ServiceID string
	TokenHash string
	Note      string
	Path      string // where the link lands (migration 0003)
	// PinKind is "pin" or "password" when the visitor must give one before
	// the link is used, and PinHash its bcrypt hash; PinFailures counts
	// wrong answers (migration 0019).
	PinKind        string
	PinHash        string
	PinFailures    int
	SessionSeconds int64
	ExpiresAt      time.Time
	UsedAt         *time.Time
	RevokedAt      *time.Time
	CreatedAt      time.Time
}

// Session kinds.
const (
	SessionSSO        = "sso"
	SessionSharedLink = "shared_link"
	SessionEmailCode  = "email_code"
	// SessionPeople is opened through the sign-in portal for a person of
	// the directory (migration 0022).
	SessionPeople = "people"
)

// Session is a forward-auth session for one service; only the token's hash is stored.
type Session struct {
	ID           string
	TokenHash    string
	ServiceID    string
	Kind         string
	Subject      string
	Email        string
	DisplayName  string
	Groups       JSON[[]string]
	SharedLinkID *string
	// SSO sessions: the provider's issuer and subject, and
	// preferred_username as sent, which allow-list entries are matched
	// against. Email is set only when the provider verified it.
	SSOIssuer   string `gorm:"column:sso_issuer"`
	SSOSubject  string `gorm:"column:sso_subject"`
	SSOUsername string `gorm:"column:sso_username"`
	// People sessions (migration 0022): the person, the portal session it
	// came from, whether that sign-in used a second factor, and when the
	// person last proved who they are.
	PersonID        string
	PortalSessionID string
	SecondFactor    bool
	SignedInAt      *time.Time
	CreatedAt       time.Time
	LastSeenAt      time.Time
	ExpiresAt       time.Time
}

// AppConfig is one key/value JSON document.
type AppConfig struct {
	Key       string `gorm:"primaryKey"`
	Value     string
	UpdatedAt time.Time
}

// TableName pins the table name (GORM would pluralise it).
func (AppConfig) TableName() string { return "app_config" }

// UpgradeTask is a data upgrade a migration asks the next start to run
// (migration 0027); the start deletes it once done.
type UpgradeTask struct {
	Name string `gorm:"primaryKey"`
}

// TableName is the table's name in migration 0027.
func (UpgradeTask) TableName() string { return "upgrade_tasks" }

// UpgradeSSOToPeople replaces per-service single sign-on with people
// protections (app.upgradeSSOProtections).
const UpgradeSSOToPeople = "sso_to_people"
