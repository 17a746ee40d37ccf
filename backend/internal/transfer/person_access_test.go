package transfer

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// An API token's import may not change who signs in to the panel: a plan
// that would is refused whole (dry run too), naming each section, and
// nothing is written. What stays unchanged passes; a person may import it.
func TestTokenImportCannotChangePersonAccess(t *testing.T) {
	src := newFixture(t)
	src.seed()
	base := src.export(ExportOptions{Admins: true})
	token := actor.With(context.Background(), actor.Actor{Kind: actor.KindToken, ID: "t1", Name: "ci", Role: actor.RoleAdmin})
	person := actor.With(context.Background(), actor.Actor{Kind: actor.KindAdmin, ID: "adm-1", Name: "admin", Role: actor.RoleAdmin})
	yes := true
	for _, tc := range []struct {
		name    string
		change  func(d *document.Document)
		section string // "" when the token may import the file
	}{
		{"unchanged sections pass", nil, ""},
		{"a service change passes", func(d *document.Document) { d.Services[0].Targets[0].Port = 9999 }, ""},
		{"new administrator", func(d *document.Document) {
			d.Admins = append(d.Admins, document.Admin{Username: "mallory", Role: "admin", Email: "m@evil.example", SSOIssuer: "https://id.evil.example"})
		}, "admins"},
		{"administrator's single sign-on link", func(d *document.Document) { d.Admins[0].SSOIssuer = "https://id.evil.example" }, "admins"},
		{"a new group", func(d *document.Document) {
			d.Groups = append(d.Groups, document.Group{Name: "admins", Members: []string{"admin"}})
		}, "groups"},
		{"a person without a panel role made an admin", func(d *document.Document) {
			d.Admins = append(d.Admins, document.Admin{Username: "nina", Role: "none"})
		}, "admins"},
		{"two-factor requirement", func(d *document.Document) { d.Config.RequireTwoFactor = &yes }, "config.requireTwoFactor"},
		{"administrators' SSO rules", func(d *document.Document) {
			d.Config.AdminSSO = json.RawMessage(`{"enabled":true,"rules":[{"claim":"email","value":"m@evil.example","role":"admin"}],"createAdmins":true,"localPasswords":true}`)
		}, "config.adminSso"},
		{"the OpenID provider", func(d *document.Document) {
			d.Config.SSO = json.RawMessage(`{"enabled":true,"issuer":"https://id.evil.example","clientId":"gatehouse","scopes":["openid"],"groupsClaim":"groups","sessionSeconds":3600}`)
		}, "config.sso"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed()
			data := base
			if tc.change != nil {
				data = edit(t, base, tc.change)
			}
			before := f.snapshot()
			for _, apply := range []bool{false, true} {
				_, err := f.svc.Import(token, data, ImportOptions{Apply: apply})
				if tc.section == "" {
					if err != nil {
						t.Fatalf("apply=%v: %v", apply, err)
					}
					continue
				}
				e, ok := apperr.As(err)
				if !ok || e.Code != apperr.CodeForbidden || len(e.Fields) != 1 || e.Fields[0].Field != tc.section {
					t.Fatalf("apply=%v: err = %#v; want forbidden naming %s", apply, err, tc.section)
				}
				if f.snapshot() != before {
					t.Fatal("a refused import changed the data")
				}
			}
			if tc.section == "" {
				return
			}
			if _, err := f.svc.Import(context.Background(), data, ImportOptions{}); !apperr.IsCode(err, apperr.CodeForbidden) {
				t.Fatalf("an import naming nobody: err = %v; want forbidden", err)
			}
			if _, err := f.svc.Import(person, data, ImportOptions{Apply: true}); err != nil {
				t.Fatalf("a person's import: %v", err)
			}
		})
	}
}

// auditRow is an audit entry as stored.
type auditRow struct {
	ActorKind, ActorName, Action, ResourceType, ResourceID, ResourceName, Diff string
}

// Each imported item is an audit entry of its own, with its diff, written
// with the import; secrets (header values, password hashes, sealed fields)
// never reach the diff.
func TestImportAuditsEachItem(t *testing.T) {
	src := newFixture(t)
	src.seed()
	data := edit(t, src.export(ExportOptions{Admins: true, Secrets: true, AdminPasswords: true, Passphrase: "twelve chars!"}), func(d *document.Document) {
		d.Services[0].Headers = map[string]string{"Authorization": "Bearer upstream-secret"}
		d.Services[0].Targets[0].Port = 9999
		d.Admins = append(d.Admins, document.Admin{Username: "ops", Role: "viewer", SSOIssuer: "https://id.example.com", SSOSubject: "ops"})
	})
	f := newFixture(t)
	f.seed()
	f.must(f.db.Exec(`UPDATE people SET password_hash = '$2a$04$differentdifferentdifferentdifferentdifferentdiffe'`).Error)
	pl := f.plan(data, ImportOptions{Apply: true, Passphrase: "twelve chars!"})
	var rows []auditRow
	f.must(f.db.Table("audit_entries").Order("seq").Find(&rows).Error)
	byName := map[string]auditRow{}
	for _, r := range rows {
		byName[r.ResourceType+" "+r.ResourceName] = r
		if strings.Contains(r.Diff, "upstream-secret") || strings.Contains(r.Diff, "$2a$") {
			t.Errorf("%s %s: a secret in the diff: %s", r.ResourceType, r.ResourceName, r.Diff)
		}
		if r.ActorKind != "system" || r.ActorName != "test" {
			t.Errorf("%s %s: actor %s %s", r.ResourceType, r.ResourceName, r.ActorKind, r.ActorName)
		}
	}
	changed := 0
	for _, it := range pl.Items {
		if it.Action == ActionCreate || it.Action == ActionUpdate || it.Action == ActionDelete {
			changed++
		}
	}
	if len(rows) != changed || changed < 3 {
		t.Fatalf("%d audit entries for %d changed items: %+v", len(rows), changed, rows)
	}
	diffOf := func(key string) []audit.Change {
		t.Helper()
		r, ok := byName[key]
		if !ok {
			t.Fatalf("no audit entry %q in %+v", key, rows)
		}
		var out []audit.Change
		f.must(json.Unmarshal([]byte(r.Diff), &out))
		return out
	}
	has := func(changes []audit.Change, path string, before, after any) bool {
		for _, c := range changes {
			if c.Path == path && c.Before == before && c.After == after {
				return true
			}
		}
		return false
	}
	svc := diffOf("services app")
	if !has(svc, "targets[0].port", float64(8080), float64(9999)) || !has(svc, "headers.Authorization", nil, audit.Redacted) {
		t.Fatalf("service diff = %+v", svc)
	}
	if adm := diffOf("people admin"); byName["people admin"].Action != "update" || !has(adm, "password", audit.Redacted, audit.Redacted) {
		t.Fatalf("admin diff = %+v", adm)
	}
	if ops := diffOf("people ops"); byName["people ops"].Action != "create" || !has(ops, "role", nil, "viewer") {
		t.Fatalf("new admin diff = %+v", ops)
	}
}
