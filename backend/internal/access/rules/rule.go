// Package rules is the access-rule engine of forward-auth: ordered
// rules with conditions on the request (path, method, client address,
// country, headers), compiled once per policy snapshot and evaluated on
// every verify call without allocating.
//
// The first rule whose conditions all match decides; when none matches,
// the default action does. Conditions of one kind are alternatives (any
// path, any method, any source, any country); different kinds, and each
// header condition, must all match.
//
// Matching is asymmetric on purpose. An allow rule lets a request through
// without identity, so it matches narrowly: the path must be unambiguous
// (no dot segments, duplicate slashes, backslashes, ';' parameters or
// encoded separators that an upstream could read differently) and compare
// case-sensitively. Deny and authenticate rules match broadly: against every
// plausible reading of the path, ignoring case, with HEAD counted as GET.
// A request can therefore never slip past a restrictive rule into an allow
// rule by spelling its path differently.
//
// Identity conditions (people, groups, second factor) are checked last. A
// request that carries no person cannot be judged by them, so a rule whose
// other conditions match stops it with Authenticate and NeedsIdentity set:
// the request must sign in as a person and is then evaluated again. No
// rule with identity conditions ever lets an anonymous request through or
// lets it fall through to a later, wider rule.
package rules

// Action is what a rule decides.
type Action string

// The actions.
const (
	Allow        Action = "allow"        // let through without identity
	Deny         Action = "deny"         // 403
	Authenticate Action = "authenticate" // require one of the service's protections
)

// Path match types.
const (
	PathExact  = "exact"
	PathPrefix = "prefix"
	PathGlob   = "glob"
	PathRegex  = "regex"
)

// Header match types.
const (
	HeaderPresent  = "present"
	HeaderEquals   = "equals"
	HeaderContains = "contains"
)

// Source shortcuts usable in Rule.Sources.
const (
	SourcePrivate  = "private"  // RFC 1918, RFC 4193 and link-local ranges
	SourceLoopback = "loopback" // 127.0.0.0/8 and ::1
)

// Rule is one access rule as stored and exchanged with the API.
type Rule struct {
	Action    Action        `json:"action"`
	Note      string        `json:"note,omitempty"`
	Paths     []PathMatch   `json:"paths,omitempty"`
	Methods   []string      `json:"methods,omitempty"`
	Sources   []string      `json:"sources,omitempty"`
	Countries []string      `json:"countries,omitempty"`
	Headers   []HeaderMatch `json:"headers,omitempty"`
	// Identity conditions: who the request comes from. People are
	// usernames, Groups group names; SecondFactor asks for a sign-in with
	// a second factor or a passkey. A request without a person (anonymous,
	// basic-auth credential set, machine token, shared link) cannot meet
	// them: when every other condition matches, the rule asks it to sign in
	// as a person (Decision.NeedsIdentity) whatever its action.
	People       []string `json:"people,omitempty"`
	Groups       []string `json:"groups,omitempty"`
	SecondFactor bool     `json:"secondFactor,omitempty"`
}

// HasIdentity reports whether r has identity conditions.
func (r *Rule) HasIdentity() bool { return len(r.People) > 0 || len(r.Groups) > 0 || r.SecondFactor }

// PathMatch is one path condition.
type PathMatch struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// HeaderMatch is one request-header condition. Headers are set by the
// client: they select clients (a user agent), they never prove anything.
type HeaderMatch struct {
	Name  string `json:"name"`
	Match string `json:"match,omitempty"` // present (default), equals, contains
	Value string `json:"value,omitempty"`
}

// Limits of a rule list.
const (
	MaxRules      = 100
	MaxConditions = 50 // per kind, per rule
	MaxNote       = 200
	MaxPathValue  = 512
	MaxHeaderVal  = 512
)

// EffectiveDefault is a service's default action: the one set, else
// authenticate when the service has a protection and allow when it has none.
func EffectiveDefault(set Action, protected bool) Action {
	switch {
	case set != "":
		return set
	case protected:
		return Authenticate
	default:
		return Allow
	}
}

// Trivial reports a rule set that lets every request through without
// identity: only allow rules and an allow default. Such a service needs no
// forward-auth at all.
func Trivial(global, own []Rule, def Action) bool {
	if def != Allow {
		return false
	}
	for _, list := range [2][]Rule{global, own} {
		for _, r := range list {
			if r.Action != Allow {
				return false
			}
		}
	}
	return true
}
