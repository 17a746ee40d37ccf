// Package viewmask is the one rule for what a viewer may not read: each
// resource declares the JSON fields of its representation that are secret
// for viewers, the resource's own view hides them with Apply, and the audit
// log hides the same fields in the changes it shows a viewer with
// Change. Matching is by field, never by guessing from key names.
package viewmask

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

// Hidden stands for a value a viewer may not read.
const Hidden = "[hidden]"

// Paths are the fields of a JSON representation a viewer may not read.
// A path is JSON names joined by dots; "*" is every key of an object (the
// values of a map such as "headers.*"); a "[*]" suffix is every element of
// a list ("rules[*].headers.*"). The path "*" alone hides the whole
// representation (a page a viewer may not open at all).
type Paths []string

// Whole hides every field: the resource's page refuses viewers.
var Whole = Paths{"*"}

// All reports whether p hides every field.
func (p Paths) All() bool {
	for _, x := range p {
		if x == "*" {
			return true
		}
	}
	return false
}

// Hides reports whether the reader in ctx must not see p's fields: anyone
// but a known actor with the admin role (fail closed).
func Hides(ctx context.Context) bool {
	a, ok := actor.From(ctx)
	return !ok || a.Role != actor.RoleAdmin
}

// token is one step of a path.
type token struct {
	name     string // an object key; "" with anyKey or anyIndex
	anyKey   bool
	anyIndex bool
}

func parse(path string) []token {
	var out []token
	for _, seg := range strings.Split(path, ".") {
		name, list := strings.CutSuffix(seg, "[*]")
		if name == "*" {
			out = append(out, token{anyKey: true})
		} else {
			out = append(out, token{name: name})
		}
		if list {
			out = append(out, token{anyIndex: true})
		}
	}
	return out
}

// Apply returns a copy of decoded JSON v with the values at p replaced by
// Hidden (null stays null: "not set" is no secret).
func (p Paths) Apply(v any) any {
	for _, path := range p {
		v = apply(v, parse(path))
	}
	return v
}

// ApplyTo hides p's fields in a value the API is about to send: it is
// encoded, masked and returned as decoded JSON, ready for c.JSON.
func (p Paths) ApplyTo(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode view: %w", err)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("decode view: %w", err)
	}
	return p.Apply(d), nil
}

func apply(v any, toks []token) any {
	if v == nil {
		return nil
	}
	if len(toks) == 0 {
		return Hidden
	}
	t, rest := toks[0], toks[1:]
	switch x := v.(type) {
	case map[string]any:
		if t.anyIndex {
			return v
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			if t.anyKey || k == t.name {
				e = apply(e, rest)
			}
			out[k] = e
		}
		return out
	case []any:
		if !t.anyIndex {
			return v
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = apply(e, rest)
		}
		return out
	}
	return v
}

// Change hides p's fields in one change of the audit log: path is the
// change's path in the representation ("headers.Authorization",
// "targets[0].port", "items[id=x].note"), before and after its values.
// A change at or under a hidden field shows Hidden for each value that is
// set; a change above one (a whole object added) has the hidden fields
// inside its values masked, and a value that is no longer structured
// there (shortened to text) is hidden whole.
func (p Paths) Change(path string, before, after any) (any, any) {
	for _, pat := range p {
		rest, ok := match(parse(pat), path)
		if !ok {
			continue
		}
		before, after = maskAt(before, rest), maskAt(after, rest)
	}
	return before, after
}

func maskAt(v any, rest []token) any {
	switch v.(type) {
	case nil:
		return nil
	case map[string]any, []any:
		return apply(v, rest)
	}
	return Hidden
}

// match consumes path with toks. ok is false when the path is beside the
// hidden field; rest is what remains of toks when the path ends above it
// (nil when the path is at or under it).
func match(toks []token, path string) (rest []token, ok bool) {
	i := 0
	for n, t := range toks {
		if i == len(path) {
			return toks[n:], true
		}
		switch {
		case t.anyIndex:
			if path[i] != '[' {
				return nil, false
			}
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				return nil, false
			}
			i += end + 1
		default:
			if i > 0 {
				if path[i] != '.' {
					return nil, false
				}
				i++
			}
			if t.anyKey {
				if n == len(toks)-1 {
					// The last step: a key may hold dots (a header
					// named "X.Y"); everything below is hidden.
					return nil, i < len(path) || i == 0
				}
				end := strings.IndexAny(path[i:], ".[")
				if end < 0 {
					end = len(path) - i
				}
				if end == 0 {
					return nil, false
				}
				i += end
				continue
			}
			if !strings.HasPrefix(path[i:], t.name) {
				return nil, false
			}
			i += len(t.name)
			if i < len(path) && path[i] != '.' && path[i] != '[' {
				return nil, false
			}
		}
	}
	return nil, true
}
