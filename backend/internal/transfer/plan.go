package transfer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// Import modes.
const (
	ModeMerge   = "merge"   // create and update what the document has; leave the rest
	ModeReplace = "replace" // also delete what the document does not have
)

// Actions of a plan item.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionUnchanged = "unchanged"
	ActionDelete    = "delete"
	ActionRefused   = "refused"
)

// Item kinds.
const (
	KindDomain        = "domain"
	KindService       = "service"
	KindCredentialSet = "credentialSet"
	KindMachineToken  = "machineToken"
	KindNotifyChannel = "notifyChannel"
	KindSettings      = "settings"
	KindSSO           = "sso"
	KindAdminSSO      = "adminSso"
	KindPortal        = "portal"
	KindAdminSecurity = "adminSecurity"
	KindAccessRules   = "accessRules"
	KindManaged       = "managed"
	KindDNSCredential = "dnsCredential" //nolint:gosec // a kind's name, not a credential
	KindAdmin         = "admin"
	KindGroup         = "group"
	KindOIDCClient    = "oidcClient"
	KindAlertRule     = "alertRule"
)

// Item is one planned change.
type Item struct {
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	Action string   `json:"action"`
	Reason string   `json:"reason,omitempty"`
	Fields []string `json:"fields,omitempty"`
	// Details say what a service or domain is or becomes (see details).
	Details []string `json:"details,omitempty"`
	// ID is the row an applied create or update wrote, for a link to it;
	// a dry run leaves it out.
	ID string `json:"id,omitempty"`

	// id, before and after are the item as its audit entry shows it
	// (before or after nil when absent); they never reach the plan's JSON.
	id            string
	before, after any
	// sealed names the secret fields a create sets (they travel sealed).
	sealed []string
}

// withSealed notes the secret fields a create sets.
func (it Item) withSealed(fields ...string) Item {
	it.sealed = fields
	return it
}

// state sets what the item's audit entry shows: the row's id and the item
// as it was and as it will be (nil when absent).
func (it Item) state(id string, before, after any) Item {
	it.id, it.before, it.after = id, before, after
	if it.Action == ActionCreate || it.Action == ActionUpdate {
		it.Details = details(before, after)
	}
	return it
}

// Summary counts the items by action, and the skipped parts of the source.
type Summary struct {
	Create    int `json:"create"`
	Update    int `json:"update"`
	Unchanged int `json:"unchanged"`
	Delete    int `json:"delete"`
	Refused   int `json:"refused"`
	Skipped   int `json:"skipped"`
}

// Plan is the answer of an import, dry run or applied.
type Plan struct {
	Format  string             `json:"format"`
	Mode    string             `json:"mode"`
	Applied bool               `json:"applied"`
	Digest  string             `json:"digest"`
	Summary Summary            `json:"summary"`
	Items   []Item             `json:"items"`
	Skipped []document.Skipped `json:"skipped"`
}

// op is one write of a plan, run inside the apply transaction.
type op func(tx *gorm.DB) error

// planner compares a document with the database, item by item.
type planner struct {
	s      *Service
	ctx    context.Context
	tx     *gorm.DB
	st     *state
	doc    *document.Document
	sec    *document.Secrets // nil without sealed secrets
	mode   string
	actor  string // username of the administrator importing ("" for the CLI)
	now    time.Time
	items  []Item
	early  []op // deletes that free names and hostnames: before the writes
	writes []op // creates and updates, in dependency order
	drops  []op // deletes of what the writes may still use: after them
	events []change.Event
	ended  admin.EndedSessions // portal sessions the import ended

	domainID  map[string]string // host name -> id, existing or planned
	domainBad map[string]string // host name -> why it was refused
	setID     map[string]string // credential set name -> id
	setBad    map[string]string
	serviceID map[string]string // service name -> id
	personID  map[string]string // username -> id, existing or planned
	groupID   map[string]string // lower-case group name -> id, existing or planned
	usedIDs   map[string]bool   // ids planned for new rows
	// domainUser: a domain id a planned service will use -> that service.
	domainUser map[string]string
}

func (p *planner) add(it Item, w op) {
	p.items = append(p.items, it)
	if w != nil && it.Action != ActionRefused && it.Action != ActionUnchanged {
		switch {
		case it.Action == ActionDelete && (it.Kind == KindDomain || it.Kind == KindCredentialSet):
			p.drops = append(p.drops, w)
		case it.Action == ActionDelete:
			p.early = append(p.early, w)
		default:
			p.writes = append(p.writes, w)
		}
	}
}

func refused(kind, name string, err error) Item {
	return Item{Kind: kind, Name: name, Action: ActionRefused, Reason: reason(err)}
}

// reason renders a validation error as one line naming its fields.
func reason(err error) string {
	e, ok := apperr.As(err)
	if !ok {
		return err.Error()
	}
	if len(e.Fields) == 0 {
		return e.Message
	}
	out := ""
	for i, f := range e.Fields {
		if i > 0 {
			out += "; "
		}
		if f.Field != "" {
			out += f.Field + ": "
		}
		out += f.Message
	}
	return out
}

// newID keeps the document's id when no row (of any kind planned here)
// has it, so an export imported into an empty panel keeps its ids.
func (p *planner) newID(want string, taken func(string) bool) string {
	if want != "" && len(want) <= 64 && !p.usedIDs[want] && !taken(want) {
		p.usedIDs[want] = true
		return want
	}
	for {
		id := newID()
		if !p.usedIDs[id] && !taken(id) {
			p.usedIDs[id] = true
			return id
		}
	}
}

// build plans the whole document.
func (p *planner) build() error {
	p.domainID, p.domainBad = map[string]string{}, map[string]string{}
	p.setID, p.setBad = map[string]string{}, map[string]string{}
	p.serviceID, p.usedIDs, p.domainUser = map[string]string{}, map[string]bool{}, map[string]string{}
	for _, d := range p.st.domainRows {
		p.domainID[d.Domain] = d.ID
	}
	for _, cs := range p.st.sets {
		p.setID[cs.Name] = cs.ID
	}
	for _, sv := range p.st.serviceRows {
		p.serviceID[sv.Name] = sv.ID
	}
	p.planDomains()
	p.planCredentialSets()
	if err := p.planServices(); err != nil {
		return err
	}
	p.planMachineTokens()
	p.planChannels()
	if err := p.planConfig(); err != nil {
		return err
	}
	p.planAdmins()
	p.planGroups()
	p.planOIDCClients()
	if err := p.planAlertRules(); err != nil {
		return err
	}
	if p.mode == ModeReplace {
		p.planDeletes()
	}
	return nil
}

// finish fills the summary and the digest.
func (p *planner) finish(format string, skipped []document.Skipped) *Plan {
	pl := &Plan{Format: format, Mode: p.mode, Items: p.items, Skipped: skipped}
	if pl.Items == nil {
		pl.Items = []Item{}
	}
	if pl.Skipped == nil {
		pl.Skipped = []document.Skipped{}
	}
	for _, it := range pl.Items {
		switch it.Action {
		case ActionCreate:
			pl.Summary.Create++
		case ActionUpdate:
			pl.Summary.Update++
		case ActionUnchanged:
			pl.Summary.Unchanged++
		case ActionDelete:
			pl.Summary.Delete++
		case ActionRefused:
			pl.Summary.Refused++
		}
	}
	pl.Summary.Skipped = len(pl.Skipped)
	pl.Digest = digest(pl)
	return pl
}

// digest fingerprints what a plan would do: the same document against the
// same database gives the same digest, so an apply can refuse a plan that
// changed since it was reviewed.
func digest(pl *Plan) string {
	b, _ := json.Marshal(struct {
		Format, Mode string
		Items        []Item
		Skipped      []document.Skipped
	}{pl.Format, pl.Mode, pl.Items, pl.Skipped})
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// diff names the JSON fields whose values differ between a and b (structs
// of the same type), leaving out ignore.
func diff(a, b any, ignore ...string) []string {
	var ma, mb map[string]json.RawMessage
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	var out []string
	keys := map[string]bool{}
	for k := range ma {
		keys[k] = true
	}
	for k := range mb {
		keys[k] = true
	}
	for k := range keys {
		if slices.Contains(ignore, k) {
			continue
		}
		if string(canonical(ma[k])) != string(canonical(mb[k])) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func action(exists bool, fields []string) string {
	switch {
	case !exists:
		return ActionCreate
	case len(fields) > 0:
		return ActionUpdate
	}
	return ActionUnchanged
}

// dupes reports names listed twice in a document section.
func dupes[T any](list []T, name func(T) string) map[string]bool {
	seen, out := map[string]bool{}, map[string]bool{}
	for _, v := range list {
		n := name(v)
		if seen[n] {
			out[n] = true
		}
		seen[n] = true
	}
	return out
}

var newID = store.NewID

// saveRow inserts or rewrites one row (every column but created_at).
func saveRow(tx *gorm.DB, row any, create bool) error {
	if create {
		return tx.Create(row).Error
	}
	return tx.Select("*").Omit("created_at").Save(row).Error
}

// bcryptHash reports whether h is a bcrypt hash the panel can check.
func bcryptHash(h string) bool {
	if !strings.HasPrefix(h, "$2a$") && !strings.HasPrefix(h, "$2b$") && !strings.HasPrefix(h, "$2y$") {
		return false
	}
	_, err := bcrypt.Cost([]byte(h))
	return err == nil
}
