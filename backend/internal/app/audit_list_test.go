package app

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/audit"
)

// A write under a list is recorded from the one item it changed: creating
// and revoking a shared link among a service's links, creating and
// revoking an API token among the panel's tokens, updating and deleting one
// credential set among several. The diff names that item's fields only,
// none of its siblings', and the list is never read to find it.
func TestAuditedWriteUnderAListNamesOnlyThatItem(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","certResolver":"le"}`)
	svc := a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	if rec := a.do("POST", "/api/services/"+svc.ID+"/security-configs", `{"type":"shared_links"}`); rec.Code != http.StatusCreated {
		t.Fatalf("enable shared links = %d %s", rec.Code, rec.Body)
	}
	links := map[string]string{} // note -> id
	var linkURL string
	for _, note := range []string{"one", "two", "three", "four"} {
		rec := a.do("POST", "/api/services/"+svc.ID+"/shared-links", `{"note":"`+note+`"}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create link = %d %s", rec.Code, rec.Body)
		}
		l := decode[struct{ ID, URL string }](t, rec)
		links[note], linkURL = l.ID, l.URL
	}
	if rec := a.do("DELETE", "/api/services/"+svc.ID+"/shared-links/"+links["two"], ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke link = %d %s", rec.Code, rec.Body)
	}
	tokens := map[string]string{}
	for _, name := range []string{"ci", "dash", "deploy"} {
		rec := a.do("POST", "/api/admin/tokens", `{"name":"`+name+`","role":"viewer"}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create token = %d %s", rec.Code, rec.Body)
		}
		tokens[name] = decode[struct{ Token struct{ ID string } }](t, rec).Token.ID
	}
	if rec := a.do("DELETE", "/api/admin/tokens/"+tokens["dash"], ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke token = %d %s", rec.Code, rec.Body)
	}
	sets := map[string]string{}
	for _, name := range []string{"family", "friends", "guests"} {
		sets[name] = a.mustCreate("/api/credential-sets", `{"name":"`+name+`","users":[{"username":"u","password":"password-1"}]}`).ID
	}
	if rec := a.do("PUT", "/api/credential-sets/"+sets["friends"], `{"name":"pals","users":[{"username":"u"}]}`); rec.Code != http.StatusOK {
		t.Fatalf("update set = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/credential-sets/"+sets["guests"], ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete set = %d %s", rec.Code, rec.Body)
	}

	all := a.audit("?limit=200")
	entry := func(action, typ, id string) []audit.Change {
		t.Helper()
		for _, e := range all.Items {
			if e.Action == action && e.Resource.Type == typ && e.Resource.ID == id {
				return e.Changes
			}
		}
		t.Fatalf("no %s %s %s", action, typ, id)
		return nil
	}
	// only fails unless the changes are exactly the item's own paths, and
	// mention none of the siblings.
	only := func(changes []audit.Change, paths []string, siblings ...string) {
		t.Helper()
		var got []string
		for _, c := range changes {
			got = append(got, c.Path)
		}
		if paths != nil && !slices.Equal(got, paths) {
			t.Errorf("changed paths = %q, want %q", got, paths)
		}
		b, _ := json.Marshal(changes)
		for _, s := range siblings { // as a whole JSON string: "none" is not the note "one"
			if strings.Contains(string(b), `"`+s+`"`) {
				t.Errorf("the diff names a sibling (%s): %s", s, b)
			}
		}
	}

	created := entry(audit.ActionCreate, "services.shared-links", links["four"])
	only(created, []string{"challenge", "createdAt", "expiresAt", "failedAttempts", "id", "note", "path", "serviceId", "sessionSeconds", "status"},
		links["one"], links["two"], links["three"], "one", "two", "three")
	if c := changeAt(t, created, "note"); c.Before != nil || c.After != "four" {
		t.Errorf("note = %+v", c)
	}
	if c := changeAt(t, created, "id"); c.After != links["four"] {
		t.Errorf("id = %+v", c)
	}
	if c := changeAt(t, created, "status"); c.After != "active" {
		t.Errorf("status = %+v", c)
	}
	b, _ := json.Marshal(created)
	if tok := linkURL[strings.Index(linkURL, "=")+1:]; strings.Contains(string(b), tok) || strings.Contains(string(b), `"url"`) {
		t.Errorf("the create's entry shows the link's secret URL: %s", b)
	}

	revoked := entry(audit.ActionDelete, "services.shared-links", links["two"])
	only(revoked, []string{"revokedAt", "status"}, links["one"], links["three"], links["four"])
	if c := changeAt(t, revoked, "status"); c.Before != "active" || c.After != "revoked" {
		t.Errorf("status = %+v", c)
	}

	token := entry(audit.ActionCreate, "admin.tokens", tokens["deploy"])
	only(token, nil, tokens["ci"], tokens["dash"], "ci", "dash")
	if c := changeAt(t, token, "name"); c.Before != nil || c.After != "deploy" {
		t.Errorf("name = %+v", c)
	}
	only(entry("revoke", "admin.tokens", tokens["dash"]), []string{"revokedAt", "status"}, tokens["ci"], tokens["deploy"])

	updated := entry(audit.ActionUpdate, "credential-sets", sets["friends"])
	only(updated, nil, sets["family"], sets["guests"], "family", "guests")
	if c := changeAt(t, updated, "name"); c.Before != "friends" || c.After != "pals" {
		t.Errorf("name = %+v", c)
	}
	deleted := entry(audit.ActionDelete, "credential-sets", sets["guests"])
	only(deleted, nil, sets["family"], sets["friends"], "family", "pals")
	if c := changeAt(t, deleted, "name"); c.Before != "guests" || c.After != nil {
		t.Errorf("name = %+v", c)
	}

	// No list was read around the writes (the test itself reads none).
	for _, line := range strings.Split(a.logs.String(), "\n") {
		if strings.Contains(line, "method=GET") && (strings.Contains(line, "path=/api/services/"+svc.ID+"/shared-links ") ||
			strings.Contains(line, "path=/api/admin/tokens ") || strings.Contains(line, "path=/api/credential-sets ")) {
			t.Errorf("a list was read: %s", line)
		}
	}
	a.do("GET", "/api/admin/tokens", "")
	if !strings.Contains(a.logs.String(), "method=GET path=/api/admin/tokens ") {
		t.Fatal("a list's GET leaves no line in the log: the check above proves nothing")
	}
	if all.RecordFailures != 0 {
		t.Fatalf("record failures = %d", all.RecordFailures)
	}
}
