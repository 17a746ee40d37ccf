// Package access owns access rules: each service's ordered rules and
// default action, the global rules evaluated before every service's own,
// the presets, and the rule tester. The rules are evaluated by
// access/rules; forward-auth (package forwardauth) compiles them into its policy snapshot.
package access

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// ServiceAccess is GET/PUT /api/services/{id}/access.
type ServiceAccess struct {
	ServiceID string `json:"serviceId"`
	// DefaultAction "" is automatic: authenticate when the service has a
	// protection, allow otherwise.
	DefaultAction    rules.Action `json:"defaultAction"`
	EffectiveDefault rules.Action `json:"effectiveDefault"`
	Rules            []rules.Rule `json:"rules"`
	Protections      []string     `json:"protections"`
	// Exposure is who can open the service without signing in under these
	// rules and the global ones: everyone, some or none.
	Exposure  rules.Exposure `json:"exposure"`
	GeoIP     bool           `json:"geoip"`
	Warnings  []string       `json:"warnings"`
	UpdatedAt *time.Time     `json:"updatedAt"`
}

// PutServiceAccess is the body of PUT /api/services/{id}/access.
type PutServiceAccess struct {
	DefaultAction rules.Action `json:"defaultAction"`
	Rules         []rules.Rule `json:"rules"`
	// ConfirmPublic must be true to save rules that let everyone open a
	// service that has a protection (422 on confirmPublic otherwise).
	ConfirmPublic bool `json:"confirmPublic,omitempty"`
}

// GlobalRules is GET/PUT /api/access/rules.
type GlobalRules struct {
	Rules []rules.Rule `json:"rules"`
	// ConfirmPublic (request only) must be true to save global rules that
	// let everyone open every service (422 on confirmPublic otherwise).
	ConfirmPublic bool       `json:"confirmPublic,omitempty"`
	GeoIP         bool       `json:"geoip"`
	UpdatedAt     *time.Time `json:"updatedAt,omitempty"`
}

// TestRequest is POST /api/services/{id}/access/test.
type TestRequest struct {
	Method        string `json:"method"`
	URL           string `json:"url"`
	ClientAddress string `json:"clientAddress"`
	// Person is the username the request comes from, "" for none; the
	// tester reads their groups from the directory.
	Person       string            `json:"person"`
	SecondFactor bool              `json:"secondFactor"`
	Headers      map[string]string `json:"headers"`
	// Draft, when set, is tested instead of the service's saved rules.
	Draft *PutServiceAccess `json:"draft"`
}

// TestStep is one rule as the tester saw it.
type TestStep struct {
	Scope   string       `json:"scope"`
	Index   int          `json:"index"`
	Action  rules.Action `json:"action"`
	Note    string       `json:"note,omitempty"`
	Matched bool         `json:"matched"`
	Reason  string       `json:"reason"`
}

// TestResult is the tester's answer.
type TestResult struct {
	Decision rules.Action `json:"decision"`
	// NeedsIdentity: the deciding rule names people or groups and the
	// request has no person.
	NeedsIdentity bool        `json:"needsIdentity"`
	Person        *TestPerson `json:"person,omitempty"`
	Scope         string      `json:"scope"`
	Index         int         `json:"index"`
	Reason        string      `json:"reason"`
	Path          string      `json:"path"`
	Ambiguous     bool        `json:"ambiguous"`
	Country       string      `json:"country"`
	Steps         []TestStep  `json:"steps"`
	Protections   []string    `json:"protections"`
	Warnings      []string    `json:"warnings"`
}

// TestPerson is the identity the tester evaluated.
type TestPerson struct {
	Username     string   `json:"username"`
	Groups       []string `json:"groups"`
	SecondFactor bool     `json:"secondFactor"`
}

// Presets is GET /api/access/presets.
type Presets struct {
	Items []rules.Preset `json:"items"`
}

// Snapshot is every rule list, for forward-auth's policy snapshot.
type Snapshot struct {
	Global   []rules.Rule
	Services map[string]ServiceRules
}

// ServiceRules is one service's stored rules.
type ServiceRules struct {
	Default rules.Action // "": automatic
	Rules   []rules.Rule
}
