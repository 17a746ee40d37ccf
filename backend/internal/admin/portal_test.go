package admin_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const (
	portalHost = "auth.example.test"
	portalURL  = "https://" + portalHost
)

// ender records the portal sessions whose service sessions were ended.
type ender struct {
	mu  sync.Mutex
	ids []string
}

func (e *ender) EndPortalSessions(_ context.Context, ids ...string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ids = append(e.ids, ids...)
	return nil
}

func withPortal(d *admin.Deps) {
	d.PortalHost = func(context.Context) string { return portalHost }
	d.PortalURL = func(context.Context) string { return portalURL }
	d.PortalPolicy = func(context.Context) (admin.PortalPolicy, error) {
		return admin.PortalPolicy{Idle: time.Hour, Remember: 24 * time.Hour, Absolute: 48 * time.Hour}, nil
	}
}

// addPerson adds a person with a password and the panel role role.
func addPerson(t *testing.T, a *tfApp, username, role string) store.Person {
	t.Helper()
	hash, _ := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	now := a.clock.Now()
	p := store.Person{ID: store.NewID(), Username: username, PasswordHash: string(hash), PanelRole: role, CreatedAt: now, UpdatedAt: now}
	if err := a.db.Create(&p).Error; err != nil {
		t.Fatal(err)
	}
	return p
}

// signInWith posts username's password and decodes the answer.
func (a *tfApp) signInWith(username string, status int) (methods []string) {
	a.t.Helper()
	rec := a.expect("POST", "/api/admin/login", `{"username":"`+username+`","password":"`+password+`"}`, status)
	var res struct {
		SecondFactor *struct {
			Methods []string `json:"methods"`
		} `json:"secondFactor"`
	}
	if status == http.StatusOK {
		decode(a.t, rec, &res)
	}
	if res.SecondFactor != nil {
		return res.SecondFactor.Methods
	}
	return nil
}

// portalSession reads the portal session of the jar's cookie, as
// forward-auth does on the portal's host.
func (a *tfApp) portalSession(host string) (admin.PortalSession, bool) {
	a.t.Helper()
	r := httptest.NewRequest("GET", "/api/auth/portal", nil)
	r.Host = host
	r.Header.Set("Cookie", admin.CookieName+"="+a.jar[admin.CookieName])
	s, ok, err := a.svc.PortalSignIn(context.Background(), r)
	if err != nil {
		a.t.Fatal(err)
	}
	return s, ok
}

// A person without a panel role signs in on the portal, and only there:
// the portal session answers the account's routes on the portal's host and
// nothing on the panel's; the panel refuses that person's sign-in.
func TestPortalSignInForAPersonWithoutPanelRole(t *testing.T) {
	a := newTFApp(t, withPortal)
	casey := addPerson(t, a, "casey", "none")
	a.jar = map[string]string{}

	if rec := a.do("POST", "/api/admin/login", `{"username":"casey","password":"`+password+`"}`); rec.Code != http.StatusForbidden {
		t.Fatalf("panel sign-in without a panel role = %d %s; want 403", rec.Code, rec.Body)
	}
	a.host = portalHost
	a.signInWith("casey", http.StatusOK)
	var me struct {
		User admin.User `json:"user"`
	}
	decode(t, a.expect("GET", "/api/admin/me", "", http.StatusOK), &me)
	if me.User.ID != casey.ID {
		t.Fatalf("me = %+v", me)
	}
	a.expect("GET", "/api/admin/me/sessions", "", http.StatusOK)
	// A route not marked for the portal does not exist on its host.
	if rec := a.do("GET", "/api/probe", ""); rec.Code != http.StatusNotFound || errorCode(t, rec) != "not_found" {
		t.Fatalf("guarded route on the portal host = %d %s; want 404", rec.Code, rec.Body)
	}
	s, ok := a.portalSession(portalHost)
	if !ok || s.PersonID != casey.ID || s.SecondFactor {
		t.Fatalf("PortalSignIn = %+v %v", s, ok)
	}
	if _, ok := a.portalSession("panel.example.test"); ok {
		t.Fatal("a portal session was read from a request on another host")
	}
	// The same cookie on the panel's host is no session at all.
	a.host = ""
	for _, path := range []string{"/api/admin/me", "/api/probe"} {
		if rec := a.do("GET", path, ""); rec.Code != http.StatusUnauthorized {
			t.Fatalf("portal session on the panel: GET %s = %d %s; want 401", path, rec.Code, rec.Body)
		}
	}
}

// An administrator's panel session is no portal session, and the reverse.
func TestPanelSessionDoesNotAnswerOnThePortal(t *testing.T) {
	a := newTFApp(t, withPortal) // signed in on the panel
	a.host = portalHost
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("panel session on the portal = %d %s; want 401", rec.Code, rec.Body)
	}
	if _, ok := a.portalSession(portalHost); ok {
		t.Fatal("a panel session was read as a portal session")
	}
}

// Password and TOTP, then a passkey alone, on the portal.
func TestPortalSignInWithSecondFactors(t *testing.T) {
	a := newTFApp(t, withPortal)
	addPerson(t, a, "casey", "none")
	a.jar = map[string]string{}
	a.host = portalHost
	a.signInWith("casey", http.StatusOK)

	// Enrol TOTP on the portal's account page.
	var en admin.TOTPEnrolment
	decode(t, a.expect("POST", "/api/admin/me/2fa/totp", "", http.StatusOK), &en)
	a.expect("POST", "/api/admin/me/2fa/totp/confirm", `{"code":"`+a.code(en.Secret)+`"}`, http.StatusOK)
	// A passkey made on the portal is bound to the portal's host.
	k := testutil.NewAuthenticator(t, portalURL)
	a.clock.Add(time.Second)
	a.registerPasskey(k, "phone")
	a.expect("POST", "/api/admin/logout", "", http.StatusNoContent)
	a.jar = map[string]string{}

	if m := a.signInWith("casey", http.StatusOK); !slices.Contains(m, "totp") || a.signedIn() {
		t.Fatalf("password alone: methods %v, signed in %v", m, a.signedIn())
	}
	a.clock.Add(30 * time.Second)
	a.expect("POST", "/api/admin/login/totp", `{"code":"`+a.code(en.Secret)+`"}`, http.StatusOK)
	if s, ok := a.portalSession(portalHost); !ok || !s.SecondFactor {
		t.Fatalf("after TOTP: %+v %v", s, ok)
	}
	a.expect("POST", "/api/admin/logout", "", http.StatusNoContent)
	a.jar = map[string]string{}

	a.passkeyLogin(k, http.StatusOK)
	if s, ok := a.portalSession(portalHost); !ok || !s.SecondFactor {
		t.Fatalf("after the passkey: %+v %v", s, ok)
	}
}

// Sign out everywhere ends every portal session of the person and hands
// their ids to forward-auth; the session policy ends idle sessions and
// caps active ones.
func TestPortalSignOutEverywhereAndPolicy(t *testing.T) {
	e := &ender{}
	a := newTFApp(t, withPortal)
	a.svc.SetPortalSessionEnder(e)
	addPerson(t, a, "casey", "none")
	a.jar = map[string]string{}
	a.host = portalHost
	a.signInWith("casey", http.StatusOK)
	first := a.jar[admin.CookieName]
	s1, _ := a.portalSession(portalHost)
	a.jar = map[string]string{}
	a.signInWith("casey", http.StatusOK)
	s2, _ := a.portalSession(portalHost)

	a.expect("POST", "/api/admin/logout?everywhere=1", "", http.StatusNoContent)
	a.jar = map[string]string{admin.CookieName: first}
	if rec := a.do("GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("the other portal session after sign out everywhere = %d", rec.Code)
	}
	slices.Sort(e.ids)
	want := []string{s1.SessionID, s2.SessionID}
	slices.Sort(want)
	if !slices.Equal(e.ids, want) {
		t.Fatalf("service sessions ended for %v; want %v", e.ids, want)
	}

	// Idle timeout (1 hour).
	a.jar = map[string]string{}
	a.signInWith("casey", http.StatusOK)
	a.clock.Add(61 * time.Minute)
	a.expect("GET", "/api/admin/me", "", http.StatusUnauthorized)

	// Remember me (24 hours idle), capped by the absolute lifetime (48 hours).
	a.jar = map[string]string{}
	rec := a.expect("POST", "/api/admin/login?remember=1", `{"username":"casey","password":"`+password+`"}`, http.StatusOK)
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == admin.CookieName && ck.MaxAge != int((24*time.Hour).Seconds()) {
			t.Fatalf("remembered cookie max age = %d", ck.MaxAge)
		}
	}
	for range 2 {
		a.clock.Add(20 * time.Hour) // past the plain idle timeout, within remember-me
		a.expect("GET", "/api/admin/me", "", http.StatusOK)
	}
	a.clock.Add(9 * time.Hour) // 49 hours after sign-in, 9 since last use
	a.expect("GET", "/api/admin/me", "", http.StatusUnauthorized)
}
