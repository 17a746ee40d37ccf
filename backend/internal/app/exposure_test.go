package app

import (
	"net/http"
	"strings"
	"testing"
)

// TestRulesThatOpenAProtectedServiceNeedConfirmation: one allow rule
// without conditions (what "Add rule" used to create) makes a basic-auth
// service public. Saving that needs confirmPublic, and afterwards the
// services list, the service and its rules all say who can get in.
func TestRulesThatOpenAProtectedServiceNeedConfirmation(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	id := func(body string) string {
		return decode[struct{ ID string }](t, a.do("POST", "/api/services", body)).ID
	}
	svc := id(`{"name":"Files","hostnames":[{"type":"custom","value":"files.example.com"}],"targets":[{"host":"10.0.0.1","port":80}]}`)
	open := id(`{"name":"Blog","hostnames":[{"type":"custom","value":"blog.example.com"}],"targets":[{"host":"10.0.0.2","port":80}]}`)
	set := decode[struct{ ID string }](t, a.do("POST", "/api/credential-sets", `{"name":"s","users":[{"username":"u","password":"password-1"}]}`)).ID
	if rec := a.do("POST", "/api/services/"+svc+"/security-configs", `{"type":"basic_auth","credentialSetId":"`+set+`"}`); rec.Code != http.StatusCreated {
		t.Fatalf("protect: %d %s", rec.Code, rec.Body)
	}
	type exposure struct {
		ID         string
		Protection struct{ Exposure string }
	}
	exposures := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, s := range decode[struct{ Items []exposure }](t, a.do("GET", "/api/services", "")).Items {
			out[s.ID] = s.Protection.Exposure
		}
		one := decode[exposure](t, a.do("GET", "/api/services/"+svc, ""))
		rules := decode[struct{ Exposure string }](t, a.do("GET", "/api/services/"+svc+"/access", ""))
		if one.Protection.Exposure != out[svc] || rules.Exposure != out[svc] {
			t.Fatalf("exposure of %s: list %q, service %q, rules %q", svc, out[svc], one.Protection.Exposure, rules.Exposure)
		}
		return out
	}
	if got := exposures(); got[svc] != "none" || got[open] != "everyone" {
		t.Fatalf("before: %v", got)
	}

	allowAll := `{"defaultAction":"","rules":[{"action":"allow","note":"new rule"}]}`
	tests := []struct {
		name, path, body string
	}{
		{"allow rule without conditions", "/api/services/" + svc + "/access", allowAll},
		{"allow as the default", "/api/services/" + svc + "/access", `{"defaultAction":"allow","rules":[]}`},
		{"allow every path", "/api/services/" + svc + "/access", `{"rules":[{"action":"allow","paths":[{"type":"prefix","value":"/"}]}]}`},
		{"confirmPublic false", "/api/services/" + svc + "/access", `{"rules":[{"action":"allow"}],"confirmPublic":false}`},
		{"global allow without conditions", "/api/access/rules", `{"rules":[{"action":"allow"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.do("PUT", tt.path, tt.body)
			if rec.Code != http.StatusUnprocessableEntity {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			e := decodeEnvelope(t, rec)
			if e.Error.Code != "validation_failed" || len(e.Error.Fields) != 1 || e.Error.Fields[0].Field != "confirmPublic" ||
				!strings.Contains(e.Error.Fields[0].Message, "everyone on the internet") {
				t.Fatalf("envelope %+v", e)
			}
		})
	}
	if got := exposures(); got[svc] != "none" {
		t.Fatalf("a refused save changed the exposure: %v", got)
	}

	// Rules that open only part of it, and rules on an unprotected service,
	// need no confirmation.
	for _, ok := range []struct{ path, body string }{
		{"/api/services/" + svc + "/access", `{"rules":[{"action":"allow","paths":[{"type":"prefix","value":"/public"}]}]}`},
		{"/api/services/" + open + "/access", allowAll},
	} {
		if rec := a.do("PUT", ok.path, ok.body); rec.Code != http.StatusOK {
			t.Fatalf("PUT %s %s: %d %s", ok.path, ok.body, rec.Code, rec.Body)
		}
	}
	if got := exposures(); got[svc] != "some" || got[open] != "everyone" {
		t.Fatalf("partly open: %v", got)
	}

	// Confirmed, the save goes through and every view says public.
	if rec := a.do("PUT", "/api/services/"+svc+"/access", `{"rules":[{"action":"allow"}],"confirmPublic":true}`); rec.Code != http.StatusOK {
		t.Fatalf("confirmed: %d %s", rec.Code, rec.Body)
	}
	if got := exposures(); got[svc] != "everyone" {
		t.Fatalf("after the confirmed save: %v", got)
	}
	// A global deny of every request closes both.
	if rec := a.do("PUT", "/api/access/rules", `{"rules":[{"action":"deny"}]}`); rec.Code != http.StatusOK {
		t.Fatalf("global deny: %d %s", rec.Code, rec.Body)
	}
	if got := exposures(); got[svc] != "none" || got[open] != "none" {
		t.Fatalf("after a global deny: %v", got)
	}
}
