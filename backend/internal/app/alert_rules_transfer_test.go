package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// An import carries alert rules only for who may write them through the
// alerts API: administrators (session or admin-role token). A viewer's
// session or token is refused the import (dry run too), and nothing is
// written; the alerts API refuses them the same rule. A bad rule in the
// file is a 422 naming alertRules[i].field; an unknown service a 422
// naming alertRules[i].service.
func TestImportAlertRulesFollowsTheAlertsAPIRoles(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.createUser(t, "watcher", "viewer")
	viewerSession := &caller{name: "viewer session", viewer: true, value: a.login(t, "watcher", "correct-horse-battery", owner)}
	viewerToken := &caller{name: "viewer token", token: true, viewer: true, value: a.createToken(t, "reader", "viewer")}
	adminToken := &caller{name: "admin token", token: true, value: a.createToken(t, "ci", "admin")}

	file := func(rules string) string {
		return `{"format":"gatehouse-export","version":1,"exportedAt":"2026-11-26T10:00:00Z","domains":[],"services":[],` +
			`"credentialSets":[],"alertRules":[` + rules + `]}`
	}
	good := file(`{"name":"panel errors","kind":"error_ratio","threshold":5,"forMinutes":10}`)
	rules := func() []struct{ Name string } {
		t.Helper()
		return decode[struct{ Items []struct{ Name string } }](t, a.do("GET", "/api/alerts/rules", "")).Items
	}

	for _, c := range []*caller{viewerSession, viewerToken} {
		for _, q := range []string{"", "?apply=true"} {
			if rec := a.as(c, "POST", "/api/import"+q, good); rec.Code != http.StatusForbidden {
				t.Fatalf("%s: import%s = %d %s; want 403", c.name, q, rec.Code, rec.Body)
			}
		}
		if rec := a.as(c, "POST", "/api/alerts/rules", `{"name":"panel errors","kind":"error_ratio","threshold":5,"forMinutes":10}`); rec.Code != http.StatusForbidden {
			t.Fatalf("%s: POST /api/alerts/rules = %d; want 403 as for the import", c.name, rec.Code)
		}
	}
	if got := rules(); len(got) != 0 {
		t.Fatalf("a viewer's import wrote rules: %+v", got)
	}

	for _, tc := range []struct{ body, field string }{
		{file(`{"name":"a","kind":"error_ratio","threshold":5,"forMinutes":10},{"name":"b","kind":"cpu","forMinutes":10}`), "alertRules[1].kind"},
		{file(`{"name":"a","service":"nope","kind":"no_traffic","forMinutes":10}`), "alertRules[0].service"},
	} {
		rec := a.as(adminToken, "POST", "/api/import?apply=true", tc.body)
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("%s: %d %s; want 422", tc.field, rec.Code, rec.Body)
		}
		env := decodeEnvelope(t, rec)
		if env.Error.Code != "validation_failed" || len(env.Error.Fields) == 0 || env.Error.Fields[0].Field != tc.field {
			t.Fatalf("%s: %s", tc.field, rec.Body)
		}
	}

	rec := a.as(adminToken, "POST", "/api/import?apply=true", good)
	if rec.Code != http.StatusOK {
		t.Fatalf("admin token: import = %d %s", rec.Code, rec.Body)
	}
	var plan struct {
		Items []struct{ Kind, Name, Action string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &plan); err != nil || len(plan.Items) != 1 || plan.Items[0].Kind != "alertRule" || plan.Items[0].Action != "create" {
		t.Fatalf("admin token: plan %s", rec.Body)
	}
	if got := rules(); len(got) != 1 || got[0].Name != "panel errors" {
		t.Fatalf("rules after the admin token's import: %+v", got)
	}
	// The import is in the audit log under the alerts API's resource type.
	if rec := a.do("GET", "/api/audit?resourceType=alerts.rules", ""); !strings.Contains(rec.Body.String(), "panel errors") {
		t.Fatalf("audit: %d %s", rec.Code, rec.Body)
	}
	// The export carries the rule back.
	if rec := a.do("GET", "/api/export", ""); !strings.Contains(rec.Body.String(), `"alertRules": [`) || !strings.Contains(rec.Body.String(), "panel errors") {
		t.Fatalf("export: %s", rec.Body)
	}
}
