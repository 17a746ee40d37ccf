package app

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// A person linked to the OpenID provider sees their single sign-on sessions
// on every service on the People page; an admin ends one, or all of them
// with the panel's, and disabling the person ends them too. Another
// identity's sessions are never theirs.
func TestPersonServiceSessions(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	svc := a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	ann := a.createUser(t, "ann", "none")
	const issuer = "https://id.example.com"
	if err := a.c.db.Model(&store.Person{}).Where("id = ?", ann).
		Updates(map[string]any{"sso_issuer": issuer, "sso_subject": "sub-ann"}).Error; err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	open := func(id, subject string) {
		t.Helper()
		if err := a.c.db.Create(&store.Session{ID: id, TokenHash: "hash-" + id, ServiceID: svc.ID, Kind: store.SessionSSO,
			Subject: subject, SSOIssuer: issuer, SSOSubject: subject, Groups: store.NewJSON([]string{}),
			CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(time.Hour)}).Error; err != nil {
			t.Fatal(err)
		}
	}
	open("s1", "sub-ann")
	open("s2", "sub-ann")
	open("s3", "sub-bob")
	list := func() []string {
		t.Helper()
		rec := a.do("GET", "/api/people/"+ann+"/service-sessions", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("list = %d %s", rec.Code, rec.Body)
		}
		var ids []string
		for _, s := range decode[struct {
			Items []struct{ ID, ServiceName string }
		}](t, rec).Items {
			ids = append(ids, s.ID+"@"+s.ServiceName)
		}
		return ids
	}
	if got := strings.Join(list(), ","); got != "s2@app,s1@app" && got != "s1@app,s2@app" {
		t.Fatalf("ann's service sessions = %s", got)
	}
	if rec := a.do("DELETE", "/api/people/"+ann+"/service-sessions/s3", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("ending bob's session through ann = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/people/"+ann+"/service-sessions/s1", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end s1 = %d %s", rec.Code, rec.Body)
	}
	if got := list(); len(got) != 1 {
		t.Fatalf("after ending s1: %v", got)
	}
	if rec := a.do("PATCH", "/api/people/"+ann, `{"enabled":false}`); rec.Code != http.StatusOK {
		t.Fatalf("disable = %d %s", rec.Code, rec.Body)
	}
	if got := list(); len(got) != 0 {
		t.Fatalf("a disabled person kept %v", got)
	}
	var left int64
	if err := a.c.db.Model(&store.Session{}).Count(&left).Error; err != nil || left != 1 {
		t.Fatalf("%d sessions left (%v); want bob's only", left, err)
	}
	// Ending every session reaches the services too.
	open("s4", "sub-ann")
	if rec := a.do("DELETE", "/api/people/"+ann+"/sessions", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end all = %d %s", rec.Code, rec.Body)
	}
	if got := list(); len(got) != 0 {
		t.Fatalf("after ending all: %v", got)
	}
	// A person never linked to the provider has none.
	nobody := a.createUser(t, "nobody", "none")
	if rec := a.do("GET", "/api/people/"+nobody+"/service-sessions", ""); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"items":[]`) {
		t.Fatalf("an unlinked person's service sessions = %d %s", rec.Code, rec.Body)
	}
}
