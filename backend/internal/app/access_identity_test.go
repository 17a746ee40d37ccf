package app

import (
	"net/http"
	"strings"
	"testing"
)

// TestAccessRulesIdentity saves rules with identity conditions through the
// API, checked against the directory, and tests them as a person whose
// groups the tester reads from the directory.
func TestAccessRulesIdentity(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	ann := a.createUser(t, "ann", "none")
	a.createUser(t, "bob", "none")
	rec := a.do("POST", "/api/groups", `{"name":"admins"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create group = %d %s", rec.Code, rec.Body)
	}
	grp := decode[struct{ ID string }](t, rec).ID
	if rec := a.do("POST", "/api/groups/"+grp+"/members", `{"personId":"`+ann+`"}`); rec.Code >= 300 {
		t.Fatalf("add member = %d %s", rec.Code, rec.Body)
	}
	dom := decode[struct{ ID string }](t, a.do("POST", "/api/domains", `{"name":"Example","domain":"example.com","isDefault":true}`)).ID
	svc := decode[struct{ ID string }](t, a.do("POST", "/api/services", `{"name":"app","domainId":"`+dom+`","hostnames":[{"type":"subdomain","value":"app"}],`+
		`"targets":[{"host":"10.0.0.5","port":8080}]}`)).ID

	rec = a.do("PUT", "/api/services/"+svc+"/access", `{"rules":[{"action":"allow","paths":[{"type":"prefix","value":"/admin"}],"groups":["admins","ghosts"]}]}`)
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("unknown group = %d %s", rec.Code, rec.Body)
	}
	if e := decodeEnvelope(t, rec); len(e.Error.Fields) == 0 || e.Error.Fields[0].Field != "rules[0].groups[1]" {
		t.Fatalf("unknown group names %+v", e.Error.Fields)
	}
	rec = a.do("PUT", "/api/services/"+svc+"/access", `{"rules":[{"action":"allow","paths":[{"type":"prefix","value":"/admin"}],"groups":["Admins"],"secondFactor":true},`+
		`{"action":"deny","paths":[{"type":"prefix","value":"/admin"}]}],"confirmPublic":true}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("save = %d %s", rec.Code, rec.Body)
	}

	type result struct {
		Decision      string
		Index         int
		NeedsIdentity bool
		Person        *struct {
			Username string
			Groups   []string
		}
	}
	for _, c := range []struct {
		name, body string
		decision   string
		index      int
		needs      bool
	}{
		{"anonymous", `{"url":"/admin/x"}`, "authenticate", 0, true},
		{"admin with a second factor", `{"url":"/admin/x","person":"ann","secondFactor":true}`, "allow", 0, false},
		{"admin with a password only", `{"url":"/admin/x","person":"ANN"}`, "deny", 1, false},
		{"not an admin", `{"url":"/admin/x","person":"bob","secondFactor":true}`, "deny", 1, false},
		{"elsewhere", `{"url":"/photos","person":"bob"}`, "allow", -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := a.do("POST", "/api/services/"+svc+"/access/test", c.body)
			if rec.Code != http.StatusOK {
				t.Fatalf("test = %d %s", rec.Code, rec.Body)
			}
			r := decode[result](t, rec)
			if r.Decision != c.decision || r.Index != c.index || r.NeedsIdentity != c.needs {
				t.Fatalf("got %+v, want %s at %d needs=%v", r, c.decision, c.index, c.needs)
			}
			if c.body != `{"url":"/admin/x"}` && (r.Person == nil || c.name == "admin with a second factor" && len(r.Person.Groups) != 1) {
				t.Fatalf("person %+v", r.Person)
			}
		})
	}
	// Renaming the group leaves the rule naming a group that no longer
	// exists: it matches nobody (fails closed) and the rules page says so.
	if rec := a.do("PATCH", "/api/groups/"+grp, `{"name":"operators"}`); rec.Code != http.StatusOK {
		t.Fatalf("rename = %d %s", rec.Code, rec.Body)
	}
	rec = a.do("GET", "/api/services/"+svc+"/access", "")
	if !strings.Contains(rec.Body.String(), `names the group \"Admins\", which is not in the directory`) {
		t.Fatalf("no warning after the rename: %s", rec.Body)
	}
	if r := decode[result](t, a.do("POST", "/api/services/"+svc+"/access/test", `{"url":"/admin","person":"ann","secondFactor":true}`)); r.Decision != "deny" {
		t.Fatalf("after the rename the admin rule still admits: %+v", r)
	}
	rec = a.do("POST", "/api/services/"+svc+"/access/test", `{"url":"/","person":"nobody"}`)
	if e := decodeEnvelope(t, rec); rec.Code != http.StatusUnprocessableEntity || len(e.Error.Fields) == 0 || e.Error.Fields[0].Field != "person" {
		t.Fatalf("unknown person = %d %s", rec.Code, rec.Body)
	}
}
