package app

import (
	"net/http"
	"strings"
	"testing"
)

// TestAppPasswordsAPI: a person creates an app password (its secret shown
// once, never listed), sees it, and an administrator sees and revokes it
// on the People page's routes.
func TestAppPasswordsAPI(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	me := a.userID(t, "admin")
	rec := a.do("POST", "/api/admin/me/app-passwords", `{"name":"Phone calendar"}`)
	if rec.Code != http.StatusCreated || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	created := decode[struct{ ID, Name, Secret string }](t, rec)
	if created.Secret == "" || created.Name != "Phone calendar" {
		t.Fatalf("created %+v", created)
	}
	for _, c := range []struct {
		body  string
		code  int
		field string
	}{
		{`{"name":""}`, http.StatusUnprocessableEntity, "name"},
		{`{"name":"` + strings.Repeat("x", 65) + `"}`, http.StatusUnprocessableEntity, "name"},
		{`{"name":"phone calendar"}`, http.StatusConflict, "name"},
	} {
		rec := a.do("POST", "/api/admin/me/app-passwords", c.body)
		if e := decodeEnvelope(t, rec); rec.Code != c.code || len(e.Error.Fields) == 0 || e.Error.Fields[0].Field != c.field {
			t.Fatalf("%s = %d %s", c.body, rec.Code, rec.Body)
		}
	}
	for _, path := range []string{"/api/admin/me/app-passwords", "/api/people/" + me + "/app-passwords"} {
		rec := a.do("GET", path, "")
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), created.Secret) || !strings.Contains(rec.Body.String(), created.ID) {
			t.Fatalf("GET %s = %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := a.do("GET", "/api/people/nobody/app-passwords", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown person = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/people/"+me+"/app-passwords/"+strings.Repeat("x", 100), ""); rec.Code != http.StatusNotFound {
		t.Fatalf("oversized id = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/people/"+me+"/app-passwords/"+created.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/admin/me/app-passwords/"+created.ID, ""); rec.Code != http.StatusNotFound {
		t.Fatalf("revoke twice = %d", rec.Code)
	}
	if rec := a.do("GET", "/api/admin/me/app-passwords", ""); !strings.Contains(rec.Body.String(), `"items":[]`) {
		t.Fatalf("after revoke: %s", rec.Body)
	}
	log := a.do("GET", "/api/audit?limit=200", "").Body.String()
	if !strings.Contains(log, "people.app-passwords") || strings.Contains(log, created.Secret) {
		t.Fatalf("audit log must record app passwords without their secret: %s", log)
	}
}
