package app

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestEveryWriteIsAudited walks the real route table: every write is
// recorded by the generic rule, listed in audit.Overrides with a read path
// or NoDiff, or skipped there with a reason; every override names a route.
func TestEveryWriteIsAudited(t *testing.T) {
	a := newTestApp(t, nil)
	var routes []string
	for _, r := range a.c.echo.Routes() {
		routes = append(routes, r.Method+" "+r.Path)
	}
	for _, p := range audit.Coverage(routes) {
		t.Error(p)
	}
}

type auditPage struct {
	Items []struct {
		Seq   int64 `json:"seq"`
		Actor struct {
			Kind, ID, Name string
		} `json:"actor"`
		Address  string `json:"address"`
		Action   string `json:"action"`
		Resource struct {
			Type, ID, Name string
		} `json:"resource"`
		Method  string         `json:"method"`
		Route   string         `json:"route"`
		Status  int            `json:"status"`
		Changes []audit.Change `json:"changes"`
	} `json:"items"`
	NextBefore     *int64 `json:"nextBefore"`
	RecordFailures int64  `json:"recordFailures"`
}

func (a *testApp) audit(query string) auditPage {
	a.t.Helper()
	rec := a.do("GET", "/api/audit"+query, "")
	if rec.Code != http.StatusOK {
		a.t.Fatalf("GET /api/audit%s = %d %s", query, rec.Code, rec.Body)
	}
	return decode[auditPage](a.t, rec)
}

func changeAt(t *testing.T, changes []audit.Change, path string) audit.Change {
	t.Helper()
	for _, c := range changes {
		if c.Path == path {
			return c
		}
	}
	t.Fatalf("no change at %q in %+v", path, changes)
	return audit.Change{}
}

func TestAuditLogRecordsChangesAndSignIns(t *testing.T) {
	const ssoSecret = "sso-client-secret-value-4711" //nolint:gosec // a test value the log must not show
	a := newTestApp(t, nil)
	a.signIn()

	// Sign-ins: a failure names the username typed, never the password.
	saved := a.cookie
	a.cookie = ""
	if rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password-1234"}`, "RemoteAddr", stranger); rec.Code != http.StatusUnauthorized {
		t.Fatalf("wrong password = %d", rec.Code)
	}
	a.cookie = saved
	a.login(t, "admin", "correct-horse-battery", owner)

	other := a.mustCreate("/api/domains", `{"name":"Other","domain":"example.org","certResolver":"le"}`)
	svc := a.mustCreate("/api/services", svcBody(other.ID, "app", ""))
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","certResolver":"le"}`)
	if rec := a.do("PUT", "/api/domains/"+d.ID, `{"name":"Home","domain":"example.net","certResolver":"le"}`); rec.Code != http.StatusOK {
		t.Fatalf("update domain: %d %s", rec.Code, rec.Body)
	}
	// A refused write is not a change.
	if rec := a.do("PUT", "/api/domains/"+d.ID, `{"name":`); rec.Code != http.StatusBadRequest {
		t.Fatalf("invalid update = %d", rec.Code)
	}
	if rec := a.do("PUT", "/api/sso", `{"enabled":false,"issuer":"https://id.example.test","clientId":"gatehouse","clientSecret":"`+ssoSecret+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("put sso: %d %s", rec.Code, rec.Body)
	}
	tok := a.do("POST", "/api/machine-tokens", `{"name":"ci","serviceIds":["`+svc.ID+`"]}`)
	if tok.Code != http.StatusCreated {
		t.Fatalf("create token: %d %s", tok.Code, tok.Body)
	}
	tokenValue := decode[struct{ Value string }](t, tok).Value
	if rec := a.do("DELETE", "/api/domains/"+d.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete domain: %d %s", rec.Code, rec.Body)
	}

	all := a.audit("?limit=200")
	var actions []string
	for _, e := range all.Items {
		actions = append(actions, e.Action+" "+e.Resource.Type)
	}
	slices.Reverse(actions)
	want := []string{
		"setup people", "signin_failed admin.sessions", "signin admin.sessions",
		"create domains", "create services", "create domains", "update domains", "update sso",
		"create machine-tokens", "delete domains",
	}
	if !slices.Equal(actions, want) {
		t.Fatalf("actions =\n%q\nwant\n%q", actions, want)
	}
	byAction := func(action, typ string) int {
		for i, e := range all.Items {
			if e.Action == action && e.Resource.Type == typ {
				return i
			}
		}
		t.Fatalf("no %s %s", action, typ)
		return -1
	}
	failed := all.Items[byAction("signin_failed", "admin.sessions")]
	if failed.Actor.Name != "admin" || failed.Status != http.StatusUnauthorized || failed.Address != "203.0.113.66" {
		t.Fatalf("failed sign-in = %+v", failed)
	}
	ok := all.Items[byAction("signin", "admin.sessions")]
	if ok.Actor.Name != "admin" || ok.Actor.ID == "" || ok.Address != "198.51.100.7" {
		t.Fatalf("sign-in = %+v", ok)
	}
	created := all.Items[byAction("create", "domains")]
	if created.Resource.ID != d.ID || created.Resource.Name != "Home" || created.Actor.Kind != "admin" || created.Actor.Name != "admin" ||
		created.Method != "POST" || created.Route != "/api/domains" || created.Status != http.StatusCreated {
		t.Fatalf("create = %+v", created)
	}
	if c := changeAt(t, created.Changes, "domain"); c.Before != nil || c.After != "example.com" {
		t.Fatalf("create diff = %+v", c)
	}
	updated := all.Items[byAction("update", "domains")]
	if c := changeAt(t, updated.Changes, "domain"); c.Before != "example.com" || c.After != "example.net" {
		t.Fatalf("update diff = %+v", c)
	}
	if len(updated.Changes) > 3 {
		t.Errorf("update diff lists unchanged fields: %+v", updated.Changes)
	}
	deleted := all.Items[byAction("delete", "domains")]
	if c := changeAt(t, deleted.Changes, "domain"); c.Before != "example.net" || c.After != nil {
		t.Fatalf("delete diff = %+v", c)
	}
	token := all.Items[byAction("create", "machine-tokens")]
	if token.Resource.Name != "ci" || changeAt(t, token.Changes, "name").After != "ci" {
		t.Fatalf("token create = %+v", token)
	}
	sso := all.Items[byAction("update", "sso")]
	if c := changeAt(t, sso.Changes, "clientSecretSet"); c.Before != false || c.After != true {
		t.Fatalf("sso diff = %+v", c)
	}

	// No secret anywhere: not in the JSON, not in the CSV.
	body := a.do("GET", "/api/audit?limit=200", "").Body.String()
	rec := a.do("GET", "/api/audit?format=csv", "")
	for _, secret := range []string{ssoSecret, "wrong-password-1234", "correct-horse-battery", tokenValue} {
		if strings.Contains(body, secret) || strings.Contains(rec.Body.String(), secret) {
			t.Errorf("the audit log shows a secret (%.6s…)", secret)
		}
	}
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/csv") ||
		!strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Fatalf("csv = %d %v", rec.Code, rec.Header())
	}
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil || len(rows) != len(all.Items)+1 || rows[0][0] != "seq" {
		t.Fatalf("csv rows = %d, %v", len(rows), err)
	}

	// Filters and paging.
	if p := a.audit("?action=delete"); len(p.Items) != 1 || p.Items[0].Resource.ID != d.ID {
		t.Fatalf("action filter = %+v", p.Items)
	}
	if p := a.audit("?resourceType=domains&resourceId=" + d.ID); len(p.Items) != 3 {
		t.Fatalf("resource filter = %d entries", len(p.Items))
	}
	if p := a.audit("?q=Example.NET"); len(p.Items) != 2 {
		t.Fatalf("free text = %d entries", len(p.Items))
	}
	first := a.audit("?limit=2")
	if len(first.Items) != 2 || first.NextBefore == nil || first.Items[0].Seq <= first.Items[1].Seq {
		t.Fatalf("first page = %+v", first)
	}
	second := a.audit("?limit=2&before=" + strconv.FormatInt(*first.NextBefore, 10))
	if second.Items[0].Seq >= first.Items[1].Seq {
		t.Fatalf("second page does not continue: %d after %d", second.Items[0].Seq, first.Items[1].Seq)
	}
	if rec := a.do("GET", "/api/audit?limit=100000", ""); rec.Code != http.StatusUnprocessableEntity && rec.Code != http.StatusBadRequest {
		t.Fatalf("unbounded limit = %d", rec.Code)
	}

	// The middleware's own reads of a resource stay out of the request log's info lines.
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, "level=INFO") && strings.Contains(line, "method=GET path=/api/domains/"+d.ID) {
			t.Fatalf("an internal read is logged as a request: %s", line)
		}
	}
	if !strings.Contains(a.logs.String(), "method=GET path=/api/domains/"+d.ID) {
		t.Fatal("no line for the internal read at all: the check above proves nothing")
	}

	rep, err := audit.Verify(t.Context(), a.c.db)
	if err != nil || !rep.Intact() || rep.Entries != len(all.Items) {
		t.Fatalf("verify = %+v, %v", rep, err)
	}
}

// A recording failure never turns a change into an error: it is logged
// and counted, and the list says how many.
func TestAuditFailureKeepsTheWrite(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	refuse := []string{`CREATE TRIGGER audit_refuse BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'refused'); END`}
	if testutil.OnPostgres() {
		refuse = []string{
			`CREATE FUNCTION audit_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
			`CREATE TRIGGER audit_refuse BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION audit_refuse()`,
		}
	}
	for _, q := range refuse {
		if err := a.c.db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	rec := a.do("POST", "/api/domains", `{"name":"Home","domain":"example.com","certResolver":"le"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("write with a failing audit log = %d %s", rec.Code, rec.Body)
	}
	if p := a.audit(""); p.RecordFailures != 1 {
		t.Fatalf("recordFailures = %d", p.RecordFailures)
	}
	if !strings.Contains(a.logs.String(), "audit entry not recorded") {
		t.Fatal("the failure was not logged")
	}
}

// Spreadsheet programs must not run an exported cell as a formula.
func TestAuditCSVIsInjectionSafe(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.mustCreate("/api/domains", `{"name":"=HYPERLINK(\"http://x\")","domain":"example.com","certResolver":"le"}`)
	rows, err := csv.NewReader(strings.NewReader(a.do("GET", "/api/audit?format=csv&action=create", "").Body.String())).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("csv = %v, %v", rows, err)
	}
	if name := rows[1][9]; name != `'=HYPERLINK("http://x")` {
		t.Fatalf("resource_name cell = %q", name)
	}
}

func TestAuditRetentionSetting(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	if st := decode[audit.Settings](t, a.do("GET", "/api/audit/settings", "")); st.RetentionDays != audit.DefaultRetentionDays {
		t.Fatalf("default retention = %d", st.RetentionDays)
	}
	if rec := a.do("PUT", "/api/audit/settings", `{"retentionDays":-1}`); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("negative retention = %d", rec.Code)
	}
	if rec := a.do("PUT", "/api/audit/settings", `{"retentionDays":30}`); rec.Code != http.StatusOK {
		t.Fatalf("put retention = %d %s", rec.Code, rec.Body)
	}
	p := a.audit("?resourceType=audit")
	if len(p.Items) != 1 {
		t.Fatalf("retention change not recorded: %+v", p.Items)
	}
	if c := changeAt(t, p.Items[0].Changes, "retentionDays"); c.Before != float64(365) || c.After != float64(30) {
		t.Fatalf("retention diff = %+v", c)
	}
}

// gatehouse audit verify: exit 0 with the count on an intact chain, exit 1
// naming the first broken link after a row is edited or deleted. The admin
// commands record what they change, as the CLI.
func TestAuditVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dir, "PANEL_ADMIN_USER": "second", "PANEL_ADMIN_PASSWORD": "a-long-enough-password"}
	a := newTestApp(t, env)
	a.signIn()
	a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","certResolver":"le"}`)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), Options{Args: args, Getenv: func(k string) string { return env[k] }, Stdout: &out, Stderr: &errOut})
		return code, out.String(), errOut.String()
	}
	if code, _, errOut := run("admin", "create", "-username", "second"); code != 0 {
		t.Fatalf("admin create = %d %s", code, errOut)
	}
	cli := a.audit("?actor=cli")
	if len(cli.Items) != 1 || cli.Items[0].Actor.Kind != "system" || cli.Items[0].Resource.Name != "second" || cli.Items[0].Action != "create" {
		t.Fatalf("cli entry = %+v", cli.Items)
	}
	if code, out, _ := run("audit", "verify"); code != 0 || !strings.Contains(out, "3 entries, chain intact") {
		t.Fatalf("verify = %d %q", code, out)
	}
	tests := []struct {
		name, sql, want string
	}{
		{"content edited", `UPDATE audit_entries SET resource_name = 'Other' WHERE seq = 2`, "broken at seq 2: content edited"},
		{"entry deleted", `DELETE FROM audit_entries WHERE seq = 2`, "broken at seq 2: entries 2 to 2 are missing"},
		{"entries reordered", `UPDATE audit_entries SET seq = seq + 10 WHERE seq = 2`, "broken at seq"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx := a.c.db.Begin()
			t.Cleanup(func() { tx.Rollback() })
			if err := tx.Exec(tt.sql).Error; err != nil {
				t.Fatal(err)
			}
			rep, err := audit.Verify(t.Context(), tx)
			if err != nil || rep.Intact() || !strings.Contains(rep.String(), tt.want) {
				t.Fatalf("verify = %q, %v; want %q", rep.String(), err, tt.want)
			}
		})
	}
	if err := a.c.db.Exec(`UPDATE audit_entries SET actor_name = 'someone' WHERE seq = 1`).Error; err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run("audit", "verify"); code != 1 || !strings.Contains(errOut, "audit chain broken at seq 1: content edited") {
		t.Fatalf("verify after tampering = %d %q", code, errOut)
	}
}
