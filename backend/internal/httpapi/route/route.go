// Package route declares who may call each /api route where the route is
// registered, as pocket-id's authz package does. A feature's Register hands
// every route to a Registrar with its access class; the Registrar mounts it
// on Echo and records it in the Table that the API's guard, its body limits
// and its role check (package httpapi) consult, and that the route-walk
// tests read. A route registered without a class is Guarded: a new route is
// closed until someone decides otherwise, at the line that registers it.
package route

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// Class says who may call a route.
type Class uint8

const (
	// Guarded routes need an administrator's session or an API token:
	// the admin role may call them, the viewer role may read. The default.
	Guarded Class = iota
	// Public routes answer without a session: each has its own guard, or
	// needs none. The reason says which.
	Public
	// Machine routes answer the programs that run beside the panel
	// (Traefik, the managed-mode wrapper), which hold their own
	// credentials, not a session. The reason says which, and their guard.
	Machine
	// SelfService routes act on the signed-in administrator's own account:
	// any role may use them for itself. A token is not a person: it may not.
	SelfService
	// SecretRead routes are reads a viewer may not make; the reason says
	// what secret they show. Every other read is open to a viewer.
	SecretRead
	// PersonOnly routes are writes no API token may make, whatever its
	// role; the reason says what they govern. Together they are who may
	// sign in to the panel and how: with any of them a leaked token could
	// leave behind a way in that outlives its revocation (a new
	// administrator or token, a password it knows, a rule that creates
	// administrators, an OpenID provider it runs). Import decides by its
	// plan (package transfer): a token's import may change none of these.
	PersonOnly
)

func (c Class) String() string {
	switch c {
	case Guarded:
		return "guarded"
	case Public:
		return "public"
	case Machine:
		return "machine"
	case SelfService:
		return "self-service"
	case SecretRead:
		return "secret read"
	case PersonOnly:
		return "person only"
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// Because declares the class with its reason: a public or machine route's
// own guard, the secret a secret read shows, what a person-only write
// governs.
func (c Class) Because(reason string) Option { return reasoned{class: c, reason: reason} }

// Flag is something about a route other than who may call it.
type Flag uint8

const (
	// OwnBodyLimit says the handler bounds the body itself, instead of
	// the API's 1 MiB (an import carries whole configuration files).
	OwnBodyLimit Flag = 1 << iota
	// Polled says machines call the route all day (Traefik, the wrapper,
	// health checks), so the request log shows it at debug level and
	// keeps the log for what people do.
	Polled
	// Portal says the route answers on the sign-in portal's host too.
	// That host serves only what a person needs to sign in and manage
	// their own account (sign-in, the account, the launcher, invitations,
	// password resets, the exchange hop to each service): every route
	// without this flag answers 404 there, whatever its class, so no
	// administration route can be reached through it.
	Portal
)

// An Option declares something about a route: its class (SelfService,
// or a class with its reason: Public.Because(...)) or a Flag.
type Option interface {
	// apply declares the option on r and says whether it was a class.
	apply(r *Rule) (class bool)
}

func (c Class) apply(r *Rule) bool {
	r.Class, r.Reason = c, ""
	return true
}

func (f Flag) apply(r *Rule) bool {
	r.Flags |= f
	return false
}

type reasoned struct {
	class  Class
	reason string
}

func (o reasoned) apply(r *Rule) bool {
	r.Class, r.Reason = o.class, o.reason
	return true
}

// Rule is what registration declared about one route.
type Rule struct {
	Method string
	// Path is Echo's route pattern ("/api/services/:id").
	Path   string
	Class  Class
	Reason string
	Flags  Flag
}

// Open reports whether the route answers without a session or an API
// token: a public or machine route.
func (r Rule) Open() bool { return r.Class == Public || r.Class == Machine }

// Has reports whether the route carries f.
func (r Rule) Has(f Flag) bool { return r.Flags&f != 0 }

func (r Rule) String() string { return r.Method + " " + r.Path }

// check refuses a declaration that cannot mean what it says. These are
// mistakes in the code, found when the server is built.
func (r Rule) check(classes int) error {
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	switch {
	case classes > 1:
		return fmt.Errorf("route %s: more than one class declared", r)
	case r.Reason == "" && r.Class != Guarded && r.Class != SelfService:
		return fmt.Errorf("route %s: a %s route says why (Because)", r, r.Class)
	case r.Class == SecretRead && !read:
		return fmt.Errorf("route %s: only a read is a secret read", r)
	case r.Class == PersonOnly && read:
		return fmt.Errorf("route %s: person-only governs writes; reads stay open to tokens", r)
	}
	return nil
}

// Table holds the rule of every route registered through a Registrar.
// It is filled while the server is built and only read afterwards.
type Table struct {
	rules map[key]Rule
}

// key is a route's method and pattern: a struct, so that a lookup on
// every request allocates nothing.
type key struct{ method, path string }

// NewTable returns an empty table.
func NewTable() *Table { return &Table{rules: map[key]Rule{}} }

// Rule returns the rule of method on the route pattern path. A route the
// table does not know (an unknown path, a method the route does not take,
// a route mounted around the Registrar) is Guarded.
func (t *Table) Rule(method, path string) Rule {
	if r, ok := t.rules[key{method, path}]; ok {
		return r
	}
	return Rule{Method: method, Path: path, Class: Guarded}
}

// Rules returns every rule, sorted by path and method.
func (t *Table) Rules() []Rule {
	out := make([]Rule, 0, len(t.rules))
	for _, r := range t.rules {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Rule) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return out
}

func (t *Table) add(r Rule) error {
	k := key{r.Method, r.Path}
	if _, dup := t.rules[k]; dup {
		return fmt.Errorf("route %s: registered twice", r)
	}
	t.rules[k] = r
	return nil
}

// Registrar mounts a feature's routes on the /api group and records in
// its Table who may call each.
type Registrar struct {
	g *echo.Group
	t *Table
}

// NewRegistrar mounts routes on g and records them in t.
func NewRegistrar(g *echo.Group, t *Table) *Registrar { return &Registrar{g: g, t: t} }

// Add mounts h for method on path (relative to the group: "/services/:id")
// with what opts declare. A declaration that cannot mean what it says
// panics, as Echo does for a malformed route: the server is being built.
func (r *Registrar) Add(method, path string, h echo.HandlerFunc, opts ...Option) {
	route := r.g.Add(method, path, h)
	rule := Rule{Method: method, Path: route.Path, Class: Guarded}
	classes := 0
	for _, o := range opts {
		if o.apply(&rule) {
			classes++
		}
	}
	err := rule.check(classes)
	if err == nil {
		err = r.t.add(rule)
	}
	if err != nil {
		panic(err)
	}
}

// GET mounts a read (see Add).
func (r *Registrar) GET(path string, h echo.HandlerFunc, opts ...Option) {
	r.Add(http.MethodGet, path, h, opts...)
}

// POST mounts a write (see Add).
func (r *Registrar) POST(path string, h echo.HandlerFunc, opts ...Option) {
	r.Add(http.MethodPost, path, h, opts...)
}

// PUT mounts a write (see Add).
func (r *Registrar) PUT(path string, h echo.HandlerFunc, opts ...Option) {
	r.Add(http.MethodPut, path, h, opts...)
}

// PATCH mounts a write (see Add).
func (r *Registrar) PATCH(path string, h echo.HandlerFunc, opts ...Option) {
	r.Add(http.MethodPatch, path, h, opts...)
}

// DELETE mounts a write (see Add).
func (r *Registrar) DELETE(path string, h echo.HandlerFunc, opts ...Option) {
	r.Add(http.MethodDelete, path, h, opts...)
}
