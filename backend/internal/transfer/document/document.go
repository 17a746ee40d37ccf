// Package document is Gatehouse's configuration exchange format: what
// `gatehouse export` writes and `gatehouse import` reads, and what the readers
// of other tools' configuration (Nginx Proxy Manager, Traefik files) produce,
// so every source goes through the same plan-then-apply import.
//
// The format is versioned (Version) and described by a JSON Schema kept next
// to this file. Names, not database IDs, link the parts (a service names its
// base domain and its credential sets), so a document written by hand or by a
// reader needs no IDs; IDs, when present, are kept by an import into a panel
// that does not use them yet, so the dynamic configuration comes out the same.
package document

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Format names the document kind; Version is the newest version this build
// reads and the one it writes.
const (
	Format  = "gatehouse-export"
	Version = 1
)

// Document is one export.
type Document struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt time.Time `json:"exportedAt"`
	// PanelVersion is the version of the panel that wrote the document (informational).
	PanelVersion string `json:"panelVersion,omitempty"`

	Domains        []Domain        `json:"domains"`
	Services       []Service       `json:"services"`
	CredentialSets []CredentialSet `json:"credentialSets"`

	// The sections below are written by `gatehouse export`; readers of
	// other tools leave them empty, and an import leaves alone what is absent.
	MachineTokens []MachineToken `json:"machineTokens,omitempty"`
	// OIDCClients are the apps that sign people in with the panel as their
	// OpenID provider; their secrets' hashes travel only in Sealed.
	OIDCClients    []OIDCClient    `json:"oidcClients,omitempty"`
	NotifyChannels []NotifyChannel `json:"notifyChannels,omitempty"`
	// AlertRules are the thresholds on the traffic history. An export
	// always writes the list (empty too, hence a pointer); a document
	// without it (an older export, another tool's) leaves the panel's
	// rules alone, even in replace mode.
	AlertRules *[]AlertRule `json:"alertRules,omitempty"`
	Config     *Config      `json:"config,omitempty"`
	// Admins are the people of the directory (the name is older than the
	// directory), listed only when the export asked for them, with Groups.
	Admins []Admin `json:"admins,omitempty"`
	Groups []Group `json:"groups,omitempty"`
	// Sealed is an ASCII-armored age file encrypted to a passphrase (scrypt)
	// holding Secrets; present only when the export asked for secrets.
	Sealed string `json:"sealed,omitempty"`
}

// Rules is the alert rules section's list (none when the section is absent).
func (d *Document) Rules() []AlertRule {
	if d.AlertRules == nil {
		return nil
	}
	return *d.AlertRules
}

// Domain is a base domain services hang their hostnames from.
type Domain struct {
	ID            string             `json:"id,omitempty"`
	Name          string             `json:"name"`
	Domain        string             `json:"domain"`
	CertResolver  string             `json:"certResolver"`
	Wildcard      bool               `json:"wildcard"`
	IsDefault     bool               `json:"isDefault"`
	CertConfigs   []store.CertConfig `json:"certConfigs"`
	HTTPSRedirect bool               `json:"httpsRedirect"`
	HSTS          store.HSTS         `json:"hsts"`
}

// Service is one proxied service, with every field the panel stores.
type Service struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Domain is the base domain's host name (Domain.Domain); empty when the
	// service only has custom hostnames.
	Domain             string            `json:"domain,omitempty"`
	Hostnames          []store.Hostname  `json:"hostnames"`
	Targets            []store.Target    `json:"targets"`
	PassHostHeader     bool              `json:"passHostHeader"`
	InsecureSkipVerify bool              `json:"insecureSkipVerify"`
	Entrypoints        []string          `json:"entrypoints"`
	Rules              []store.Rule      `json:"rules"`
	Middlewares        []string          `json:"middlewares"`
	Headers            map[string]string `json:"headers"`
	// HTTPSRedirect and HSTS override the domain's defaults; nil inherits.
	HTTPSRedirect *bool       `json:"httpsRedirect"`
	HSTS          *store.HSTS `json:"hsts"`
	Kind          string      `json:"kind"` // store.KindProxy, KindRedirect, KindTCP or KindUDP
	// TCP is a tcp service's options (absent for other kinds).
	TCP          *store.TCP         `json:"tcp,omitempty"`
	Redirect     *store.Redirect    `json:"redirect,omitempty"`
	Maintenance  Maintenance        `json:"maintenance"`
	LoadBalancer store.LoadBalancer `json:"loadBalancer"`
	Enabled      bool               `json:"enabled"`
	Expiry       Expiry             `json:"expiry"`
	Protections  []Protection       `json:"protections"`
	// Access is the service's own access rules; nil has none.
	Access *ServiceAccess `json:"access,omitempty"`
	// CreatedAt orders services as the panel does (collision suffixes of
	// Traefik names follow it); kept by an import when given.
	CreatedAt *time.Time `json:"createdAt,omitempty"`
}

// Maintenance answers Message instead of the upstream while Enabled.
type Maintenance struct {
	Enabled bool   `json:"enabled"`
	Message string `json:"message"`
}

// Expiry is when a service switches itself off: Type is store.ExpiryNever,
// ExpiryAt (At) or ExpiryDuration (Seconds after EnabledAt).
type Expiry struct {
	Type      string     `json:"type"`
	At        *time.Time `json:"at,omitempty"`
	Seconds   int64      `json:"seconds,omitempty"`
	EnabledAt *time.Time `json:"enabledAt,omitempty"`
}

// Protection is one protection of a service: Type is store.SecurityBasicAuth,
// SecuritySSO, SecuritySharedLinks, SecurityTokens or SecurityEmailCode. A basic-auth protection
// names its credential set.
type Protection struct {
	Type          string         `json:"type"`
	Enabled       bool           `json:"enabled"`
	CredentialSet string         `json:"credentialSet,omitempty"`
	Settings      map[string]any `json:"settings,omitempty"`
}

// CredentialSet is a named set of basic-auth users with their password hashes
// (bcrypt, as the panel stores them).
type CredentialSet struct {
	ID    string           `json:"id,omitempty"`
	Name  string           `json:"name"`
	Users []CredentialUser `json:"users"`
}

// CredentialUser is one basic-auth user.
type CredentialUser struct {
	Username     string `json:"username"`
	PasswordHash string `json:"passwordHash"`
}

// Skipped is a part of a foreign source that a reader could not represent,
// with the reason, so the operator sees what did not come over.
type Skipped struct {
	Source string `json:"source"` // what it was, in the source's own terms: "proxy host #3 (a.example.com)"
	Reason string `json:"reason"`
	// CertResolver and Hosts, set on a router's certificate resolver that
	// did not come over, let the import say whether the panel's base domains
	// (existing or imported) already ask that resolver for these hosts.
	CertResolver string   `json:"-"`
	Hosts        []string `json:"-"`
}

// Reader turns one source file into a document and the list of what it left out.
// A file it cannot read at all is an error (the import answers 400 with it).
type Reader interface {
	// Name is the format's name in the API and CLI: "npm", "traefik".
	Name() string
	// Detect reports whether data looks like this reader's format.
	Detect(data []byte) bool
	Read(data []byte) (Document, []Skipped, error)
}
