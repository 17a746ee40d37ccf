package forwardauth

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A cached people session (opened through the portal's hop) is answered
// from memory: the session cache and the directory snapshot, with no
// database query per request (BenchmarkVerifyPeopleSession measures it).
func TestVerifyPeopleSessionMakesNoQuery(t *testing.T) {
	v := newPeopleEnv(t)
	id := v.service("mail.example.com")
	v.protectPeople(id, map[string]any{"groups": []string{v.family}})
	v.portal.set("p", PortalSignIn{PersonID: v.ann, SessionID: "ps", At: v.clock.Now()})
	tok := v.signIn(id, "mail.example.com", "p")
	req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service="+id, nil)
	for k, val := range map[string]string{"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "https",
		"X-Forwarded-Host": "mail.example.com", "X-Forwarded-Uri": "/x", "Cookie": SessionCookie + "=" + tok} {
		req.Header.Set(k, val)
	}
	serve := func() {
		t.Helper()
		rec := httptest.NewRecorder()
		v.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Remote-User") != "ann" || rec.Header().Get("Remote-Groups") != "family" {
			t.Fatalf("verify = %d %v", rec.Code, rec.Header())
		}
	}
	serve() // warms the session cache
	before := v.queries.Load()
	for range 200 {
		serve()
	}
	if n := v.queries.Load() - before; n != 0 {
		t.Fatalf("%d queries for 200 verify requests of a cached people session, want 0", n)
	}
}
