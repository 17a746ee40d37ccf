package app

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// peopleService is a service on app.example.com that admits anyone signed
// in on the portal.
func (a *testApp) peopleService(t *testing.T) string {
	t.Helper()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	svc := a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	if rec := a.do("PUT", "/api/services/"+svc.ID+"/protection", `{"people":{"enabled":true}}`); rec.Code != http.StatusOK {
		t.Fatalf("people protection = %d %s", rec.Code, rec.Body)
	}
	return svc.ID
}

// portalSignIn signs username in on the portal's host and returns the
// portal session's cookie.
func (a *testApp) portalSignIn(t *testing.T, username string) string {
	t.Helper()
	rec := testutil.Request(a.handler, "POST", "/api/admin/login", `{"username":"`+username+`","password":"correct-horse-battery"}`,
		"Host", portalHost, "X-Forwarded-Proto", "https")
	if rec.Code != http.StatusOK {
		t.Fatalf("portal sign-in of %s = %d %s", username, rec.Code, rec.Body)
	}
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == admin.CookieName {
			return ck.Value
		}
	}
	t.Fatal("the portal sign-in set no cookie")
	return ""
}

// verifyAt asks r's forward-auth about a browser's request to the service.
func verifyAt(r *testApp, svc, uri, cookie string) *httptest.ResponseRecorder {
	h := []string{"X-Forwarded-Method", "GET", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "app.example.com",
		"X-Forwarded-Uri", uri, "Accept", "text/html"}
	if cookie != "" {
		h = append(h, "Cookie", forwardauth.SessionCookie+"="+cookie)
	}
	return testutil.Request(r.handler, "GET", "/api/auth/verify?service="+svc, "", h...)
}

// serviceSession walks the portal's hop for a person signed in on the
// portal and returns the service session it opens.
func (a *testApp) serviceSession(t *testing.T, svc, portal string) string {
	t.Helper()
	rec := verifyAt(a, svc, "/inbox", "")
	hop, err := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || err != nil || hop.Path != forwardauth.PortalContinuePath {
		t.Fatalf("verify without a session = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	rec = testutil.Request(a.handler, "GET", hop.RequestURI(), "", "Host", portalHost, "X-Forwarded-Proto", "https",
		"Accept", "text/html", "Cookie", admin.CookieName+"="+portal)
	back, err := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || err != nil || back.Host != "app.example.com" {
		t.Fatalf("continue hop = %d %q: %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	res := verifyAt(a, svc, back.RequestURI(), "").Result()
	_ = res.Body.Close()
	for _, ck := range res.Cookies() {
		if ck.Name == forwardauth.SessionCookie && ck.Value != "" {
			return ck.Value
		}
	}
	t.Fatalf("the exchange opened no service session (%d)", res.StatusCode)
	return ""
}

// portalAnswers reports whether the portal session still answers.
func portalAnswers(r *testApp, portal string) bool {
	return testutil.Request(r.handler, "GET", "/api/admin/me", "", "Host", portalHost, "X-Forwarded-Proto", "https",
		"Cookie", admin.CookieName+"="+portal).Code == http.StatusOK
}

// endingWays are the administrator's ways of ending a person's sessions:
// each ends the portal sessions and, through forward-auth's
// EndPortalSessions, the service sessions opened from them.
var endingWays = []struct{ name, method, path, body string }{
	{"end sessions on the People page", "DELETE", "/api/people/{id}/sessions", ""},
	{"disable", "PATCH", "/api/people/{id}", `{"enabled":false}`},
	{"delete", "DELETE", "/api/people/{id}", ""},
	{"set a new password", "PUT", "/api/people/{id}/password", `{"password":"another-horse-battery"}`},
	{"reset the second factor", "DELETE", "/api/people/{id}/second-factor", ""},
}

// Regression: ending a person's sessions from the People page, disabling,
// deleting them, or resetting their password or second factor deleted
// their portal sessions (or, for the People page, left them) without
// ending the service sessions opened from them through forward-auth.
// Every way now goes through admin's one path: the portal session stops
// answering and the service session is refused at once.
func TestEndingAPersonsSessionsEndsTheirServiceSessions(t *testing.T) {
	for _, w := range endingWays {
		t.Run(w.name, func(t *testing.T) {
			a := newTestApp(t, nil)
			a.signIn()
			a.setPortal(t)
			svc := a.peopleService(t)
			ann := a.createUser(t, "ann", "none")
			portal := a.portalSignIn(t, "ann")
			tok := a.serviceSession(t, svc, portal)
			if rec := verifyAt(a, svc, "/", tok); rec.Code != http.StatusOK {
				t.Fatalf("before: %d", rec.Code)
			}
			var rows int64
			a.c.db.Table("sessions").Where("portal_session_id IS NOT NULL AND portal_session_id <> ''").Count(&rows)
			if rows != 1 {
				t.Fatalf("%d service sessions name their portal session, want 1", rows)
			}
			path := strings.Replace(w.path, "{id}", ann, 1)
			if rec := a.do(w.method, path, w.body); rec.Code >= 300 {
				t.Fatalf("%s %s = %d %s", w.method, path, rec.Code, rec.Body)
			}
			if portalAnswers(a, portal) {
				t.Fatal("the portal session still answers")
			}
			if rec := verifyAt(a, svc, "/", tok); rec.Code == http.StatusOK {
				t.Fatal("the service session is still admitted")
			}
			a.c.db.Table("sessions").Count(&rows)
			if rows != 0 {
				t.Fatalf("%d service sessions left", rows)
			}
		})
	}
}

// The same across two replicas on PostgreSQL: ending on A, B refuses the
// service session within a second.
func TestEndingAPersonsSessionsAcrossReplicas(t *testing.T) {
	a, b := newReplicas(t)
	a.setPortal(t)
	svc := a.peopleService(t)
	ann := a.createUser(t, "ann", "none")
	portal := a.portalSignIn(t, "ann")
	tok := a.serviceSession(t, svc, portal)
	for range 2 { // B reads the session once, then answers from its cache
		if rec := verifyAt(b, svc, "/", tok); rec.Code != http.StatusOK {
			t.Fatalf("B before: %d", rec.Code)
		}
	}
	if rec := a.do("DELETE", "/api/people/"+ann+"/sessions", ""); rec.Code != http.StatusNoContent {
		t.Fatalf("end sessions on A = %d %s", rec.Code, rec.Body)
	}
	took := within(t, time.Second, "B refuses the service session", func() bool {
		return verifyAt(b, svc, "/", tok).Code != http.StatusOK
	})
	t.Logf("B refused the service session %v after A ended the person's sessions", took.Round(time.Microsecond))
	if portalAnswers(b, portal) {
		t.Fatal("the portal session still answers on B")
	}
}

// portalDo makes a request on the portal's host with a portal session.
func (a *testApp) portalDo(method, path, body, portal string) *httptest.ResponseRecorder {
	return testutil.Request(a.handler, method, path, body, "Host", portalHost, "X-Forwarded-Proto", "https",
		"Origin", "https://"+portalHost, "Cookie", admin.CookieName+"="+portal)
}

// On the portal a person sees their portal sessions and the service
// sessions opened from each, signs out of one service, of one portal
// session (with its services), and never reaches another person's.
func TestPortalAccountSessions(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.setPortal(t)
	svc := a.peopleService(t)
	a.createUser(t, "ann", "none")
	a.createUser(t, "bob", "none")
	phone, laptop := a.portalSignIn(t, "ann"), a.portalSignIn(t, "ann")
	onPhone, onLaptop := a.serviceSession(t, svc, phone), a.serviceSession(t, svc, laptop)
	bob := a.portalSignIn(t, "bob")
	a.serviceSession(t, svc, bob)

	type own struct{ ID, ServiceName, PortalSessionID string }
	list := func(portal string) []own {
		t.Helper()
		rec := a.portalDo("GET", "/api/portal/sessions", "", portal)
		if rec.Code != http.StatusOK {
			t.Fatalf("own service sessions = %d %s", rec.Code, rec.Body)
		}
		return decode[struct{ Items []own }](t, rec).Items
	}
	mine := list(phone)
	if len(mine) != 2 || mine[0].ServiceName != "app" || mine[0].PortalSessionID == mine[1].PortalSessionID {
		t.Fatalf("ann's service sessions = %+v", mine)
	}
	portals := decode[struct {
		Items []struct {
			ID      string
			Current bool
			Portal  bool
		}
	}](t, a.portalDo("GET", "/api/admin/me/sessions", "", phone)).Items
	if len(portals) != 2 || !portals[0].Portal || !portals[1].Portal || portals[0].Current == portals[1].Current {
		t.Fatalf("ann's portal sessions = %+v", portals)
	}
	var laptopID string
	for _, p := range portals {
		if !p.Current {
			laptopID = p.ID
		}
	}
	// Bob's session is not ann's to end; without a portal session, 401.
	bobs := list(bob)
	if rec := a.portalDo("DELETE", "/api/portal/sessions/"+bobs[0].ID, "", phone); rec.Code != http.StatusNotFound {
		t.Fatalf("ending bob's session as ann = %d", rec.Code)
	}
	if rec := a.portalDo("GET", "/api/portal/sessions", "", "nope"); rec.Code != http.StatusUnauthorized {
		t.Fatalf("without a portal session = %d", rec.Code)
	}
	// Signing out of one service ends that service session only.
	var phoneSvc string
	for _, m := range mine {
		if m.PortalSessionID != laptopID {
			phoneSvc = m.ID
		}
	}
	if rec := a.portalDo("DELETE", "/api/portal/sessions/"+phoneSvc, "", phone); rec.Code != http.StatusNoContent {
		t.Fatalf("sign out of a service = %d %s", rec.Code, rec.Body)
	}
	if verifyAt(a, svc, "/", onPhone).Code == http.StatusOK || verifyAt(a, svc, "/", onLaptop).Code != http.StatusOK {
		t.Fatal("signing out of one service session ended the wrong one")
	}
	// Signing the laptop out from the phone ends its service sessions too.
	if rec := a.portalDo("DELETE", "/api/admin/me/sessions/"+laptopID, "", phone); rec.Code != http.StatusNoContent {
		t.Fatalf("sign out the laptop = %d %s", rec.Code, rec.Body)
	}
	if portalAnswers(a, laptop) || verifyAt(a, svc, "/", onLaptop).Code == http.StatusOK || !portalAnswers(a, phone) {
		t.Fatal("signing out the laptop's portal session")
	}
	if got := list(phone); len(got) != 0 {
		t.Fatalf("ann's service sessions left: %+v", got)
	}
}
