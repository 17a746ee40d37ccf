package rules

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// adminsOnly is the documented pattern: /admin requires the group admins
// (and a second factor), the rest of the service admits whoever its
// protection admits.
var adminsOnly = []Rule{
	{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/admin"}}, Groups: []string{"admins"}, SecondFactor: true},
	{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/admin"}}},
}

func TestIdentityConditions(t *testing.T) {
	admin := &Identity{PersonID: "p1", Username: "ann", Groups: []string{"admins", "family"}, SecondFactor: true}
	adminPassword := &Identity{PersonID: "p1", Username: "ann", Groups: []string{"admins", "family"}}
	family := &Identity{PersonID: "p2", Username: "bob", Groups: []string{"family"}, SecondFactor: true}
	s, err := Compile(nil, adminsOnly, Authenticate, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		uri      string
		id       *Identity
		want     Action
		index    int
		needsWho bool
	}{
		{"anonymous on /admin must sign in as a person", "/admin/users", nil, Authenticate, 0, true},
		{"anonymous elsewhere falls to the default", "/photos", nil, Authenticate, -1, false},
		{"admin with a second factor", "/admin/users", admin, Allow, 0, false},
		{"admin with a password only is refused", "/admin/users", adminPassword, Deny, 1, false},
		{"family is refused /admin", "/admin", family, Deny, 1, false},
		{"family elsewhere falls to the default", "/photos", family, Authenticate, -1, false},
		{"case of the path does not dodge the deny", "/ADMIN", family, Deny, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Request{Method: http.MethodGet, URI: c.uri, Identity: c.id}
			d := s.Decide(&r)
			if d.Action != c.want || d.Index != c.index || d.NeedsIdentity != c.needsWho {
				t.Fatalf("Decide = %+v, want %s at %d needsIdentity=%v", d, c.want, c.index, c.needsWho)
			}
			r2 := Request{Method: http.MethodGet, URI: c.uri, Identity: c.id}
			if ex := s.Explain(&r2); ex.Decision != d {
				t.Fatalf("Explain %+v disagrees with Decide %+v", ex.Decision, d)
			}
		})
	}
}

func TestIdentityConditionKinds(t *testing.T) {
	for _, c := range []struct {
		name string
		rule Rule
		id   *Identity
		want bool
	}{
		{"person in list, any case", Rule{People: []string{"Ann", "carl"}}, &Identity{Username: "ann"}, true},
		{"person not in list", Rule{People: []string{"carl"}}, &Identity{Username: "ann"}, false},
		{"one of the groups", Rule{Groups: []string{"x", "Family"}}, &Identity{Groups: []string{"family"}}, true},
		{"no group", Rule{Groups: []string{"x"}}, &Identity{Groups: []string{"family"}}, false},
		{"no groups at all", Rule{Groups: []string{"x"}}, &Identity{}, false},
		{"second factor required and given", Rule{SecondFactor: true}, &Identity{SecondFactor: true}, true},
		{"second factor required, not given", Rule{SecondFactor: true}, &Identity{}, false},
		{"kinds must all hold", Rule{People: []string{"ann"}, Groups: []string{"admins"}}, &Identity{Username: "ann", Groups: []string{"family"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.rule.Action = Deny
			s, err := Compile(nil, []Rule{c.rule}, Allow, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := Request{Method: "GET", URI: "/", Identity: c.id}
			if got := s.Decide(&r).Action == Deny; got != c.want {
				t.Fatalf("matched = %v, want %v", got, c.want)
			}
		})
	}
}

// TestIdentityNeverAllowsAnonymous: whatever the action, a rule with
// identity conditions stops an anonymous request with Authenticate rather
// than letting it through or past to a wider rule.
func TestIdentityNeverAllowsAnonymous(t *testing.T) {
	for _, a := range []Action{Allow, Deny, Authenticate} {
		s, err := Compile([]Rule{{Action: a, People: []string{"ann"}}}, []Rule{{Action: Allow}}, Allow, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := Request{Method: "GET", URI: "/"}
		if d := s.Decide(&r); d.Action != Authenticate || !d.NeedsIdentity || d.Scope != ScopeGlobal {
			t.Fatalf("%s: Decide = %+v", a, d)
		}
	}
}

type fakeDirectory struct{ people, groups []string }

func (d fakeDirectory) HasPerson(n string) bool { return containsName(d.people, n) }
func (d fakeDirectory) HasGroup(n string) bool  { return containsName(d.groups, n) }

func TestNormalizeIdentity(t *testing.T) {
	dir := fakeDirectory{people: []string{"ann"}, groups: []string{"admins", "family"}}
	for _, c := range []struct {
		name  string
		rule  Rule
		dir   Directory
		field string
	}{
		{"known names", Rule{People: []string{" ann "}, Groups: []string{"Admins", "admins"}}, dir, ""},
		{"unknown group", Rule{Groups: []string{"admins", "ghosts"}}, dir, "rules[0].groups[1]"},
		{"unknown person", Rule{People: []string{"zed"}}, dir, "rules[0].people[0]"},
		{"bad shape", Rule{Groups: []string{"a/b"}}, nil, "rules[0].groups[0]"},
		{"too long", Rule{People: []string{strings.Repeat("a", 65)}}, nil, "rules[0].people[0]"},
		{"no directory: shape only", Rule{Groups: []string{"ghosts"}}, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.rule.Action = Allow
			list := []Rule{c.rule}
			var col apperr.Collector
			Normalize(list, "rules", Options{Directory: c.dir}, &col)
			err := col.Err()
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			ae, ok := apperr.As(err)
			if !ok || len(ae.Fields) == 0 || ae.Fields[0].Field != c.field {
				t.Fatalf("error %v, want field %s", err, c.field)
			}
		})
	}
	list := []Rule{{Action: Allow, Groups: []string{"Admins", "admins", " family"}}}
	var col apperr.Collector
	Normalize(list, "rules", Options{Directory: dir}, &col)
	if got := strings.Join(list[0].Groups, ","); got != "Admins,family" {
		t.Fatalf("groups = %q", got)
	}
}
