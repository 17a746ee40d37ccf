package transfer

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
)

// personAccess names, for each kind that governs who may sign in to the
// panel and how, the document section it comes from. The same things are
// person-only routes of the API (route.PersonOnly): an API token may not change
// them, so a leaked token cannot leave a way in that outlives its
// revocation (an administrator, a password it knows, a rule that creates
// administrators, an OpenID provider it runs).
var personAccess = map[string]string{
	KindAdmin:         "admins",
	KindGroup:         "groups",
	KindAdminSSO:      "config.adminSso",
	KindAdminSecurity: "config.requireTwoFactor",
	KindSSO:           "config.sso",
	// Where and for how long people sign in (PUT /api/config/portal is
	// person-only too).
	KindPortal: "config.portal",
	// Which apps people sign in to, who may, and the secrets apps hold
	// (the /api/oidc/clients writes are person-only too).
	KindOIDCClient: "oidcClients",
}

// mayChangePersonAccess reports whether the actor importing may change
// person access: a signed-in administrator or the panel itself (the
// command line). An API token, or a context naming nobody, may not.
func mayChangePersonAccess(ctx context.Context) bool {
	a, ok := actor.From(ctx)
	return ok && (a.Kind == actor.KindAdmin || a.Kind == actor.KindSystem)
}

// refusePersonAccess answers forbidden, naming each section, when the
// plan would change person access and the importer may not. Dry runs get
// the same answer: the plan a token sees is never one it could apply.
func refusePersonAccess(ctx context.Context, items []Item) error {
	if mayChangePersonAccess(ctx) {
		return nil
	}
	var fields []apperr.FieldError
	for _, it := range items {
		section, ok := personAccess[it.Kind]
		if !ok || !changes(it.Action) {
			continue
		}
		if slices.ContainsFunc(fields, func(f apperr.FieldError) bool { return f.Field == section }) {
			continue
		}
		fields = append(fields, apperr.FieldError{Field: section,
			Message: "an API token cannot change administrators, their passwords or the panel's sign-in settings; import this section signed in"})
	}
	if len(fields) == 0 {
		return nil
	}
	e := apperr.Forbidden("the file changes who may sign in to the panel: an API token cannot import that; sign in, or leave those sections out")
	e.Fields = fields
	return e
}

func changes(action string) bool {
	return action == ActionCreate || action == ActionUpdate || action == ActionDelete
}

// auditTypes are the audit log's resource types of the import's kinds: the
// ones the API's own entries for the same things use.
var auditTypes = map[string]string{ //nolint:gosec // resource type names, not credentials
	KindDomain:        "domains",
	KindService:       "services",
	KindCredentialSet: "credential-sets",
	KindMachineToken:  "machine-tokens",
	KindNotifyChannel: "notifications.channels",
	KindSettings:      "config",
	KindSSO:           "sso",
	KindAdminSSO:      "admin.sso",
	KindPortal:        "config.portal",
	KindAdminSecurity: "admin.security",
	KindAccessRules:   "access.rules",
	KindManaged:       "proxy.managed",
	KindDNSCredential: "proxy.managed.secrets",
	KindAdmin:         "people",
	KindGroup:         "groups",
	KindOIDCClient:    "oidc.clients",
	KindAlertRule:     "alerts.rules",
}

// secretFields are the items' fields whose values are secrets that travel
// sealed: their entries say they changed, never what to.
var secretFields = []string{"password", "value", "secrets", "clientSecret", "secret"}

// record appends one audit entry per created, updated or deleted item, with
// its diff, through tx: the entries commit or roll back with the import.
func (p *planner) record(tx *gorm.DB) error {
	for _, it := range p.items {
		if !changes(it.Action) {
			continue
		}
		e := audit.Entry{Action: it.Action, ResourceType: auditTypes[it.Kind], ResourceID: it.id, ResourceName: it.Name,
			Changes: itemChanges(it)}
		if e.ResourceType == "" {
			e.ResourceType = it.Kind
		}
		if err := audit.Record(p.ctx, tx, e); err != nil {
			return fmt.Errorf("record %s %q in the audit log: %w", it.Kind, it.Name, err)
		}
	}
	return nil
}

// itemChanges is the item's redacted diff. Values the panel treats as
// secret are replaced here, whatever the log's own redaction does: header
// values services send upstream, password hashes, and the sealed fields.
func itemChanges(it Item) []audit.Change {
	out := audit.Diff(decoded(it.before), decoded(it.after))
	for i, c := range out {
		if secretPath(it.Kind, c.Path) {
			out[i].Before, out[i].After = redacted(c.Before), redacted(c.After)
		}
	}
	for _, f := range it.Fields {
		if slices.Contains(secretFields, f) {
			out = append(out, audit.Change{Path: f, Before: audit.Redacted, After: audit.Redacted})
		}
	}
	if it.Action == ActionCreate {
		for _, f := range it.sealed {
			out = append(out, audit.Change{Path: f, Before: nil, After: audit.Redacted})
		}
	}
	return out
}

func secretPath(kind, path string) bool {
	if kind == KindService && (path == "headers" || strings.HasPrefix(path, "headers.")) {
		return true
	}
	return strings.Contains(strings.ToLower(path), "passwordhash")
}

func redacted(v any) any {
	if v == nil {
		return nil
	}
	return audit.Redacted
}

// decoded turns v into decoded JSON (maps, lists, strings, numbers), the
// shape audit.Diff compares.
func decoded(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}
