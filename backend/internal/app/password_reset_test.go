package app

import (
	"net/http"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// A person who forgot their password asks by e-mail address, gets a link
// through a real SMTP server, chooses a new one: their sessions end, the
// old password stops working, the link works once.
func TestPasswordResetByEmail(t *testing.T) {
	a, rcv := newMailApp(t)
	ann := a.createUser(t, "ann", "viewer")
	if rec := a.do("PATCH", "/api/people/"+ann, `{"email":"ann@example.com"}`); rec.Code != http.StatusOK {
		t.Fatalf("set e-mail = %d %s", rec.Code, rec.Body)
	}
	session := a.login(t, "ann", "correct-horse-battery", "192.0.2.20")
	if rec := a.do("GET", "/api/password-reset", ""); rec.Code != http.StatusOK || rec.Body.String() != `{"available":true}`+"\n" {
		t.Fatalf("available = %d %s", rec.Code, rec.Body)
	}
	if code := a.public("POST", "/api/password-reset/request", `{"login":"ANN@example.com"}`); code != http.StatusAccepted {
		t.Fatalf("request = %d", code)
	}
	tok := tokenIn(t, rcv.WaitMails(t, 1, 5*time.Second)[0].Data)
	if code := a.public("POST", "/api/password-reset/check", `{"token":"`+tok+`"}`); code != http.StatusNoContent {
		t.Fatalf("check = %d", code)
	}
	if code := a.public("POST", "/api/password-reset", `{"token":"`+tok+`","password":"ann-new-password"}`); code != http.StatusNoContent {
		t.Fatalf("reset = %d", code)
	}
	if code := a.public("GET", "/api/admin/me", "", "Cookie", "gatehouse_admin="+session); code != http.StatusUnauthorized {
		t.Fatalf("a session from before the reset = %d", code)
	}
	a.login(t, "ann", "ann-new-password", "192.0.2.20")
	if code := a.public("POST", "/api/admin/login", `{"username":"ann","password":"correct-horse-battery"}`, "RemoteAddr", "192.0.2.21"); code == http.StatusOK {
		t.Fatal("the old password still works")
	}
	if code := a.public("POST", "/api/password-reset", `{"token":"`+tok+`","password":"another-password"}`); code != http.StatusNotFound {
		t.Fatalf("a second use = %d", code)
	}
	// A link older than 30 minutes is refused.
	if code := a.public("POST", "/api/password-reset/request", `{"login":"ann"}`); code != http.StatusAccepted {
		t.Fatalf("second request = %d", code)
	}
	late := tokenIn(t, rcv.WaitMails(t, 2, 5*time.Second)[1].Data)
	if err := a.c.db.Model(&store.PasswordReset{}).Where("used_at IS NULL").
		Update("expires_at", time.Now().Add(-time.Second)).Error; err != nil {
		t.Fatal(err)
	}
	if code := a.public("POST", "/api/password-reset", `{"token":"`+late+`","password":"too-late-password"}`); code != http.StatusNotFound {
		t.Fatalf("an expired link = %d", code)
	}
}

// The answer is the same for an account that exists and one that does not
// (and only the existing one gets mail); asking too often ends in 429 with
// Retry-After, per account and per client address.
func TestPasswordResetNeverTellsAndIsLimited(t *testing.T) {
	a, rcv := newMailApp(t)
	ann := a.createUser(t, "ann", "viewer")
	a.do("PATCH", "/api/people/"+ann, `{"email":"ann@example.com"}`)
	ask := func(login, ip string) (int, string) {
		saved := a.cookie
		a.cookie = ""
		defer func() { a.cookie = saved }()
		rec := a.do("POST", "/api/password-reset/request", `{"login":"`+login+`"}`, "RemoteAddr", ip)
		return rec.Code, rec.Body.String()
	}
	c1, b1 := ask("ann", "198.51.100.1")
	c2, b2 := ask("nobody@example.com", "198.51.100.2")
	if c1 != http.StatusAccepted || c1 != c2 || b1 != b2 {
		t.Fatalf("existing = %d %q, missing = %d %q", c1, b1, c2, b2)
	}
	rcv.WaitMails(t, 1, 5*time.Second)
	a.c.invitations.Settle()
	if n := len(rcv.Mails()); n != 1 {
		t.Fatalf("%d mails; want one, to ann", n)
	}
	// Per account: the fourth ask for ann within the hour is refused.
	ask("ann", "198.51.100.3")
	ask("ann", "198.51.100.4")
	rec := func() int {
		saved := a.cookie
		a.cookie = ""
		defer func() { a.cookie = saved }()
		r := a.do("POST", "/api/password-reset/request", `{"login":"ann"}`, "RemoteAddr", "198.51.100.5")
		if r.Code == http.StatusTooManyRequests && r.Header().Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		return r.Code
	}()
	if rec != http.StatusTooManyRequests {
		t.Fatalf("fourth ask for ann = %d", rec)
	}
	// Per client address, whatever is asked for.
	var last int
	for i := range 11 {
		last, _ = ask("someone"+string(rune('a'+i)), "203.0.113.9")
	}
	if last != http.StatusTooManyRequests {
		t.Fatalf("eleventh ask from one address = %d", last)
	}
	if code, _ := ask("", "203.0.113.10"); code != http.StatusUnprocessableEntity {
		t.Fatalf("empty login = %d", code)
	}
}

// Without an e-mail channel there is no password reset.
func TestPasswordResetNeedsMail(t *testing.T) {
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": "https://panel.example.com"})
	if rec := a.do("GET", "/api/password-reset", ""); rec.Body.String() != `{"available":false}`+"\n" {
		t.Fatalf("available = %s", rec.Body)
	}
	if rec := a.do("POST", "/api/password-reset/request", `{"login":"ann"}`); rec.Code != http.StatusNotFound {
		t.Fatalf("request without mail = %d %s", rec.Code, rec.Body)
	}
}
