package transfer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// People and groups travel with the administrators' section: an export
// lists each person with their display name and panel role and each group
// with its members' usernames; an import into an empty panel recreates them,
// and a second import changes nothing.
func TestPeopleAndGroupsRoundTrip(t *testing.T) {
	src := newFixture(t)
	src.seed()
	src.must(src.db.Create(&store.Person{ID: "p-ann", Username: "ann", Email: "ann@example.com", DisplayName: "Ann",
		PanelRole: store.PanelRoleNone, CreatedAt: testNow, UpdatedAt: testNow}).Error)
	src.must(src.db.Create(&store.Group{ID: "g-fam", Name: "family", Description: "at home", CreatedAt: testNow, UpdatedAt: testNow}).Error)
	src.must(src.db.Create(&store.GroupMember{GroupID: "g-fam", PersonID: "p-ann", CreatedAt: testNow}).Error)
	src.must(src.db.Create(&store.GroupMember{GroupID: "g-fam", PersonID: "adm-1", CreatedAt: testNow}).Error)
	data := src.export(ExportOptions{Admins: true})
	for _, want := range []string{`"displayName": "Ann"`, `"role": "none"`, `"groups"`, `"members": [`} {
		if !strings.Contains(string(data), want) {
			t.Fatalf("the export lacks %s:\n%s", want, data)
		}
	}

	dst := newFixture(t)
	dst.seed()
	pl := dst.plan(data, ImportOptions{Apply: true})
	if pl.Summary.Refused != 0 {
		t.Fatalf("refused: %+v", pl.Items)
	}
	people := func(f *fixture) string {
		t.Helper()
		var d document.Document
		f.must(json.Unmarshal(f.export(ExportOptions{Admins: true}), &d))
		b, _ := json.Marshal([]any{d.Admins, d.Groups})
		return string(b)
	}
	if got, want := people(dst), people(src); got != want {
		t.Fatalf("after the import:\n%s\nwant\n%s", got, want)
	}
	again := dst.plan(data, ImportOptions{})
	if again.Summary.Create+again.Summary.Update != 0 {
		t.Fatalf("a second import would change %+v", again.Items)
	}
}

// A group naming somebody unknown, an e-mail held by someone else, a name
// listed twice: each is refused with the field, the rest goes in.
func TestPeopleImportRefusals(t *testing.T) {
	f := newFixture(t)
	f.seed()
	f.must(f.db.Create(&store.Person{ID: "p-ann", Username: "ann", Email: "ann@example.com",
		PanelRole: store.PanelRoleNone, CreatedAt: testNow, UpdatedAt: testNow}).Error)
	data := edit(t, f.export(ExportOptions{Admins: true}), func(d *document.Document) {
		d.Admins = append(d.Admins,
			document.Admin{Username: "bob", Role: "none", Email: "ANN@example.com"},
			document.Admin{Username: "cy", Role: "none", Email: "not an address"},
			document.Admin{Username: "dee", Role: "none"},
			document.Admin{Username: "dee", Role: "none"},
		)
		d.Groups = []document.Group{
			{Name: "ghosts", Members: []string{"nobody"}},
			{Name: "ok", Members: []string{"ann", "ann"}},
			{Name: "-bad", Members: []string{}},
		}
	})
	pl := f.plan(data, ImportOptions{Apply: true})
	reasons := map[string]string{}
	for _, it := range pl.Items {
		if it.Action == ActionRefused {
			reasons[it.Kind+" "+it.Name] = it.Reason
		}
	}
	for key, says := range map[string]string{
		"admin bob": "email", "admin cy": "email", "admin dee": "listed twice", "group ghosts": "members[0]", "group -bad": "name",
	} {
		if !strings.Contains(reasons[key], says) {
			t.Errorf("%s: refused with %q; want it to name %s (all: %v)", key, reasons[key], says, reasons)
		}
	}
	var members int64
	f.must(f.db.Model(&store.GroupMember{}).Count(&members).Error)
	if len(reasons) != 5 || members != 1 {
		t.Fatalf("refused %v, %d memberships; want 5 refusals and ann once in ok", reasons, members)
	}
}
