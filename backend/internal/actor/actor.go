// Package actor names who is behind a request to the API: a signed-in
// administrator, an administrator's API token, or the panel itself (the CLI,
// an import, a background job). Guards put the actor in the request's
// context; the role check, the audit log and handlers read it from there.
package actor

import (
	"context"
	"slices"
)

// Role is what an actor may do.
type Role string

const (
	// RoleAdmin may do everything.
	RoleAdmin Role = "admin"
	// RoleViewer may read everything but secret-bearing pages, and write nothing.
	RoleViewer Role = "viewer"
)

// Roles lists every role, the most powerful first.
var Roles = []Role{RoleAdmin, RoleViewer}

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// Kind says what sort of actor made a request.
type Kind string

// The kinds of actor.
const (
	KindAdmin  Kind = "admin"  // a signed-in administrator
	KindToken  Kind = "token"  // an administrator API token
	KindSystem Kind = "system" // the panel itself: CLI, import, background job
)

// Actor is who made a request.
type Actor struct {
	Kind Kind
	// ID and Name identify the administrator (KindAdmin) or the token
	// (KindToken); for KindSystem, Name says which part of the panel acted
	// (for example "cli").
	ID   string
	Name string
	Role Role
	// Address is the client's address as the panel sees it; empty for KindSystem.
	Address string
}

// System is the panel acting on its own behalf; name says which part.
func System(name string) Actor { return Actor{Kind: KindSystem, Name: name, Role: RoleAdmin} }

type ctxKey struct{}

// With returns a copy of ctx carrying a.
func With(ctx context.Context, a Actor) context.Context { return context.WithValue(ctx, ctxKey{}, a) }

// From returns the actor ctx carries, if any.
func From(ctx context.Context) (Actor, bool) {
	a, ok := ctx.Value(ctxKey{}).(Actor)
	return a, ok
}
