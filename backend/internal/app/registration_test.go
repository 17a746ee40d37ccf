package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func (a *testApp) anonymous(method, path, body, ip string) (int, string, string) {
	a.t.Helper()
	saved := a.cookie
	a.cookie = ""
	defer func() { a.cookie = saved }()
	rec := a.do(method, path, body, "RemoteAddr", ip)
	return rec.Code, rec.Body.String(), rec.Header().Get("Retry-After")
}

// Self-registration is off by default; the settings are validated and
// name the offending field.
func TestRegistrationSettings(t *testing.T) {
	a, _ := newMailApp(t)
	if code, body, _ := a.anonymous("GET", "/api/registration", "", "192.0.2.1"); code != http.StatusOK || body != `{"available":false}`+"\n" {
		t.Fatalf("available = %d %s", code, body)
	}
	if code, _, _ := a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"zoe@example.com"}`, "192.0.2.1"); code != http.StatusNotFound {
		t.Fatalf("register while off = %d", code)
	}
	if rec := a.do("GET", "/api/registration/settings", ""); rec.Code != http.StatusOK || rec.Body.String() != `{"mode":"off","domains":[],"groups":[]}`+"\n" {
		t.Fatalf("settings = %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct{ body, field string }{
		{`{"mode":"open","domains":[],"groups":[]}`, `"mode"`},
		{`{"mode":"domains","domains":[],"groups":[]}`, `"domains"`},
		{`{"mode":"domains","domains":["example.com","not a domain"],"groups":[]}`, `"domains[1]"`},
		{`{"mode":"domains","domains":["example.com","EXAMPLE.com"],"groups":[]}`, `"domains[1]"`},
		{`{"mode":"domains","domains":["example.com"],"groups":["nope"]}`, `"groups[0]"`},
		{`{"mode":"domains","domains":["` + strings.Repeat("a", 300) + `.com"],"groups":[]}`, `"domains[0]"`},
	} {
		rec := a.do("PUT", "/api/registration/settings", tc.body)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tc.field) {
			t.Errorf("%s = %d %s; want 422 naming %s", tc.body, rec.Code, rec.Body, tc.field)
		}
	}
	if rec := a.do("PUT", "/api/registration/settings", `{"mode":"domains","domains":[" Example.COM "],"groups":[]}`); rec.Code != http.StatusOK ||
		rec.Body.String() != `{"mode":"domains","domains":["example.com"],"groups":[]}`+"\n" {
		t.Fatalf("save = %d %s", rec.Code, rec.Body)
	}
	var types []string
	a.c.db.Table("audit_entries").Where("method = ?", "PUT").Pluck("resource_type", &types)
	if !strings.Contains(strings.Join(types, ","), "registration.settings") {
		t.Fatalf("the settings change is not audited: %v", types)
	}
}

// A visitor with an address in a listed domain gets a link by e-mail,
// chooses a password, and has an enabled account with the panel role none
// and the default groups. Taken names and other domains get the same
// answer and no mail; the link works once.
func TestSelfRegistration(t *testing.T) {
	a, rcv := newMailApp(t)
	fam := a.mustCreate("/api/groups", `{"name":"family"}`)
	if rec := a.do("PUT", "/api/registration/settings",
		`{"mode":"domains","domains":["Example.com"],"groups":["`+fam.ID+`"]}`); rec.Code != http.StatusOK {
		t.Fatalf("settings = %d %s", rec.Code, rec.Body)
	}
	ann := a.createUser(t, "ann", "viewer")
	a.do("PATCH", "/api/people/"+ann, `{"email":"ann@example.com"}`)
	if code, body, _ := a.anonymous("GET", "/api/registration", "", "192.0.2.1"); code != http.StatusOK || body != `{"available":true}`+"\n" {
		t.Fatalf("available = %d %s", code, body)
	}
	c1, b1, _ := a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"zoe@example.com"}`, "192.0.2.1")
	c2, b2, _ := a.anonymous("POST", "/api/registration", `{"username":"yan","email":"yan@elsewhere.org"}`, "192.0.2.2")
	c3, b3, _ := a.anonymous("POST", "/api/registration", `{"username":"ann","email":"ann2@example.com"}`, "192.0.2.3")
	c4, b4, _ := a.anonymous("POST", "/api/registration", `{"username":"ann-again","email":"ANN@example.com"}`, "192.0.2.4")
	if c1 != http.StatusAccepted || c2 != c1 || c3 != c1 || c4 != c1 || b2 != b1 || b3 != b1 || b4 != b1 {
		t.Fatalf("answers differ: %d %q, %d %q, %d %q, %d %q", c1, b1, c2, b2, c3, b3, c4, b4)
	}
	mails := rcv.WaitMails(t, 1, 5*time.Second)
	a.c.invitations.Settle()
	if n := len(rcv.Mails()); n != 1 || !strings.Contains(mails[0].Data, "zoe@example.com") {
		t.Fatalf("%d mails; want one, to zoe", n)
	}
	tok := tokenIn(t, mails[0].Data)
	// Before the link is used, zoe cannot sign in.
	if code := a.public("POST", "/api/admin/login", `{"username":"zoe","password":"zoe-picks-a-password"}`, "RemoteAddr", "192.0.2.9"); code == http.StatusOK {
		t.Fatal("signed in before registering")
	}
	if code := a.public("POST", "/api/invitations/preview", `{"token":"`+tok+`"}`); code != http.StatusOK {
		t.Fatalf("preview = %d", code)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"zoe-picks-a-password"}`); code != http.StatusOK {
		t.Fatalf("accept = %d", code)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"someone-else-tries"}`); code != http.StatusNotFound {
		t.Fatalf("second use = %d", code)
	}
	var p store.Person
	if err := a.c.db.Where("username = ?", "zoe").Take(&p).Error; err != nil {
		t.Fatal(err)
	}
	if p.PanelRole != "none" || p.DisabledAt != nil {
		t.Fatalf("zoe: role %q disabled %v", p.PanelRole, p.DisabledAt)
	}
	var n int64
	a.c.db.Model(&store.GroupMember{}).Where("person_id = ? AND group_id = ?", p.ID, fam.ID).Count(&n)
	if n != 1 {
		t.Fatal("zoe is not in the default group")
	}
	// The password works: the panel refuses only for want of a role.
	rec := a.do("POST", "/api/admin/login", `{"username":"zoe","password":"zoe-picks-a-password"}`, "RemoteAddr", "192.0.2.10")
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "no access to the panel") {
		t.Fatalf("zoe signs in = %d %s", rec.Code, rec.Body)
	}
	// The account creation is audited, never the link.
	var actions []string
	a.c.db.Table("audit_entries").Where("resource_type = ?", "invitations").Order("seq").Pluck("action", &actions)
	if !strings.Contains(strings.Join(actions, ","), "accept") {
		t.Fatalf("audited = %v", actions)
	}
	var leaked int64
	if a.c.db.Table("audit_entries").Where("diff LIKE ?", "%"+tok+"%").Count(&leaked); leaked != 0 {
		t.Fatal("the link is in the audit log")
	}
}

// An unused registration link expires and gives its username back; asking
// too often ends in 429 with Retry-After, per address and per client.
func TestSelfRegistrationExpiresAndIsLimited(t *testing.T) {
	a, rcv := newMailApp(t)
	if rec := a.do("PUT", "/api/registration/settings", `{"mode":"domains","domains":["example.com"],"groups":[]}`); rec.Code != http.StatusOK {
		t.Fatalf("settings = %d %s", rec.Code, rec.Body)
	}
	a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"zoe@example.com"}`, "198.51.100.1")
	old := tokenIn(t, rcv.WaitMails(t, 1, 5*time.Second)[0].Data)
	a.c.invitations.Settle()
	if err := a.c.db.Model(&store.Invitation{}).Where("kind = ?", "registration").
		Update("expires_at", time.Now().Add(-time.Second)).Error; err != nil {
		t.Fatal(err)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+old+`","password":"too-late-password"}`); code != http.StatusNotFound {
		t.Fatalf("expired link = %d", code)
	}
	a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"zoe@example.com"}`, "198.51.100.2")
	fresh := tokenIn(t, rcv.WaitMails(t, 2, 5*time.Second)[1].Data)
	if fresh == old {
		t.Fatal("same link twice")
	}
	a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"zoe@example.com"}`, "198.51.100.3")
	code, _, retry := a.anonymous("POST", "/api/registration", `{"username":"zoe","email":"ZOE@example.com"}`, "198.51.100.4")
	if code != http.StatusTooManyRequests || retry == "" {
		t.Fatalf("fourth ask for one address = %d, Retry-After %q", code, retry)
	}
	var last string
	for i := range 11 {
		code, _, last = a.anonymous("POST", "/api/registration", fmt.Sprintf(`{"username":"u%d","email":"u%d@nowhere.org"}`, i, i), "203.0.113.9")
	}
	if code != http.StatusTooManyRequests || last == "" {
		t.Fatalf("eleventh ask from one client = %d", code)
	}
	if code, _, _ := a.anonymous("POST", "/api/registration", `{"username":"","email":"x"}`, "203.0.113.10"); code != http.StatusUnprocessableEntity {
		t.Fatalf("bad input = %d", code)
	}
}

// Two visitors asking for one username at once: the person's creation
// settles it in its transaction, so exactly one link is mailed.
func TestSelfRegistrationUsernameRace(t *testing.T) {
	a, rcv := newMailApp(t)
	if rec := a.do("PUT", "/api/registration/settings", `{"mode":"domains","domains":["example.com"],"groups":[]}`); rec.Code != http.StatusOK {
		t.Fatalf("settings = %d %s", rec.Code, rec.Body)
	}
	done := make(chan int, 4)
	for i := range 4 {
		go func() {
			done <- testutil.Request(a.handler, "POST", "/api/registration",
				fmt.Sprintf(`{"username":"zoe","email":"zoe%d@example.com"}`, i), "RemoteAddr", fmt.Sprintf("192.0.2.%d", i+1)).Code
		}()
	}
	for range 4 {
		if code := <-done; code != http.StatusAccepted {
			t.Fatalf("ask = %d", code)
		}
	}
	rcv.WaitMails(t, 1, 5*time.Second)
	a.c.invitations.Settle()
	if n := len(rcv.Mails()); n != 1 {
		t.Fatalf("%d links mailed for one username", n)
	}
	var n int64
	a.c.db.Model(&store.Person{}).Where("username = ?", "zoe").Count(&n)
	if n != 1 {
		t.Fatalf("%d people named zoe", n)
	}
}
