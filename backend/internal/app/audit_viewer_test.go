package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
)

// A viewer reads in the audit log no more than in the views: the values of
// the headers a service sends upstream (an Authorization header, a custom
// API key) are hidden in the changes, in JSON and CSV, for a viewer's
// session and a viewer's token; a viewer's free text cannot confirm a
// guessed value; an administrator reads them.
func TestAuditHidesUpstreamHeaderValuesFromViewers(t *testing.T) {
	const (
		bearer  = "Bearer upstream-bearer-4711"    //nolint:gosec // test values the viewer must not read
		custom  = "custom-upstream-value-0815"     //nolint:gosec
		changed = "Bearer upstream-bearer-changed" //nolint:gosec
	)
	a := newTestApp(t, nil)
	a.signIn()
	body := func(auth string) string {
		return `{"name":"app","hostnames":[{"type":"custom","value":"app.test"}],"targets":[{"host":"10.0.0.1","port":80}],` +
			`"headers":{"Authorization":"` + auth + `","X-Upstream":"` + custom + `"}}`
	}
	rec := a.do("POST", "/api/services", body(bearer))
	if rec.Code != http.StatusCreated {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	id := decode[struct{ ID string }](t, rec).ID
	if rec := a.do("PUT", "/api/services/"+id, body(changed)); rec.Code != http.StatusOK {
		t.Fatalf("update = %d %s", rec.Code, rec.Body)
	}
	a.createUser(t, "vic", "viewer")
	viewers := map[string][]string{
		"viewer session": {"Cookie", "gatehouse_admin=" + a.login(t, "vic", "correct-horse-battery", owner)},
		"viewer token":   {"Authorization", "Bearer " + a.createToken(t, "viewer-token", "viewer")},
	}
	secrets := []string{"upstream-bearer-4711", custom, "upstream-bearer-changed"}
	for name, hdr := range viewers {
		for _, q := range []string{"?resourceType=services", "?resourceType=services&format=csv"} {
			rec := testutil.Request(a.handler, "GET", "/api/audit"+q, "", hdr...)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s GET /api/audit%s = %d %s", name, q, rec.Code, rec.Body)
			}
			for _, s := range secrets {
				if strings.Contains(rec.Body.String(), s) {
					t.Errorf("%s reads %q in /api/audit%s: %s", name, s, q, rec.Body)
				}
			}
			if !strings.Contains(rec.Body.String(), "headers.Authorization") || !strings.Contains(rec.Body.String(), viewmask.Hidden) {
				t.Errorf("%s: /api/audit%s does not show which header changed: %s", name, q, rec.Body)
			}
		}
		for _, s := range secrets {
			rec := testutil.Request(a.handler, "GET", "/api/audit?q="+s, "", hdr...)
			if p := decode[auditPage](t, rec); len(p.Items) != 0 {
				t.Errorf("%s: searching for %q finds %d entries", name, s, len(p.Items))
			}
		}
	}

	p := a.audit("?resourceType=services")
	if len(p.Items) != 2 {
		t.Fatalf("entries = %+v", p.Items)
	}
	if c := changeAt(t, p.Items[0].Changes, "headers.Authorization"); c.Before != bearer || c.After != changed {
		t.Fatalf("the administrator reads %+v", c)
	}
	if c := changeAt(t, p.Items[1].Changes, "headers.X-Upstream"); c.After != custom {
		t.Fatalf("the administrator reads %+v", c)
	}
	if csv := a.do("GET", "/api/audit?format=csv", "").Body.String(); !strings.Contains(csv, custom) {
		t.Fatalf("the administrator's export lacks the value: %s", csv)
	}
	if p := a.audit("?q=" + custom); len(p.Items) != 1 {
		t.Fatalf("the administrator's search finds %d entries", len(p.Items))
	}
}

// Every page a viewer may open by role but that refuses viewers itself has
// its resource type hidden whole from viewers in the audit log.
func TestAuditHidesWhatViewsRefuseViewers(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.createUser(t, "vic", "viewer")
	viewer := a.login(t, "vic", "correct-horse-battery", owner)
	refused := 0
	for _, r := range a.c.echo.Routes() {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.Path, "/api/") || r.Method == echo.RouteNotFound ||
			a.c.routes.Rule(r.Method, r.Path).Open() || strings.HasPrefix(r.Path, "/api/admin/me") {
			continue
		}
		if a.c.routes.Rule(r.Method, r.Path).Class == route.SecretRead {
			continue // refused by role, and no resource of the log
		}
		rec := testutil.Request(a.handler, "GET", concretePath(r.Path), "", "Cookie", "gatehouse_admin="+viewer)
		if rec.Code != http.StatusForbidden {
			continue
		}
		refused++
		if typ := audit.ResourceType(r.Path); !a.c.audit.HiddenFromViewers(typ).All() {
			t.Errorf("GET %s refuses viewers but the audit log shows them %q entries", r.Path, typ)
		}
	}
	if refused == 0 {
		t.Fatal("no page refuses viewers: the walk is broken")
	}
}
