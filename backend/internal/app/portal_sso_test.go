package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const portalURL = "https://" + portalHost

// ssoUser is a provider user whose ID token also carries amr.
type ssoUser struct {
	*mockoidc.MockUser
	amr []string
}

func (u ssoUser) Claims(scope []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	c, err := u.MockUser.Claims(scope, base)
	if err != nil || len(u.amr) == 0 {
		return c, err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	m := jwt.MapClaims{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["amr"] = u.amr
	return m, nil
}

func idpUser(sub, username, email string, verified bool, groups ...string) ssoUser {
	return ssoUser{MockUser: &mockoidc.MockUser{Subject: sub, PreferredUsername: username, Email: email,
		EmailVerified: verified, Groups: groups}}
}

// portalIDP is the app with its portal on portalHost, a real in-process
// OpenID provider configured, and the portal's "Sign in with …" on.
type portalIDP struct {
	*testApp
	t *testing.T
	m *mockoidc.MockOIDC
}

func newPortalIDP(t *testing.T, createPeople bool) *portalIDP {
	t.Helper()
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": "https://panel.example.com"})
	a.signIn()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	cfg := m.Config()
	body, _ := json.Marshal(map[string]any{"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID,
		"clientSecret": cfg.ClientSecret, "scopes": []string{"openid", "email", "profile", "groups"}})
	if rec := a.do("PUT", "/api/sso", string(body)); rec.Code != http.StatusOK {
		t.Fatalf("provider settings = %d %s", rec.Code, rec.Body)
	}
	v := &portalIDP{testApp: a, t: t, m: m}
	v.portalSettings(true, createPeople)
	return v
}

func (v *portalIDP) portalSettings(on, createPeople bool) {
	v.t.Helper()
	body := fmt.Sprintf(`{"host":%q,"name":"Family","logo":"","accentColor":"#0a7d55","idleTimeoutSeconds":3600,`+
		`"rememberMeSeconds":86400,"absoluteLifetimeSeconds":604800,"providerSignIn":%t,"providerName":"Example ID","createPeople":%t}`,
		portalHost, on, createPeople)
	if rec := v.do("PUT", "/api/config/portal", body); rec.Code != http.StatusOK {
		v.t.Fatalf("portal settings = %d %s", rec.Code, rec.Body)
	}
}

// attempt is a sign-in started on the portal: the provider's address and
// the state cookie.
type attempt struct {
	auth   *url.URL
	cookie string
}

func (v *portalIDP) start(rd string) attempt {
	v.t.Helper()
	path := sso.PortalStartPath
	if rd != "" {
		path += "?rd=" + url.QueryEscape(rd)
	}
	rec := testutil.Request(v.handler, "GET", path, "", "Host", portalHost)
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || loc == nil || loc.Host == portalHost || loc.Host == "" {
		v.t.Fatalf("start = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	q := loc.Query()
	if q.Get("redirect_uri") != portalURL+sso.PortalCallbackPath || q.Get("code_challenge_method") != "S256" ||
		q.Get("nonce") == "" || q.Get("state") == "" {
		v.t.Fatalf("authorization request %s", loc)
	}
	a := attempt{auth: loc}
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "gatehouse_portal_sso" {
			a.cookie = ck.Name + "=" + ck.Value
		}
	}
	if a.cookie == "" {
		v.t.Fatal("start set no state cookie")
	}
	return a
}

// provider signs user in at the provider and returns its redirect back.
func (v *portalIDP) provider(a attempt, user mockoidc.User) *url.URL {
	v.t.Helper()
	v.m.QueueUser(user)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(a.auth.String())
	if err != nil {
		v.t.Fatal(err)
	}
	_ = resp.Body.Close()
	cb, _ := url.Parse(resp.Header.Get("Location"))
	if cb == nil || cb.Path != sso.PortalCallbackPath {
		v.t.Fatalf("provider sent to %q", resp.Header.Get("Location"))
	}
	return cb
}

func (v *portalIDP) callback(cb *url.URL, cookie string) *httptest.ResponseRecorder {
	v.t.Helper()
	return testutil.Request(v.handler, "GET", cb.RequestURI(), "", "Host", portalHost, "Cookie", cookie)
}

// signInAs runs the whole sign-in; it returns the portal session ("" when
// refused) and the sign-in page's address it ended on.
func (v *portalIDP) signInAs(user mockoidc.User, rd string) (string, *url.URL) {
	v.t.Helper()
	a := v.start(rd)
	rec := v.callback(v.provider(a, user), a.cookie)
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || loc == nil || loc.Path != "/login" {
		v.t.Fatalf("callback = %d %q %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	session := ""
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "gatehouse_admin" && ck.Value != "" {
			session = ck.Value
		}
	}
	if (session == "") != (loc.Query().Get("error") != "") {
		v.t.Fatalf("callback to %s with session %q", loc, session)
	}
	return session, loc
}

// me is who a portal session signs in as, and whether the session holds
// a second factor.
func (v *portalIDP) me(session string) (string, bool) {
	v.t.Helper()
	rec := testutil.Request(v.handler, "GET", "/api/admin/me", "", "Host", portalHost, "Cookie", "gatehouse_admin="+session)
	if rec.Code != http.StatusOK {
		v.t.Fatalf("me = %d %s", rec.Code, rec.Body)
	}
	out := decode[struct {
		User struct {
			Username string `json:"username"`
		} `json:"user"`
	}](v.t, rec)
	var sess store.AdminSession
	if err := v.c.db.Where("token_hash = ?", bearer.Hash(session)).Take(&sess).Error; err != nil || !sess.Portal {
		v.t.Fatalf("session row %+v (%v)", sess, err)
	}
	return out.User.Username, sess.SecondFactor
}

func (v *portalIDP) person(username, email string) string {
	v.t.Helper()
	rec := v.do("POST", "/api/people", fmt.Sprintf(`{"username":%q,"email":%q,"panelRole":"none"}`, username, email))
	if rec.Code != http.StatusCreated {
		v.t.Fatalf("create %s = %d %s", username, rec.Code, rec.Body)
	}
	return decode[struct{ ID string }](v.t, rec).ID
}

func (v *portalIDP) group(name string) string {
	v.t.Helper()
	return v.mustCreate("/api/groups", fmt.Sprintf(`{"name":%q}`, name)).ID
}

func (v *portalIDP) count(model any, where string, args ...any) int64 {
	v.t.Helper()
	var n int64
	if err := v.c.db.Model(model).Where(where, args...).Count(&n).Error; err != nil {
		v.t.Fatal(err)
	}
	return n
}

// service makes a service on <sub>.example.com with the given people
// protection and returns its id.
func (v *portalIDP) service(sub string, people map[string]any) string {
	v.t.Helper()
	if v.count(&store.Domain{}, "domain = ?", "example.com") == 0 {
		v.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	}
	var d store.Domain
	v.c.db.Where("domain = ?", "example.com").Take(&d)
	svc := v.mustCreate("/api/services", strings.Replace(svcBody(d.ID, sub, ""), `"name":"app"`, `"name":"`+sub+`"`, 1))
	people["enabled"] = true
	body, _ := json.Marshal(map[string]any{"people": people})
	if rec := v.do("PUT", "/api/services/"+svc.ID+"/protection", string(body)); rec.Code != http.StatusOK {
		v.t.Fatalf("protect = %d %s", rec.Code, rec.Body)
	}
	return svc.ID
}

// open follows a browser with a portal session from the service through
// the portal's continue hop and back; it returns the status the service
// finally answers (200 admitted), or the hop's refusal (403), or 302 for a
// hop that sends the person to sign in again or add a factor.
func (v *portalIDP) open(svc, sub, session string) int {
	v.t.Helper()
	host := sub + ".example.com"
	verify := func(uri, cookie string) *httptest.ResponseRecorder {
		h := []string{"X-Forwarded-Method", "GET", "X-Forwarded-Proto", "https", "X-Forwarded-Host", host,
			"X-Forwarded-Uri", uri, "Accept", "text/html"}
		if cookie != "" {
			h = append(h, "Cookie", forwardauth.SessionCookie+"="+cookie)
		}
		return testutil.Request(v.handler, "GET", "/api/auth/verify?service="+url.QueryEscape(svc), "", h...)
	}
	rec := verify("/inbox", "")
	if rec.Code != http.StatusFound || !strings.HasPrefix(rec.Header().Get("Location"), portalURL+forwardauth.PortalContinuePath) {
		v.t.Fatalf("verify signed out = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	hop, _ := url.Parse(rec.Header().Get("Location"))
	rec = testutil.Request(v.handler, "GET", hop.RequestURI(), "", "Host", portalHost, "Accept", "text/html",
		"Cookie", "gatehouse_admin="+session)
	back, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || back == nil || back.Host != host {
		return rec.Code
	}
	rec = verify(back.RequestURI(), "")
	var cookie string
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == forwardauth.SessionCookie && ck.Value != "" {
			cookie = ck.Value
		}
	}
	if cookie == "" {
		v.t.Fatalf("exchange = %d, no service session", rec.Code)
	}
	return verify("/inbox", cookie).Code
}

// A person made by an administrator, with an address, is linked by the
// provider's verified address at their first sign-in with it and by the
// subject afterwards; the link shows on the People page, and an
// administrator removes it.
func TestPortalProviderLinksByVerifiedEmail(t *testing.T) {
	v := newPortalIDP(t, false)
	ann := v.person("ann", "Ann@Example.com")
	rd := portalURL + "/account"
	session, loc := v.signInAs(idpUser("sub-ann", "annie", "ann@example.com", true), rd)
	if loc.Query().Get("rd") != rd {
		t.Fatalf("ended on %s; want the sign-in page going on to %s", loc, rd)
	}
	if who, second := v.me(session); who != "ann" || second {
		t.Fatalf("signed in as %q (second factor %v)", who, second)
	}
	rec := v.do("GET", "/api/people/"+ann, "")
	p := decode[struct {
		LinkedIdentities []struct{ Issuer, Subject string } `json:"linkedIdentities"`
	}](t, rec)
	if len(p.LinkedIdentities) != 1 || p.LinkedIdentities[0].Subject != "sub-ann" || p.LinkedIdentities[0].Issuer != v.m.Issuer() {
		t.Fatalf("linked identities = %s", rec.Body)
	}
	// Linked by subject now: another address at the provider is still ann.
	session, _ = v.signInAs(idpUser("sub-ann", "annie", "ann@elsewhere.example", false), "")
	if who, _ := v.me(session); who != "ann" {
		t.Fatalf("second sign-in as %q", who)
	}
	providerSignIns := 0
	for _, e := range v.audit("?resourceType=admin.sessions&action=signin").Items {
		if e.Route == sso.PortalCallbackPath {
			providerSignIns++
			if e.Actor.Name != "ann" {
				t.Errorf("the sign-in names %+v", e.Actor)
			}
		}
	}
	if providerSignIns != 2 {
		t.Errorf("%d provider sign-ins in the audit log; want 2", providerSignIns)
	}
	if got := v.audit("?resourceType=people"); !strings.Contains(fmt.Sprint(got), "link") {
		t.Errorf("the link is not in the audit log: %+v", got)
	}
	// Unlink: only an administrator, and the identity is gone.
	if rec := v.do("DELETE", "/api/people/"+ann+"/linked-identity", ""); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `"linkedIdentities":[]`) {
		t.Fatalf("unlink = %d %s", rec.Code, rec.Body)
	}
	if rec := v.do("DELETE", "/api/people/"+ann+"/linked-identity", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("unlink twice = %d", rec.Code)
	}
	if v.count(&store.Person{}, "sso_subject = ?", "sub-ann") != 0 {
		t.Fatal("the link survived")
	}
}

// An address the provider has not verified links no one, and makes no one
// while creating people is off.
func TestPortalProviderRefusesUnverifiedEmail(t *testing.T) {
	v := newPortalIDP(t, false)
	v.person("bob", "bob@example.com")
	session, loc := v.signInAs(idpUser("sub-mallory", "bob", "bob@example.com", false), "")
	if session != "" || loc.Query().Get("error") != "sso_not_allowed" {
		t.Fatalf("unverified address = %s", loc)
	}
	if v.count(&store.Person{}, "sso_subject <> ''") != 0 {
		t.Fatal("an unverified address linked a person")
	}
	// With creating on, the identity gets a person of its own, never bob.
	v.portalSettings(true, true)
	session, _ = v.signInAs(idpUser("sub-mallory", "bob", "bob@example.com", false), "")
	if who, _ := v.me(session); who == "bob" || who == "" {
		t.Fatalf("unverified address signed in as %q", who)
	}
	var bob store.Person
	v.c.db.Where("username = ?", "bob").Take(&bob)
	if bob.SSOSubject != "" {
		t.Fatalf("bob was linked: %+v", bob)
	}
}

func TestPortalProviderCreatesPeopleOnlyWhenAllowed(t *testing.T) {
	v := newPortalIDP(t, false)
	newcomer := idpUser("sub-cleo", "cleo", "cleo@example.com", true)
	if session, loc := v.signInAs(newcomer, ""); session != "" || loc.Query().Get("error") != "sso_not_allowed" {
		t.Fatalf("creating off: %s", loc)
	}
	if v.count(&store.Person{}, "username = ?", "cleo") != 0 {
		t.Fatal("a person was made with creating off")
	}
	v.portalSettings(true, true)
	session, _ := v.signInAs(newcomer, "")
	if who, _ := v.me(session); who != "cleo" {
		t.Fatalf("created person signs in as %q", who)
	}
	var p store.Person
	v.c.db.Where("username = ?", "cleo").Take(&p)
	if p.PanelRole != store.PanelRoleNone || p.Email != "cleo@example.com" || p.SSOSubject != "sub-cleo" || p.SSOLinkedAt == nil || p.PasswordHash != "" {
		t.Fatalf("created person %+v", p)
	}
	// The panel is not theirs.
	if rec := testutil.Request(v.handler, "POST", "/api/admin/login", `{"username":"cleo","password":"x"}`); rec.Code == http.StatusOK {
		t.Fatal("a created person signed in to the panel")
	}
	if got := v.audit("?resourceType=people&action=create"); !strings.Contains(fmt.Sprint(got), "cleo") {
		t.Errorf("the creation is not in the audit log: %+v", got)
	}
	// Switching "Sign in with …" off closes the door.
	v.portalSettings(false, true)
	rec := testutil.Request(v.handler, "GET", sso.PortalStartPath, "", "Host", portalHost)
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusFound || loc != "/login?error=sso_unavailable" {
		t.Fatalf("start while off = %d %q", rec.Code, loc)
	}
	if rec := testutil.Request(v.handler, "GET", "/api/portal", "", "Host", portalHost); strings.Contains(rec.Body.String(), "Example ID") {
		t.Fatalf("the portal still offers the provider: %s", rec.Body)
	}
}

// Groups follow the provider's claim: a claimed group that exists gains
// the person, an unknown one is ignored (never created), a group the
// claim drops loses them at the next sign-in, and a membership an
// administrator gave stays. Services follow.
func TestPortalProviderGroupMapping(t *testing.T) {
	v := newPortalIDP(t, true)
	family := v.group("family")
	admins := v.group("Admins")
	svc := v.service("mail", map[string]any{"groups": []string{family}})
	dan := v.person("dan", "dan@example.com")
	if rec := v.do("POST", "/api/groups/"+admins+"/members", `{"personId":"`+dan+`"}`); rec.Code != http.StatusOK && rec.Code != http.StatusCreated {
		t.Fatalf("add member = %d %s", rec.Code, rec.Body)
	}

	session, _ := v.signInAs(idpUser("sub-dan", "dan", "dan@example.com", true, "family", "no-such-group", "admins"), "")
	if v.count(&store.Group{}, "name = ?", "no-such-group") != 0 {
		t.Fatal("a claimed group the directory lacks was created")
	}
	if n := v.count(&store.GroupMember{}, "person_id = ? AND group_id = ? AND from_provider = ?", dan, family, true); n != 1 {
		t.Fatal("the claim did not put dan in family")
	}
	if n := v.count(&store.GroupMember{}, "person_id = ? AND group_id = ? AND from_provider = ?", dan, admins, false); n != 1 {
		t.Fatal("the administrator's membership changed hands")
	}
	if code := v.open(svc, "mail", session); code != http.StatusOK {
		t.Fatalf("family member opens mail = %d", code)
	}
	// The provider no longer says family: the next sign-in takes it back.
	session, _ = v.signInAs(idpUser("sub-dan", "dan", "dan@example.com", true), "")
	if v.count(&store.GroupMember{}, "person_id = ? AND group_id = ?", dan, family) != 0 {
		t.Fatal("family kept dan after the claim dropped it")
	}
	if v.count(&store.GroupMember{}, "person_id = ? AND group_id = ?", dan, admins) != 1 {
		t.Fatal("the claim took back a membership an administrator gave")
	}
	if code := v.open(svc, "mail", session); code != http.StatusForbidden {
		t.Fatalf("dan out of family opens mail = %d", code)
	}
	if got := v.audit("?resourceType=people.groups"); !strings.Contains(fmt.Sprint(got), "provider-groups") {
		t.Errorf("group changes are not in the audit log: %+v", got)
	}
}

func TestPortalProviderRefusesDisabledPeople(t *testing.T) {
	v := newPortalIDP(t, true)
	eve := v.person("eve", "eve@example.com")
	if rec := v.do("PATCH", "/api/people/"+eve, `{"enabled":false}`); rec.Code != http.StatusOK {
		t.Fatalf("disable = %d %s", rec.Code, rec.Body)
	}
	session, loc := v.signInAs(idpUser("sub-eve", "eve", "eve@example.com", true), "")
	if session != "" || loc.Query().Get("error") != "sso_disabled" {
		t.Fatalf("disabled person = %s", loc)
	}
	if v.count(&store.AdminSession{}, "user_id = ?", eve) != 0 {
		t.Fatal("a disabled person got a session")
	}
}

// A callback works once (its state is spent), a code made for another
// sign-in fails that sign-in's nonce, a callback without the cookie or on
// another host is refused, and rd never leaves the portal.
func TestPortalProviderReplayAndRedirects(t *testing.T) {
	v := newPortalIDP(t, true)
	user := idpUser("sub-fay", "fay", "fay@example.com", true)
	a := v.start("")
	cb := v.provider(a, user)
	if rec := v.callback(cb, a.cookie); rec.Code != http.StatusFound || !strings.HasPrefix(rec.Header().Get("Location"), "/login") ||
		strings.Contains(rec.Header().Get("Location"), "error") {
		t.Fatalf("first callback = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	// The provider refuses its spent code (sso_failed) before the spent
	// state is looked at; either way no session.
	sessions := v.count(&store.AdminSession{}, "portal = ?", true)
	if rec := v.callback(cb, a.cookie); !strings.Contains(rec.Header().Get("Location"), "error=sso_") || len(rec.Result().Cookies()) != 1 {
		t.Fatalf("replayed callback = %d %q %v", rec.Code, rec.Header().Get("Location"), rec.Result().Cookies())
	}
	if v.count(&store.AdminSession{}, "portal = ?", true) != sessions {
		t.Fatal("a replayed callback opened a session")
	}
	// Attempt B's code under attempt A's state and cookie: the ID token's
	// nonce is B's.
	first, second := v.start(""), v.start("")
	cbSecond := v.provider(second, user)
	cbFirst := v.provider(first, user)
	mixed := *cbFirst
	q := mixed.Query()
	q.Set("code", cbSecond.Query().Get("code"))
	mixed.RawQuery = q.Encode()
	if rec := v.callback(&mixed, first.cookie); !strings.Contains(rec.Header().Get("Location"), "error=sso_failed") {
		t.Fatalf("another sign-in's code = %d %q", rec.Code, rec.Header().Get("Location"))
	}
	// Without the cookie.
	a = v.start("")
	if rec := v.callback(v.provider(a, user), "other=1"); !strings.Contains(rec.Header().Get("Location"), "error=sso_expired") {
		t.Fatalf("no cookie = %q", rec.Header().Get("Location"))
	}
	// The flow answers on the portal's host only.
	if rec := testutil.Request(v.handler, "GET", sso.PortalStartPath, "", "Host", "panel.example.com"); rec.Code != http.StatusNotFound {
		t.Fatalf("start on the panel's host = %d", rec.Code)
	}
	for _, rd := range []string{"https://evil.example.net/", "//evil.example.net/x", "https://auth.example.com@evil.example.net/",
		"javascript:alert(1)", "http://" + portalHost + "/", portalURL + "//evil.example.net", "/relative"} {
		_, loc := v.signInAs(user, rd)
		if loc.String() != "/login" {
			t.Errorf("rd %q ended on %s; want the plain sign-in page", rd, loc)
		}
	}
}

// The provider's sign-in counts as a second factor only when it says so
// (amr "mfa"): a service that requires one then opens, and otherwise asks
// the person for one.
func TestPortalProviderSecondFactorFromAMR(t *testing.T) {
	v := newPortalIDP(t, true)
	svc := v.service("vault", map[string]any{"secondFactor": true})
	plain, _ := v.signInAs(idpUser("sub-gus", "gus", "gus@example.com", true), "")
	if _, second := v.me(plain); second {
		t.Fatal("a sign-in without amr counted as a second factor")
	}
	// Just signed in, without a factor and none of their own: the portal
	// says to add one rather than sending them round.
	if code := v.open(svc, "vault", plain); code != http.StatusForbidden {
		t.Fatalf("without a second factor = %d; want the page asking for one", code)
	}
	u := idpUser("sub-gus", "gus", "gus@example.com", true)
	u.amr = []string{"pwd", "otp", "mfa"}
	strong, _ := v.signInAs(u, "")
	if code := v.open(svc, "vault", strong); code != http.StatusOK {
		t.Fatalf("with amr mfa = %d", code)
	}
}
