// Package audit keeps the audit log: who changed what through the API, the
// CLI or an import, every sign-in and failed sign-in, with a redacted
// before/after diff. Entries form a hash chain so that editing, deleting or
// reordering them shows when the chain is verified.
package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Actions the log uses beyond the HTTP-derived ones.
const (
	ActionCreate       = "create"
	ActionUpdate       = "update"
	ActionDelete       = "delete"
	ActionSignIn       = "signin"
	ActionSignInFailed = "signin_failed"
	// ActionSignInStep is a sign-in step that succeeded without opening a
	// session yet (for example a password accepted, a second factor pending).
	ActionSignInStep = "signin_step"
	ActionSetup      = "setup"
	ActionSignOut    = "signout"
)

// Change is one changed JSON leaf: its path (JSON names, "targets[0].port",
// "items[id=x].note") and the values before and after (null when absent).
type Change struct {
	Path   string `json:"path"`
	Before any    `json:"before"`
	After  any    `json:"after"`
}

// Entry is what a caller records. The recorder fills the actor from the
// context, the time, the sequence number and the hashes.
type Entry struct {
	Action       string
	ResourceType string
	ResourceID   string
	ResourceName string
	Method       string // HTTP method, for API entries
	Route        string // Echo route pattern, for API entries
	Status       int    // HTTP status, for API entries
	Changes      []Change
	// Actor, if set, overrides the context's actor (sign-in routes have no
	// actor in the context yet).
	Actor *ActorInfo
}

// ActorInfo is who an entry names.
type ActorInfo struct {
	Kind    string `json:"kind"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Address string `json:"address"`
}

// row is the audit_entries table.
type row struct {
	ID           string    `gorm:"primaryKey"`
	Seq          int64     `gorm:"column:seq"`
	At           time.Time `gorm:"column:at"`
	ActorKind    string
	ActorID      string
	ActorName    string
	Address      string
	Action       string
	ResourceType string
	ResourceID   string
	ResourceName string
	Method       string
	Route        string
	Status       int
	Diff         string
	PrevHash     string
	Hash         string
}

func (row) TableName() string { return "audit_entries" }

// computeHash is SHA-256 over a canonical encoding of every field but the
// hash itself: a JSON array in a fixed order, the time as Unix milliseconds
// (what the database keeps exactly). The encoding never changes once
// entries exist; a new field would be appended with its own version.
func (r *row) computeHash() string {
	b, _ := json.Marshal([]any{ //nolint:errchkjson // strings and integers always encode
		"v1", r.ID, r.Seq, r.At.UnixMilli(), r.ActorKind, r.ActorID, r.ActorName, r.Address,
		r.Action, r.ResourceType, r.ResourceID, r.ResourceName, r.Method, r.Route, r.Status,
		r.Diff, r.PrevHash,
	})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
