package app

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// newMailApp is a signed-in panel with a public address and an e-mail
// channel pointing at a real SMTP receiver.
func newMailApp(t *testing.T) (*testApp, *testutil.SMTPReceiver) {
	t.Helper()
	rcv := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{})
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": "https://panel.example.com"})
	a.signIn()
	ch := a.mustCreate("/api/notifications/channels", fmt.Sprintf(
		`{"name":"people","kind":"email","settings":{"host":%q,"port":%d,"from":"gate@example.net","to":["ops@example.net"],"encryption":"none"}}`,
		rcv.Host, rcv.Port))
	if rec := a.do("PUT", "/api/notifications/settings",
		`{"certWarningDays":14,"debounceSeconds":60,"mailChannelId":"`+ch.ID+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("mail settings = %d %s", rec.Code, rec.Body)
	}
	return a, rcv
}

var linkRE = regexp.MustCompile(`https://panel\.example\.com/(invite|reset-password|register)/([A-Za-z0-9_-]+)`)

// tokenIn reads the link's token from a mail (or a link).
func tokenIn(t *testing.T, text string) string {
	t.Helper()
	m := linkRE.FindStringSubmatch(strings.ReplaceAll(text, "=\r\n", ""))
	if m == nil {
		t.Fatalf("no link in %q", text)
	}
	return m[2]
}

func (a *testApp) public(method, path, body string, headers ...string) int {
	a.t.Helper()
	saved := a.cookie
	a.cookie = ""
	defer func() { a.cookie = saved }()
	return a.do(method, path, body, headers...).Code
}

// An administrator invites a person by e-mail through a real SMTP server;
// the person opens the mailed link, chooses a password and signs in. The
// link works once, the invitation lists as used, and until then the person
// cannot sign in.
func TestInvitationByEmail(t *testing.T) {
	a, rcv := newMailApp(t)
	rec := a.do("POST", "/api/invitations", `{"username":"ann","email":"ann@example.com","displayName":"Ann",`+
		`"panelRole":"viewer","delivery":"email","expiresInHours":48}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("invite = %d %s", rec.Code, rec.Body)
	}
	created := decode[struct {
		Link       string
		Mailed     bool
		Invitation struct{ ID, State string }
	}](t, rec)
	if !created.Mailed || created.Invitation.State != "pending" {
		t.Fatalf("created = %+v", created)
	}
	mails := rcv.WaitMails(t, 1, 5*time.Second)
	if mails[0].To[0] != "ann@example.com" {
		t.Fatalf("mailed to %v", mails[0].To)
	}
	tok := tokenIn(t, mails[0].Data)
	if tok != tokenIn(t, created.Link) {
		t.Fatal("the mailed link is not the one shown")
	}
	var hashed int64
	a.c.db.Model(&store.Invitation{}).Where("token_hash = ?", tok).Count(&hashed)
	if hashed != 0 {
		t.Fatal("the token is stored in the clear")
	}
	// Not yet accepted: no sign-in.
	if code := a.public("POST", "/api/admin/login", `{"username":"ann","password":"correct-horse-battery"}`); code == http.StatusOK {
		t.Fatal("an invited person signed in before accepting")
	}
	rec = a.do("POST", "/api/invitations/preview", `{"token":"`+tok+`"}`)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"username":"ann"`) {
		t.Fatalf("preview = %d %s", rec.Code, rec.Body)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"short"}`); code != http.StatusUnprocessableEntity {
		t.Fatalf("a short password = %d", code)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"ann-chooses-this-one"}`); code != http.StatusOK {
		t.Fatalf("accept = %d", code)
	}
	a.login(t, "ann", "ann-chooses-this-one", "192.0.2.10")
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"someone-else-again"}`); code != http.StatusNotFound {
		t.Fatalf("a second use = %d", code)
	}
	if code := a.public("POST", "/api/invitations/preview", `{"token":"`+tok+`"}`); code != http.StatusNotFound {
		t.Fatalf("preview after use = %d", code)
	}
	rec = a.do("GET", "/api/invitations", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"state":"used"`) {
		t.Fatalf("list = %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("DELETE", "/api/invitations/"+created.Invitation.ID, ""); rec.Code != http.StatusConflict {
		t.Fatalf("revoking a used invitation = %d %s", rec.Code, rec.Body)
	}
	// The invitation and its acceptance are in the audit log, never the link.
	var actions []string
	if err := a.c.db.Table("audit_entries").Where("resource_type = ?", "invitations").Order("seq").
		Pluck("action", &actions).Error; err != nil {
		t.Fatal(err)
	}
	if strings.Join(actions, ",") != "create,accept" {
		t.Fatalf("audited invitation actions = %v", actions)
	}
	var leaked int64
	if err := a.c.db.Table("audit_entries").Where("diff LIKE ?", "%"+tok+"%").Count(&leaked).Error; err != nil || leaked != 0 {
		t.Fatal("the link is in the audit log")
	}
}

// Of two accepts of one invitation at once, exactly one wins.
func TestInvitationSingleUseUnderConcurrency(t *testing.T) {
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": "https://panel.example.com"})
	a.signIn()
	for round := range 3 {
		rec := a.do("POST", "/api/invitations", fmt.Sprintf(`{"username":"p%d","panelRole":"viewer"}`, round))
		if rec.Code != http.StatusCreated {
			t.Fatalf("invite = %d %s", rec.Code, rec.Body)
		}
		tok := tokenIn(t, decode[struct{ Link string }](t, rec).Link)
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = testutil.Request(a.handler, "POST", "/api/invitations/accept",
					fmt.Sprintf(`{"token":%q,"password":"password-number-%d"}`, tok, i)).Code
			}()
		}
		wg.Wait()
		ok := 0
		for _, c := range codes {
			switch c {
			case http.StatusOK:
				ok++
			case http.StatusNotFound:
			default:
				t.Fatalf("accept = %v", codes)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %v; want exactly one winner", round, codes)
		}
	}
}

// Expired and revoked invitations are refused; revoking removes the
// person it created; field errors name the field.
func TestInvitationExpiredRevokedAndValidated(t *testing.T) {
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": "https://panel.example.com"})
	a.signIn()
	for _, tt := range []struct{ body, field string }{
		{`{"username":"a b","panelRole":"none"}`, "username"},
		{`{"username":"bob","panelRole":"root"}`, "panelRole"},
		{`{"username":"bob","panelRole":"none","delivery":"pigeon"}`, "delivery"},
		{`{"username":"bob","panelRole":"none","expiresInHours":100000}`, "expiresInHours"},
		{`{"username":"bob","panelRole":"none","delivery":"email"}`, "email"},
		{`{"username":"bob","email":"bob@example.com","panelRole":"none","delivery":"email"}`, "delivery"}, // no mail channel
	} {
		rec := a.do("POST", "/api/invitations", tt.body)
		e := decodeEnvelope(t, rec)
		if len(e.Error.Fields) == 0 || e.Error.Fields[0].Field != tt.field {
			t.Fatalf("%s = %d %s; want an error naming %s", tt.body, rec.Code, rec.Body, tt.field)
		}
	}
	invite := func(name string) (string, string) {
		rec := a.do("POST", "/api/invitations", `{"username":"`+name+`","panelRole":"viewer"}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("invite = %d %s", rec.Code, rec.Body)
		}
		c := decode[struct {
			Link       string
			Invitation struct{ ID string }
		}](t, rec)
		return c.Invitation.ID, tokenIn(t, c.Link)
	}
	_, old := invite("old")
	if err := a.c.db.Model(&store.Invitation{}).Where("username = ?", "old").
		Update("expires_at", time.Now().Add(-time.Minute)).Error; err != nil {
		t.Fatal(err)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+old+`","password":"a-long-enough-one"}`); code != http.StatusNotFound {
		t.Fatalf("expired accept = %d", code)
	}
	id, tok := invite("gone")
	if rec := a.do("DELETE", "/api/invitations/"+id, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke = %d %s", rec.Code, rec.Body)
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+tok+`","password":"a-long-enough-one"}`); code != http.StatusNotFound {
		t.Fatalf("revoked accept = %d", code)
	}
	var left int64
	a.c.db.Model(&store.Person{}).Where("username = ?", "gone").Count(&left)
	if left != 0 {
		t.Fatal("revoking kept the invited person")
	}
	body := a.do("GET", "/api/invitations", "").Body.String()
	for _, s := range []string{`"state":"expired"`, `"state":"revoked"`} {
		if !strings.Contains(body, s) {
			t.Fatalf("list %s lacks %s", body, s)
		}
	}
	if code := a.public("POST", "/api/invitations/accept", `{"token":"`+strings.Repeat("x", 5000)+`","password":"a-long-enough-one"}`); code != http.StatusNotFound {
		t.Fatalf("huge token = %d", code)
	}
	if code := a.public("POST", "/api/invitations", `{"username":"x","panelRole":"none"}`); code != http.StatusUnauthorized {
		t.Fatalf("anonymous invite = %d", code)
	}
}
