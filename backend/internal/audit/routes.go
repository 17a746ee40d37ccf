package audit

import (
	"net/http"
	"strings"
)

// How the middleware treats a route.
type planKind int

const (
	planNone   planKind = iota // not recorded: a read, or an unknown route
	planChange                 // a write: recorded when it succeeds
	planSignIn                 // a public sign-in step: success and failure recorded
	planSkip                   // a write deliberately not recorded (Override.Skip)
)

// Override says how to record a write the generic rule does not cover. The
// generic rule: PUT, PATCH and DELETE on a route that also answers GET read
// that GET before and after; POST on a collection whose items answer GET
// (/things and /things/:id) is a create, read after from the new item.
type Override struct {
	// Read is the GET route (Echo pattern, same parameters) whose answer is
	// the resource's state before and after. Empty with NoDiff or Reported.
	// A list that grows with use does not belong here: reading it before and
	// after would make each write cost as much as the whole list.
	Read string
	// Reported records the one resource the write changed, as its handler
	// reports it with Changed: a write under a list whose items have no GET
	// of their own (a service's shared links, the API tokens).
	Reported bool
	// NoDiff records the change without a before/after.
	NoDiff bool
	// Action replaces the action derived from the method.
	Action string
	// Type replaces the resource type derived from the route.
	Type string
	// Skip leaves the route out of the log; Reason says why.
	Skip   bool
	Reason string
}

// Overrides is the table for writes without a matching GET, and for writes
// deliberately left out. TestEveryWriteIsAudited walks the route table and
// fails for a write that is neither covered by the generic rule nor listed
// here: add new routes here ("METHOD /api/path/:param").
var Overrides = map[string]Override{
	"POST /api/admin/logout":                          {NoDiff: true, Action: ActionSignOut, Type: "admin.sessions"},
	"PUT /api/admin/me/password":                      {NoDiff: true, Type: "admin.me.password"},
	"DELETE /api/admin/me/sessions/:id":               {NoDiff: true},
	"DELETE /api/portal/sessions/:id":                 {NoDiff: true, Action: ActionSignOut, Type: "people.sessions"},
	"DELETE /api/sessions/:id":                        {NoDiff: true},
	"POST /api/machine-tokens/:id/revoke":             {Read: "/api/machine-tokens/:id", Action: "revoke", Type: "machine-tokens"},
	"POST /api/services/:id/security-configs":         {Read: "/api/services/:id/security-configs", Action: ActionUpdate},
	"DELETE /api/services/:id/security-configs/:type": {Read: "/api/services/:id/security-configs"},
	// A service's links grow with use and have no GET of their own (the
	// create answer carries the link's secret URL): the link is reported.
	"POST /api/services/:id/shared-links":           {Reported: true, Action: ActionCreate},
	"DELETE /api/services/:id/shared-links/:linkId": {Reported: true},
	"PUT /api/proxy/managed/secrets":                {Read: "/api/proxy/managed"},
	// A service made from a container is recorded as the service it is
	// (so viewers' masks of services apply); a detach as the binding.
	"POST /api/containers/services":              {Reported: true, Action: ActionCreate, Type: "services"},
	"DELETE /api/containers/bindings/:serviceId": {Reported: true, Type: "containers.bindings"},
	// Two-factor enrolment: the state is the account's factor summary (no
	// secrets: it says which factors exist and how many codes are left); a
	// passkey, which has no GET of its own, is reported.
	"POST /api/admin/me/2fa/totp":                 {Skip: true, Reason: "begins an enrolment that changes nothing until confirmed"},
	"POST /api/admin/me/2fa/totp/confirm":         {Read: "/api/admin/me/2fa", Action: ActionCreate, Type: "admin.me.2fa"},
	"DELETE /api/admin/me/2fa/totp":               {Read: "/api/admin/me/2fa", Type: "admin.me.2fa"},
	"POST /api/admin/me/2fa/recovery-codes":       {Read: "/api/admin/me/2fa", Action: "regenerate", Type: "admin.me.2fa"},
	"POST /api/admin/me/passkeys/register/begin":  {Skip: true, Reason: "a registration challenge: changes nothing until finished"},
	"POST /api/admin/me/passkeys/register/finish": {Reported: true, Action: ActionCreate, Type: "admin.me.passkeys"},
	"PATCH /api/admin/me/passkeys/:id":            {Reported: true, Type: "admin.me.passkeys"},
	"DELETE /api/admin/me/passkeys/:id":           {Reported: true, Type: "admin.me.passkeys"},
	// A proof of who one is, given again: recorded when it succeeds.
	"POST /api/admin/me/reauthenticate":                {NoDiff: true, Action: "reauthenticate", Type: "admin.sessions"},
	"POST /api/admin/me/reauthenticate/passkey/begin":  {Skip: true, Reason: "a passkey challenge: changes nothing until finished"},
	"POST /api/admin/me/reauthenticate/passkey/finish": {NoDiff: true, Action: "reauthenticate", Type: "admin.sessions"},
	// Administrators and their API tokens: a password set by another
	// administrator has nothing to show; the create answer carries the token
	// once, and tokens have no GET of their own: the token is reported.
	"PUT /api/people/:id/password":           {NoDiff: true, Type: "people.password"},
	"DELETE /api/people/:id/second-factor":   {Read: "/api/people/:id", Action: "reset-second-factor", Type: "people.second-factor"},
	"DELETE /api/people/:id/linked-identity": {Read: "/api/people/:id", Action: "unlink", Type: "people.linked-identity"},
	"DELETE /api/people/:id/sessions":        {NoDiff: true, Action: ActionSignOut, Type: "people.sessions"},
	// App passwords: the created one is reported without its secret.
	"POST /api/admin/me/app-passwords":                   {Reported: true, Action: ActionCreate, Type: "people.app-passwords"},
	"DELETE /api/admin/me/app-passwords/:id":             {NoDiff: true, Type: "people.app-passwords"},
	"DELETE /api/people/:id/app-passwords/:passwordId":   {NoDiff: true, Type: "people.app-passwords"},
	"DELETE /api/people/:id/sessions/:sessionId":         {NoDiff: true, Action: ActionSignOut, Type: "people.sessions"},
	"DELETE /api/people/:id/service-sessions/:sessionId": {NoDiff: true, Action: ActionSignOut, Type: "people.sessions"},
	"POST /api/groups/:id/members":                       {Read: "/api/groups/:id", Action: ActionUpdate, Type: "groups.members"},
	"DELETE /api/groups/:id/members/:personId":           {Read: "/api/groups/:id", Action: ActionUpdate, Type: "groups.members"},
	"POST /api/admin/tokens":                             {Reported: true, Action: ActionCreate, Type: "admin.tokens"},
	"DELETE /api/admin/tokens/:id":                       {Reported: true, Action: "revoke", Type: "admin.tokens"},
	"POST /api/services/:id/access/test":                 {Skip: true, Reason: "a dry run of the access rules: changes nothing"},
	"POST /api/notifications/channels/:id/test":          {Skip: true, Reason: "sends a test message; changes only the channel's last delivery result"},
	// Exports change nothing but hand out the configuration (and, when
	// asked, its secrets): recorded. An import is recorded as one entry,
	// dry runs included (the query says which).
	"POST /api/export":                       {NoDiff: true, Action: "export", Type: "transfer"},
	"POST /api/import":                       {NoDiff: true, Action: "import", Type: "transfer"},
	"POST /api/proxy/managed/wrapper-report": {Skip: true, Reason: "the Traefik wrapper reporting what it runs: machine telemetry, no change to the panel"},
	// Visitors of a service signing in with an e-mail code are not
	// administrators changing the panel: like single sign-on's visitors,
	// their sessions show in the sessions list and their requests in the
	// access log. The protection's settings are audited with the others.
	"POST /api/auth/email-code/send":   {Skip: true, Reason: "a visitor asking for a sign-in code: no change to the panel's configuration"},
	"POST /api/auth/email-code/verify": {Skip: true, Reason: "a visitor's sign-in with a code: the session shows in the sessions list"},
	// Invitations: the list grows with use and an invitation has no GET of
	// its own (the create answer carries the link once): it is reported.
	// Accepting one and resetting a password are recorded without the
	// secrets; looking at a link and asking for a reset change nothing
	// (and a record of who asked would tell who has an account).
	"POST /api/invitations":            {Reported: true, Action: ActionCreate, Type: "invitations"},
	"DELETE /api/invitations/:id":      {Reported: true, Action: "revoke", Type: "invitations"},
	"POST /api/invitations/preview":    {Skip: true, Reason: "reads what an invitation link is for: changes nothing"},
	"POST /api/invitations/passkey":    {Skip: true, Reason: "a passkey registration challenge: changes nothing until accepted"},
	"POST /api/invitations/accept":     {NoDiff: true, Action: "accept", Type: "invitations"},
	"POST /api/password-reset/request": {Skip: true, Reason: "a visitor asking for a reset link: changes nothing until used, and a record would tell which accounts exist"},
	"POST /api/password-reset/check":   {Skip: true, Reason: "says whether a reset link works: changes nothing"},
	"POST /api/password-reset":         {NoDiff: true, Action: "reset", Type: "people.password"},
	"POST /api/registration":           {Skip: true, Reason: "a visitor asking for a registration link: changes nothing a record could show without telling which names and addresses exist; the account is audited when the link is used (invitations accept)"},
	// Backups are files, not rows: the list is their state.
	"POST /api/backups":         {Read: "/api/backups", Action: ActionCreate},
	"DELETE /api/backups/:name": {Read: "/api/backups"},
	"PUT /api/backups/schedule": {Read: "/api/backups", Type: "backups.schedule"},
}

// signInRoute reports whether a route is a public sign-in step, recorded
// whether it succeeds or fails.
func signInRoute(method, route string) bool {
	switch {
	case method == http.MethodPost && (route == "/api/admin/login" || route == "/api/admin/setup"):
		return true
	case method == http.MethodPost && strings.HasPrefix(route, "/api/admin/login/"):
		return true
	case method == http.MethodGet && (route == "/api/admin/sso/callback" || route == "/api/portal/sso/callback"):
		return true
	}
	return false
}

// plan is how one route is recorded.
type plan struct {
	kind     planKind
	action   string
	rtype    string
	read     string // GET route read before and after
	item     string // for a create: the item GET route, its last parameter the new id
	noDiff   bool
	reported bool // the handler reports the changed resource (Changed)
}

// routeSet is the registered routes as "METHOD /path" keys.
type routeSet map[string]bool

// classify says how a registered route is recorded; ok is false for a write
// that neither the generic rule nor Overrides covers.
func classify(method, route string, routes routeSet) (p plan, ok bool) {
	if signInRoute(method, route) {
		return plan{kind: planSignIn, rtype: "admin.sessions"}, true
	}
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return plan{kind: planNone}, true
	}
	if !strings.HasPrefix(route, "/api/") {
		return plan{kind: planNone}, true
	}
	p = plan{kind: planChange, rtype: resourceType(route), action: methodAction(method)}
	if o, found := Overrides[method+" "+route]; found {
		if o.Skip {
			return plan{kind: planSkip}, true
		}
		p.read, p.noDiff, p.reported = o.Read, o.NoDiff, o.Reported
		if o.Action != "" {
			p.action = o.Action
		}
		if o.Type != "" {
			p.rtype = o.Type
		}
		return p, o.NoDiff || o.Reported || routes["GET "+o.Read]
	}
	if !routes["GET "+route] {
		return p, false
	}
	if method != http.MethodPost {
		p.read = route
		return p, true
	}
	// A create: the collection's items must answer GET.
	for r := range routes {
		rest, found := strings.CutPrefix(r, "GET "+route+"/:")
		if found && !strings.Contains(rest, "/") {
			p.item = strings.TrimPrefix(r, "GET ")
			return p, true
		}
	}
	return p, false
}

func methodAction(method string) string {
	switch method {
	case http.MethodPost:
		return ActionCreate
	case http.MethodDelete:
		return ActionDelete
	}
	return ActionUpdate
}

// ResourceType is the resource type the log names a route's entries by
// (unless Overrides names another).
func ResourceType(route string) string { return resourceType(route) }

// resourceType is the route's fixed segments after /api, joined by dots:
// "/api/services/:id/access" is "services.access".
func resourceType(route string) string {
	var parts []string
	for _, s := range strings.Split(strings.TrimPrefix(route, "/api/"), "/") {
		if s != "" && !strings.HasPrefix(s, ":") && s != "*" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ".")
}

// Coverage checks a route table: for every write it returns a problem when
// the route is neither covered by the generic rule nor in Overrides, and
// for every override entry that names no registered route.
func Coverage(routes []string) []string {
	set := routeSet{}
	for _, r := range routes {
		set[r] = true
	}
	var problems []string
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		if !strings.HasPrefix(path, "/api/") {
			continue
		}
		if _, ok := classify(method, path, set); !ok {
			problems = append(problems, r+": not audited; add it to audit.Overrides (a read route, Reported, NoDiff, or Skip with a reason)")
		}
	}
	for k, o := range Overrides {
		if !set[k] {
			problems = append(problems, k+": in audit.Overrides but not a registered route")
		}
		if o.Skip && o.Reason == "" {
			problems = append(problems, k+": skipped without a reason")
		}
		if o.Reported && (o.Read != "" || o.NoDiff) {
			problems = append(problems, k+": Reported with a read route or NoDiff: say one")
		}
	}
	return problems
}
