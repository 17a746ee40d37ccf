package transfer

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// alertsOf is the fixture's alerts service, as the API uses it.
func (f *fixture) alertsOf() *alerts.Service {
	names := services.NewService(services.Deps{DB: f.db}).Names
	return alerts.NewService(alerts.Deps{DB: f.db, Now: func() time.Time { return testNow }, ServiceNames: names})
}

// seedRules adds, through the alerts API's service, a rule on the service
// "app", a disabled one on the totals, and an open episode of the first.
func (f *fixture) seedRules() {
	f.t.Helper()
	var app store.Service
	f.must(f.db.Where("name = ?", "app").Take(&app).Error)
	no := false
	a := f.alertsOf()
	r, err := a.CreateRule(testCtx, alerts.RuleRequest{Name: "app errors", ServiceID: &app.ID, Kind: alerts.ErrorRatio, Threshold: 5, ForMinutes: 10})
	f.must(err)
	_, err = a.CreateRule(testCtx, alerts.RuleRequest{Name: "quiet panel", Kind: alerts.NoTraffic, ForMinutes: 30, Enabled: &no})
	f.must(err)
	f.must(f.db.Exec(`INSERT INTO alert_events (id, rule_id, rule_name, service_id, service_name, kind, threshold, for_minutes, value, fired_at)
		VALUES ('ev-1', ?, 'app errors', ?, 'app', 'error_ratio', 5, 10, 12.5, ?)`, r.ID, app.ID, testNow).Error)
}

// rules is every rule as the API lists it, without what differs between
// two panels by design (the time of the last write, the firing state).
func (f *fixture) rules() string {
	f.t.Helper()
	list, err := f.alertsOf().ListRules(testCtx)
	f.must(err)
	var out []string
	for _, r := range list {
		out = append(out, fmt.Sprintf("%s id=%s service=%s kind=%s threshold=%g for=%d enabled=%v created=%s",
			r.Name, r.ID, r.ServiceName, r.Kind, r.Threshold, r.ForMinutes, r.Enabled, r.CreatedAt.UTC().Format(time.RFC3339)))
	}
	return strings.Join(out, "\n")
}

// An export lists every rule, its service by name, without its episodes
// or its firing state; imported into an empty panel, the rules come out
// the same (ids and creation times kept), with no history; a second
// import changes nothing.
func TestAlertRulesRoundTrip(t *testing.T) {
	src := newFixture(t)
	src.seed()
	src.seedRules()
	data := src.export(ExportOptions{})
	doc, err := document.Parse(data)
	src.must(err)
	if got := doc.Rules(); len(got) != 2 || got[0].Service != "app" || got[1].Service != "" || *got[1].Enabled {
		t.Fatalf("export: %+v", got)
	}
	for _, leak := range []string{"firing", "ev-1", "12.5", "serviceId"} {
		if strings.Contains(string(data), leak) {
			t.Fatalf("the export carries runtime state (%s):\n%s", leak, data)
		}
	}
	dst := newFixture(t)
	pl := dst.plan(data, ImportOptions{Apply: true})
	for _, name := range []string{"app errors", "quiet panel"} {
		if it := find(pl, KindAlertRule, name); it.Action != ActionCreate || it.ID == "" {
			t.Fatalf("%s: %+v", name, it)
		}
	}
	if got, want := dst.rules(), src.rules(); got != want || got == "" {
		t.Fatalf("imported rules:\n%s\nwant:\n%s", got, want)
	}
	var events int64
	dst.must(dst.db.Table("alert_events").Count(&events).Error)
	if events != 0 {
		t.Fatalf("%d episodes imported", events)
	}
	again := dst.plan(data, ImportOptions{})
	for _, name := range []string{"app errors", "quiet panel"} {
		if it := find(again, KindAlertRule, name); it.Action != ActionUnchanged {
			t.Fatalf("a second import changes %+v", it)
		}
	}
	// An empty panel's export has the section, empty.
	if empty := newFixture(t).export(ExportOptions{}); !strings.Contains(string(empty), `"alertRules": []`) {
		t.Fatalf("an empty export has no alertRules section:\n%s", empty)
	}
}

// A rule of the file is matched by name: its changed fields are an
// update (audited as alerts.rules), its id and episodes stay.
func TestAlertRulesImportUpdatesByName(t *testing.T) {
	f := newFixture(t)
	f.seed()
	f.seedRules()
	before := f.rules()
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) {
		r := &(*d.AlertRules)[0]
		r.ID, r.Threshold, r.Service = "", 7.5, "blog"
		yes := true
		(*d.AlertRules)[1].Enabled = &yes
	})
	pl := f.plan(data, ImportOptions{Apply: true})
	if it := find(pl, KindAlertRule, "app errors"); it.Action != ActionUpdate || strings.Join(it.Fields, ",") != "service,threshold" {
		t.Fatalf("app errors: %+v", it)
	}
	if it := find(pl, KindAlertRule, "quiet panel"); it.Action != ActionUpdate || strings.Join(it.Fields, ",") != "enabled" {
		t.Fatalf("quiet panel: %+v", it)
	}
	after := f.rules()
	if !strings.Contains(after, "app errors id="+strings.Split(strings.SplitN(before, "id=", 2)[1], " ")[0]+" service=blog kind=error_ratio threshold=7.5") ||
		!strings.Contains(after, "quiet panel") || !strings.Contains(after, "enabled=true") || strings.Contains(after, "enabled=false") {
		t.Fatalf("after the import:\n%s\nbefore:\n%s", after, before)
	}
	var open int64
	f.must(f.db.Table("alert_events").Where("resolved_at IS NULL").Count(&open).Error)
	if open != 1 {
		t.Fatalf("%d open episodes after the update; the API's update keeps it open", open)
	}
	var rows []auditRow
	f.must(f.db.Table("audit_entries").Where("resource_type = ?", "alerts.rules").Order("seq").Find(&rows).Error)
	if len(rows) != 2 || rows[0].Action != ActionUpdate || !strings.Contains(rows[0].Diff+rows[1].Diff, "threshold") {
		t.Fatalf("audit entries: %+v", rows)
	}
}

// A bad rule fails the whole import (dry run too) with a 4xx naming
// alertRules[i].field, as the alerts API refuses the request; nothing is
// written.
func TestAlertRulesImportRefusesBadRules(t *testing.T) {
	src := newFixture(t)
	src.seed()
	src.seedRules()
	base := src.export(ExportOptions{})
	rule := func(name, service, kind string, threshold float64, minutes int) document.AlertRule {
		return document.AlertRule{Name: name, Service: service, Kind: kind, Threshold: threshold, ForMinutes: minutes}
	}
	for _, tc := range []struct {
		name   string
		mode   string
		rules  []document.AlertRule
		status int
		field  string
	}{
		{"unknown kind", "", []document.AlertRule{rule("a", "", "error_ratio", 5, 5), rule("b", "", "cpu", 0, 5)}, 422, "alertRules[1].kind"},
		{"ratio above 100", "", []document.AlertRule{rule("a", "app", "error_ratio", 101, 5)}, 422, "alertRules[0].threshold"},
		{"latency below 1 ms", "", []document.AlertRule{rule("a", "", "latency_p95", 0.5, 5)}, 422, "alertRules[0].threshold"},
		{"no minutes", "", []document.AlertRule{rule("a", "", "no_traffic", 0, 0)}, 422, "alertRules[0].forMinutes"},
		{"more than a day", "", []document.AlertRule{rule("a", "", "no_traffic", 0, 24*60+1)}, 422, "alertRules[0].forMinutes"},
		{"blank name", "", []document.AlertRule{rule("  ", "", "no_traffic", 0, 5)}, 422, "alertRules[0].name"},
		{"control character", "", []document.AlertRule{rule("a\x07", "", "no_traffic", 0, 5)}, 422, "alertRules[0].name"},
		{"name too long", "", []document.AlertRule{rule(strings.Repeat("é", 101), "", "no_traffic", 0, 5)}, 422, "alertRules[0].name"},
		{"same name twice", "", []document.AlertRule{rule("a", "", "no_traffic", 0, 5), rule(" a ", "", "backend_down", 0, 5)}, 422, "alertRules[1].name"},
		{"unknown service", "", []document.AlertRule{rule("a", "nope", "no_traffic", 0, 5)}, 422, "alertRules[0].service"},
		{"service name too long", "", []document.AlertRule{rule("a", strings.Repeat("x", 201), "no_traffic", 0, 5)}, 422, "alertRules[0].service"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed()
			f.seedRules()
			before := f.rules()
			data := edit(t, base, func(d *document.Document) { d.AlertRules = &tc.rules })
			for _, apply := range []bool{false, true} {
				_, err := f.svc.Import(testCtx, data, ImportOptions{Apply: apply, Mode: tc.mode})
				e, ok := apperr.As(err)
				if !ok || e.HTTPStatus() != tc.status || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
					t.Fatalf("apply=%v: %v; want %d naming %s", apply, err, tc.status, tc.field)
				}
			}
			if got := f.rules(); got != before {
				t.Fatalf("a refused import changed the rules:\n%s", got)
			}
		})
	}
}

// In replace mode a rule's service must be in the file (the import
// deletes the others); a service the file has but the plan refuses takes
// its rules with it, as refused items.
func TestAlertRulesImportServiceInReplaceAndRefused(t *testing.T) {
	f := newFixture(t)
	f.seed()
	f.seedRules()
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) {
		d.Services = d.Services[1:] // "blog" only
	})
	_, err := f.svc.Import(testCtx, data, ImportOptions{Mode: ModeReplace})
	if e, ok := apperr.As(err); !ok || e.HTTPStatus() != http.StatusUnprocessableEntity || e.Fields[0].Field != "alertRules[0].service" ||
		!strings.Contains(e.Fields[0].Message, "replace") {
		t.Fatalf("replace without the rule's service: %v", err)
	}
	// Merge keeps "app": the rule stays on it.
	if pl := f.plan(data, ImportOptions{}); find(pl, KindAlertRule, "app errors").Action != ActionUnchanged {
		t.Fatalf("merge: %+v", find(pl, KindAlertRule, "app errors"))
	}

	bad := edit(t, f.export(ExportOptions{}), func(d *document.Document) {
		sv := d.Services[0]
		sv.Name, sv.ID, sv.Targets = "broken", "", []store.Target{{Scheme: "gopher", Host: "x", Port: 1}}
		d.Services = append(d.Services, sv)
		*d.AlertRules = append(*d.AlertRules, document.AlertRule{Name: "broken down", Service: "broken", Kind: "backend_down", ForMinutes: 2})
	})
	pl := f.plan(bad, ImportOptions{Apply: true})
	if it := find(pl, KindService, "broken"); it.Action != ActionRefused {
		t.Fatalf("broken service: %+v", it)
	}
	if it := find(pl, KindAlertRule, "broken down"); it.Action != ActionRefused || !strings.Contains(it.Reason, `"broken" is refused`) {
		t.Fatalf("its rule: %+v", it)
	}
	if strings.Contains(f.rules(), "broken down") {
		t.Fatal("the refused rule was written")
	}
}

// Replace mode: a file with the section (even empty) is the whole list of
// rules; a file without it (an older export, another tool's) leaves them.
// A rule whose service the replace deletes and recreates comes back.
func TestAlertRulesImportReplace(t *testing.T) {
	f := newFixture(t)
	f.seed()
	f.seedRules()
	base := f.export(ExportOptions{})
	without := edit(t, base, func(d *document.Document) { d.AlertRules = nil })
	if strings.Contains(string(without), "alertRules") {
		t.Fatalf("a document without rules writes the section:\n%s", without)
	}
	f.plan(without, ImportOptions{Apply: true, Mode: ModeReplace})
	if got := f.rules(); strings.Count(got, "\n") != 1 {
		t.Fatalf("a file without the section changed the rules:\n%s", got)
	}

	one := edit(t, base, func(d *document.Document) { *d.AlertRules = (*d.AlertRules)[:1] })
	pl := f.plan(one, ImportOptions{Apply: true, Mode: ModeReplace})
	if it := find(pl, KindAlertRule, "quiet panel"); it.Action != ActionDelete {
		t.Fatalf("quiet panel: %+v", it)
	}
	if got := f.rules(); strings.Contains(got, "quiet panel") || !strings.Contains(got, "app errors") {
		t.Fatalf("after replace:\n%s", got)
	}

	// The service "app" under a new name is another service: the old one
	// is deleted (and its rules with it by the database), the rule comes
	// back on the new one.
	moved := edit(t, one, func(d *document.Document) {
		d.Services[0].Name, d.Services[0].ID = "app2", ""
		(*d.AlertRules)[0].Service = "app2"
	})
	pl = f.plan(moved, ImportOptions{Apply: true, Mode: ModeReplace})
	if it := find(pl, KindAlertRule, "app errors"); it.Action != ActionUpdate || strings.Join(it.Fields, ",") != "service" {
		t.Fatalf("moved: %+v", it)
	}
	if got := f.rules(); !strings.Contains(got, "app errors") || !strings.Contains(got, "service=app2") {
		t.Fatalf("after the service moved:\n%s", got)
	}

	empty := edit(t, base, func(d *document.Document) { *d.AlertRules = []document.AlertRule{} })
	f.plan(empty, ImportOptions{Apply: true, Mode: ModeReplace})
	if got := f.rules(); got != "" {
		t.Fatalf("an empty section in replace mode left:\n%s", got)
	}
}

// The panel keeps at most alerts.MaxRules rules: an import that would
// leave more is a 409 naming the section, whatever the mode counts.
func TestAlertRulesImportKeepsTheLimit(t *testing.T) {
	f := newFixture(t)
	f.seed()
	f.seedRules()
	list := make([]document.AlertRule, alerts.MaxRules-1)
	for i := range list {
		list[i] = document.AlertRule{Name: fmt.Sprintf("rule %03d", i), Kind: "no_traffic", ForMinutes: 5}
	}
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) { d.AlertRules = &list })
	// Merge: 499 new + the 2 the panel has = 501.
	_, err := f.svc.Import(testCtx, data, ImportOptions{})
	if e, ok := apperr.As(err); !ok || e.Code != apperr.CodeConflict || e.Fields[0].Field != "alertRules" {
		t.Fatalf("merge over the limit: %v", err)
	}
	// Replace: the file's 499 are all there will be.
	pl := f.plan(data, ImportOptions{Mode: ModeReplace})
	if pl.Summary.Create < alerts.MaxRules-1 {
		t.Fatalf("replace: %+v", pl.Summary)
	}
}

// Alert rules are written by administrators and by API tokens with the
// admin role through the API (a guarded route, not a person-only one):
// the same token may import them, dry run and applied.
func TestTokenImportMayChangeAlertRules(t *testing.T) {
	token := actor.With(context.Background(), actor.Actor{Kind: actor.KindToken, ID: "t1", Name: "ci", Role: actor.RoleAdmin})
	f := newFixture(t)
	f.seed()
	f.seedRules()
	data := edit(t, f.export(ExportOptions{}), func(d *document.Document) { (*d.AlertRules)[0].Threshold = 9 })
	pl, err := f.svc.Import(token, data, ImportOptions{Apply: true})
	if err != nil || find(pl, KindAlertRule, "app errors").Action != ActionUpdate {
		t.Fatalf("token import: %v %+v", err, pl)
	}
}
