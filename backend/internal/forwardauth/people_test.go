package forwardauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const testPortal = "https://auth.example.com"

// portalSignIns is the PortalSessions seam for these tests: the portal
// session is named by a cookie, as the portal's own is.
type portalSignIns struct {
	mu sync.Mutex
	by map[string]PortalSignIn
}

func (p *portalSignIns) PortalSignIn(_ context.Context, r *http.Request) (PortalSignIn, bool, error) {
	ck, err := r.Cookie("portal")
	if err != nil {
		return PortalSignIn{}, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	in, ok := p.by[ck.Value]
	return in, ok, nil
}

func (p *portalSignIns) set(id string, in PortalSignIn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.by[id] = in
}

// appPasswordsFor admits one username and secret as a person.
type appPasswordsFor map[string]string // "user:secret" -> person id

func (a appPasswordsFor) CheckAppPassword(_ context.Context, user, secret string) (string, bool, error) {
	id, ok := a[user+":"+secret]
	return id, ok, nil
}

// peopleEnv is an env with a portal and a small directory.
type peopleEnv struct {
	*env
	portal                   *portalSignIns
	ann, bob, family, admins string
}

func newPeopleEnv(t testing.TB, opts ...func(*Deps)) *peopleEnv {
	t.Helper()
	pe := &peopleEnv{portal: &portalSignIns{by: map[string]PortalSignIn{}}}
	base := func(o *Deps) {
		o.Portal = pe.portal
		o.PortalURL = func(context.Context) (string, error) { return testPortal, nil }
	}
	pe.env = newEnv(t, append([]func(*Deps){base}, opts...)...)
	pe.ann, pe.bob = pe.person("ann", "ann@example.com"), pe.person("bob", "bob@example.com")
	pe.family, pe.admins = pe.group("family"), pe.group("admins")
	pe.join(pe.family, pe.ann)
	return pe
}

func (v *peopleEnv) person(name, email string) string {
	v.t.Helper()
	now := v.clock.Now()
	p := store.Person{ID: store.NewID(), Username: name, Email: email, DisplayName: strings.ToUpper(name[:1]) + name[1:],
		PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
	if err := v.db.Create(&p).Error; err != nil {
		v.t.Fatal(err)
	}
	return p.ID
}

func (v *peopleEnv) group(name string) string {
	v.t.Helper()
	now := v.clock.Now()
	g := store.Group{ID: store.NewID(), Name: name, CreatedAt: now, UpdatedAt: now}
	if err := v.db.Create(&g).Error; err != nil {
		v.t.Fatal(err)
	}
	return g.ID
}

// directoryChanged publishes what package people publishes after a write.
func (v *peopleEnv) directoryChanged(id string) {
	v.bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: id})
}

func (v *peopleEnv) join(groupID, personID string) {
	v.t.Helper()
	if err := v.db.Create(&store.GroupMember{GroupID: groupID, PersonID: personID, CreatedAt: v.clock.Now()}).Error; err != nil {
		v.t.Fatal(err)
	}
	v.directoryChanged(groupID)
}

// continueAs opens the portal's continue hop with the given portal session.
func (v *peopleEnv) continueAs(portalSession, rd string) *httptest.ResponseRecorder {
	v.t.Helper()
	req := httptest.NewRequest(http.MethodGet, PortalContinuePath+"?rd="+url.QueryEscape(rd), nil)
	req.Header.Set("Accept", "text/html")
	if portalSession != "" {
		req.Header.Set("Cookie", "portal="+portalSession)
	}
	return testutil.Serve(v.e, req)
}

// signIn walks the browser flow for a person signed in on the portal and
// returns the service session cookie.
func (v *peopleEnv) signIn(svc, host, portalSession string) string {
	v.t.Helper()
	rec := v.verify(fwd{service: svc, host: host, uri: "/inbox", browser: true})
	want := testPortal + PortalContinuePath + "?rd=" + url.QueryEscape("https://"+host+"/inbox")
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != want {
		v.t.Fatalf("verify without a session = %d %q, want 302 to %q", rec.Code, rec.Header().Get("Location"), want)
	}
	rec = v.continueAs(portalSession, "https://"+host+"/inbox")
	if rec.Code != http.StatusFound {
		v.t.Fatalf("continue = %d: %s", rec.Code, rec.Body.String())
	}
	back, _ := url.Parse(rec.Header().Get("Location"))
	if back.Host != host || back.Query().Get(ExchangeParam) == "" {
		v.t.Fatalf("continue sent to %q, want the service with an exchange token", back)
	}
	rec = v.verify(fwd{service: svc, host: host, uri: back.RequestURI(), browser: true})
	ck := sessionCookie(v.t, rec)
	if rec.Code != http.StatusFound || ck == nil || rec.Header().Get("Location") != "https://"+host+"/inbox" {
		v.t.Fatalf("exchange = %d %q, cookie %v", rec.Code, rec.Header().Get("Location"), ck)
	}
	return ck.Value
}

func (v *peopleEnv) protectPeople(svc string, body map[string]any) {
	v.t.Helper()
	body["enabled"] = true
	v.must(http.StatusOK, http.MethodPut, "/api/services/"+svc+"/protection", map[string]any{"people": body}, nil)
}

func TestPeopleProtectionFlow(t *testing.T) {
	v := newPeopleEnv(t)
	svc := v.service("mail.example.com")
	v.protectPeople(svc, map[string]any{"groups": []string{v.family}})
	at := v.clock.Now()
	v.portal.set("p-ann", PortalSignIn{PersonID: v.ann, SessionID: "ps-ann", At: at})
	v.portal.set("p-bob", PortalSignIn{PersonID: v.bob, SessionID: "ps-bob", At: at})

	tok := v.signIn(svc, "mail.example.com", "p-ann")
	before := v.queries.Load()
	rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok, hdr: map[string]string{"Remote-User": "mallory"}})
	if rec.Code != http.StatusOK {
		t.Fatalf("verify with the session = %d: %s", rec.Code, rec.Body.String())
	}
	for h, want := range map[string]string{"Remote-User": "ann", "Remote-Email": "ann@example.com", "Remote-Name": "Ann", "Remote-Groups": "family"} {
		if got := rec.Header().Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	if n := v.queries.Load() - before; n != 0 {
		t.Errorf("verify with a cached people session ran %d queries, want 0", n)
	}

	// Bob is signed in on the portal but not in the group: a readable refusal.
	rec = v.continueAs("p-bob", "https://mail.example.com/")
	if rec.Code != http.StatusForbidden || !contains(rec.Body.String(), "signed in as bob") || !contains(rec.Body.String(), "the group family") {
		t.Fatalf("continue for bob = %d: %s", rec.Code, rec.Body.String())
	}
	// Nobody signed in: to the portal's sign-in page, then back here.
	rec = v.continueAs("", "https://mail.example.com/")
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusFound || !strings.HasPrefix(loc, testPortal+PortalSignInPath+"?rd="+url.QueryEscape(testPortal+PortalContinuePath)) {
		t.Fatalf("continue signed out = %d %q", rec.Code, loc)
	}
	// A non-browser without a session gets the envelope.
	rec = v.verify(fwd{service: svc, host: "mail.example.com"})
	if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), `"unauthenticated"`) {
		t.Fatalf("API client = %d: %s", rec.Code, rec.Body.String())
	}
	// An address that is not a people-protected service is refused.
	if rec := v.continueAs("p-ann", "https://evil.example.net/"); rec.Code != http.StatusBadRequest {
		t.Fatalf("continue to a foreign host = %d", rec.Code)
	}
}

func TestPeopleLiveRefusal(t *testing.T) {
	cases := []struct {
		name string
		do   func(v *peopleEnv)
		want int
	}{
		{"removed from the group", func(v *peopleEnv) {
			v.db.Where("group_id = ? AND person_id = ?", v.family, v.ann).Delete(&store.GroupMember{})
			v.directoryChanged(v.family)
		}, http.StatusForbidden},
		{"disabled", func(v *peopleEnv) {
			now := v.clock.Now()
			v.db.Model(&store.Person{}).Where("id = ?", v.ann).Update("disabled_at", &now)
			v.directoryChanged(v.ann)
		}, http.StatusUnauthorized},
		{"deleted", func(v *peopleEnv) {
			v.db.Where("id = ?", v.ann).Delete(&store.Person{})
			v.directoryChanged(v.ann)
		}, http.StatusUnauthorized},
		{"portal sign-out", func(v *peopleEnv) {
			if err := v.acc.EndPortalSessions(context.Background(), "ps-ann"); err != nil {
				v.t.Fatal(err)
			}
		}, http.StatusUnauthorized},
		{"sessions ended", func(v *peopleEnv) {
			if err := v.acc.EndPersonSessions(context.Background(), v.ann, ""); err != nil {
				v.t.Fatal(err)
			}
		}, http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newPeopleEnv(t)
			svc := v.service("mail.example.com")
			v.protectPeople(svc, map[string]any{"groups": []string{v.family}})
			v.portal.set("p-ann", PortalSignIn{PersonID: v.ann, SessionID: "ps-ann", At: v.clock.Now()})
			tok := v.signIn(svc, "mail.example.com", "p-ann")
			if rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok}); rec.Code != http.StatusOK {
				t.Fatalf("before = %d", rec.Code)
			}
			tc.do(v)
			if rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok}); rec.Code != tc.want {
				t.Fatalf("after = %d, want %d: %s", rec.Code, tc.want, rec.Body.String())
			}
		})
	}
}

func TestPeopleStepUpAndMaxAge(t *testing.T) {
	v := newPeopleEnv(t)
	svc := v.service("admin.example.com")
	v.protectPeople(svc, map[string]any{"people": []string{v.ann}, "secondFactor": true, "maxAgeSeconds": 3600})
	v.portal.set("pw", PortalSignIn{PersonID: v.ann, SessionID: "ps1", At: v.clock.Now().Add(-5 * time.Minute)})
	rec := v.continueAs("pw", "https://admin.example.com/")
	if rec.Code != http.StatusFound || !strings.HasSuffix(rec.Header().Get("Location"), "&stepup=1") {
		t.Fatalf("password-only continue = %d %q, want a step-up", rec.Code, rec.Header().Get("Location"))
	}
	// Signed in again a moment ago, still without a factor: they have none,
	// so the hop says what to do instead of sending them round again.
	v.portal.set("pw", PortalSignIn{PersonID: v.ann, SessionID: "ps1", At: v.clock.Now()})
	rec = v.continueAs("pw", "https://admin.example.com/")
	if rec.Code != http.StatusForbidden || !contains(rec.Body.String(), "A second factor is needed") || !contains(rec.Body.String(), testPortal+"/account") {
		t.Fatalf("just signed in without a factor = %d: %s", rec.Code, rec.Body.String())
	}
	v.portal.set("pw", PortalSignIn{PersonID: v.ann, SessionID: "ps1", SecondFactor: true, At: v.clock.Now()})
	tok := v.signIn(svc, "admin.example.com", "pw")
	if rec := v.verify(fwd{service: svc, host: "admin.example.com", cookie: tok}); rec.Code != http.StatusOK {
		t.Fatalf("with a factor = %d", rec.Code)
	}
	v.clock.Add(2 * time.Hour)
	rec = v.verify(fwd{service: svc, host: "admin.example.com", cookie: tok, browser: true})
	if rec.Code != http.StatusFound || !strings.HasPrefix(rec.Header().Get("Location"), testPortal+PortalContinuePath) {
		t.Fatalf("past the maximum age = %d %q, want the portal hop", rec.Code, rec.Header().Get("Location"))
	}
	rec = v.continueAs("pw", "https://admin.example.com/")
	if rec.Code != http.StatusFound || !strings.HasSuffix(rec.Header().Get("Location"), "&reauth=1") {
		t.Fatalf("stale continue = %d %q, want reauth", rec.Code, rec.Header().Get("Location"))
	}
}

func TestPeopleProtectionValidation(t *testing.T) {
	v := newPeopleEnv(t)
	svc := v.service("mail.example.com")
	rec := v.do(http.MethodPut, "/api/services/"+svc+"/protection", map[string]any{"people": map[string]any{
		"enabled": true, "groups": []string{v.family, "nope"}, "people": []string{"ghost"}, "maxAgeSeconds": -1}}, nil)
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("PUT = %d: %s", rec.Code, rec.Body.String())
	}
	for _, f := range []string{"people.groups[1]", "people.people[0]", "people.maxAgeSeconds"} {
		if !contains(rec.Body.String(), `"`+f+`"`) {
			t.Errorf("no field error %s in %s", f, rec.Body.String())
		}
	}
	var got Protection
	v.protectPeople(svc, map[string]any{"groups": []string{v.family}, "secondFactor": true})
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+svc+"/protection", nil, &got)
	if got.People == nil || !got.People.Enabled || len(got.People.Groups) != 1 || !got.People.SecondFactor {
		t.Fatalf("GET people = %+v", got.People)
	}
}

func TestPeopleWithoutPortal(t *testing.T) {
	v := newEnv(t)
	svc := v.service("mail.example.com")
	v.must(http.StatusOK, http.MethodPut, "/api/services/"+svc+"/protection", map[string]any{"people": map[string]any{"enabled": true}}, nil)
	rec := v.verify(fwd{service: svc, host: "mail.example.com", browser: true})
	if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), "portal is not configured") {
		t.Fatalf("no portal = %d: %s", rec.Code, rec.Body.String())
	}
}

func TestPeopleAppPasswords(t *testing.T) {
	pw := appPasswordsFor{}
	v := newPeopleEnv(t, func(o *Deps) { o.AppPasswords = pw })
	pw["ann:app-secret"] = v.ann
	svc := v.service("dav.example.com")
	v.protectPeople(svc, map[string]any{"groups": []string{v.family}})
	basic := func(u, p string) string {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.SetBasicAuth(u, p)
		return r.Header.Get("Authorization")
	}
	rec := v.verify(fwd{service: svc, host: "dav.example.com", auth: basic("ann", "app-secret")})
	if rec.Code != http.StatusOK || rec.Header().Get("Remote-Groups") != "family" {
		t.Fatalf("app password = %d %q", rec.Code, rec.Header().Get("Remote-Groups"))
	}
	for i := range MaxFailures {
		rec = v.verify(fwd{service: svc, host: "dav.example.com", auth: basic("ann", "wrong"), ip: "203.0.113.9"})
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong app password %d = %d", i, rec.Code)
		}
	}
	rec = v.verify(fwd{service: svc, host: "dav.example.com", auth: basic("ann", "wrong"), ip: "203.0.113.9"})
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("after %d failures = %d, want 429", MaxFailures, rec.Code)
	}
}

func TestPortalLauncher(t *testing.T) {
	v := newPeopleEnv(t)
	mail, wiki, admin := v.service("mail.example.com"), v.service("wiki.example.com"), v.service("admin.example.com")
	v.service("open.example.com") // no protection: not on the launcher
	v.protectPeople(mail, map[string]any{"groups": []string{v.family}})
	v.protectPeople(wiki, map[string]any{})
	v.protectPeople(admin, map[string]any{"groups": []string{v.admins}})
	v.portal.set("p-ann", PortalSignIn{PersonID: v.ann, SessionID: "ps-ann", At: v.clock.Now()})
	v.portal.set("p-bob", PortalSignIn{PersonID: v.bob, SessionID: "ps-bob", At: v.clock.Now()})
	list := func(cookie string) (int, []string) {
		req := httptest.NewRequest(http.MethodGet, "/api/portal/services", nil)
		if cookie != "" {
			req.Header.Set("Cookie", "portal="+cookie)
		}
		rec := testutil.Serve(v.e, req)
		var out LauncherResponse
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		var urls []string
		for _, s := range out.Services {
			urls = append(urls, s.URL)
		}
		return rec.Code, urls
	}
	if code, urls := list("p-ann"); code != http.StatusOK || strings.Join(urls, " ") != "https://mail.example.com/ https://wiki.example.com/" {
		t.Fatalf("ann's launcher = %d %v", code, urls)
	}
	if code, urls := list("p-bob"); code != http.StatusOK || strings.Join(urls, " ") != "https://wiki.example.com/" {
		t.Fatalf("bob's launcher = %d %v", code, urls)
	}
	if code, _ := list(""); code != http.StatusUnauthorized {
		t.Fatalf("signed out = %d, want 401", code)
	}
}

// Live refusal on every replica: the directory change or the portal
// sign-out happens on one replica, and the other refuses the person's next
// request once the relayed event arrives (the relay hands every published
// event to the other replicas' buses, as the cluster package does).
func TestPeopleLiveRefusalAcrossReplicas(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(v *peopleEnv)
	}{
		{"disabled", func(v *peopleEnv) {
			now := v.clock.Now()
			v.db.Model(&store.Person{}).Where("id = ?", v.ann).Update("disabled_at", &now)
			v.directoryChanged(v.ann)
		}},
		{"removed from the group", func(v *peopleEnv) {
			v.db.Where("group_id = ? AND person_id = ?", v.family, v.ann).Delete(&store.GroupMember{})
			v.directoryChanged(v.family)
		}},
		{"signed out on the portal", func(v *peopleEnv) {
			if err := v.acc.EndPortalSessions(context.Background(), "ps-ann"); err != nil {
				v.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newPeopleEnv(t)
			b := &peopleEnv{portal: a.portal, ann: a.ann, bob: a.bob, family: a.family, admins: a.admins}
			b.env = a.replica(func(o *Deps) {
				o.Portal = a.portal
				o.PortalURL = func(context.Context) (string, error) { return testPortal, nil }
			})
			a.bus.Subscribe(func(e change.Event) { b.bus.Deliver(e) })
			svc := a.service("mail.example.com")
			a.protectPeople(svc, map[string]any{"groups": []string{a.family}})
			a.portal.set("p-ann", PortalSignIn{PersonID: a.ann, SessionID: "ps-ann", At: a.clock.Now()})
			tok := a.signIn(svc, "mail.example.com", "p-ann")
			for _, v := range []*peopleEnv{a, b} {
				if rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok}); rec.Code != http.StatusOK {
					t.Fatalf("before, on a replica = %d", rec.Code)
				}
			}
			tc.do(a)
			for i, v := range []*peopleEnv{a, b} {
				if rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok}); rec.Code == http.StatusOK {
					t.Fatalf("after, replica %d still admits the person", i)
				}
			}
		})
	}
}

// FuzzPortalContinue: whatever rd says, the hop never fails with a 5xx and
// only ever sends the browser to the portal or to the service's own host.
func FuzzPortalContinue(f *testing.F) {
	for _, s := range []string{"https://mail.example.com/", "https://mail.example.com:8443/x", "//evil.example/",
		"https://mail.example.com@evil.example/", "javascript:alert(1)", "https://MAIL.example.com/%2e%2e/", ""} {
		f.Add(s)
	}
	v := newPeopleEnv(f)
	id := v.service("mail.example.com")
	v.protectPeople(id, map[string]any{})
	v.portal.set("p", PortalSignIn{PersonID: v.ann, SessionID: "ps", At: v.clock.Now()})
	f.Fuzz(func(t *testing.T, rd string) {
		for _, who := range []string{"", "p"} {
			req := httptest.NewRequest(http.MethodGet, PortalContinuePath+"?rd="+url.QueryEscape(rd), nil)
			if who != "" {
				req.Header.Set("Cookie", "portal="+who)
			}
			rec := httptest.NewRecorder()
			v.e.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("rd %q: %d", rd, rec.Code)
			}
			if loc := rec.Header().Get("Location"); loc != "" {
				u, err := url.Parse(loc)
				if err != nil || (u.Host != "auth.example.com" && u.Host != "mail.example.com") || u.Scheme != "https" {
					t.Fatalf("rd %q sent to %q", rd, loc)
				}
			}
		}
	})
}

func TestCheckPeopleProtectionImport(t *testing.T) {
	out, err := CheckProtection(store.SecurityPeople, map[string]any{"people": []any{"a", " a ", ""}, "groups": []any{"g"},
		"secondFactor": true, "maxAgeSeconds": float64(60)})
	if err != nil || len(out["people"].([]string)) != 1 || out["secondFactor"] != true || out["maxAgeSeconds"] != int64(60) {
		t.Fatalf("CheckProtection = %v, %v", out, err)
	}
	if _, err := CheckProtection(store.SecurityPeople, map[string]any{"maxAgeSeconds": float64(-1)}); err == nil {
		t.Fatal("a negative maximum age was accepted")
	}
}

func TestPersonSessionsListAndEnd(t *testing.T) {
	v := newPeopleEnv(t)
	svc := v.service("mail.example.com")
	v.protectPeople(svc, map[string]any{})
	v.portal.set("p", PortalSignIn{PersonID: v.ann, SessionID: "ps", At: v.clock.Now()})
	tok := v.signIn(svc, "mail.example.com", "p")
	ctx := context.Background()
	list, err := v.acc.PersonSessions(ctx, v.ann)
	if err != nil || len(list) != 1 || list[0].Kind != store.SessionPeople || list[0].User != "ann" {
		t.Fatalf("PersonSessions = %+v, %v", list, err)
	}
	if err := v.acc.EndPersonSessions(ctx, v.bob, list[0].ID); err == nil {
		t.Fatal("ended another person's session")
	}
	if err := v.acc.EndPersonSessions(ctx, v.ann, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if rec := v.verify(fwd{service: svc, host: "mail.example.com", cookie: tok}); rec.Code != http.StatusUnauthorized {
		t.Fatalf("after ending the session = %d", rec.Code)
	}
}
