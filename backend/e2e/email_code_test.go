//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// postForm is a browser submitting one of the panel's e-mail code forms.
func postForm(t *testing.T, c *http.Client, target string, vals url.Values) answer {
	t.Helper()
	u, _ := url.Parse(target)
	req, err := http.NewRequest(http.MethodPost, target, strings.NewReader(vals.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, location: resp.Header.Get("Location"), body: string(b)}
}

var subjectCode = regexp.MustCompile(`: ([0-9]{6})$`)

// TestEmailCodeThroughTraefik: an outsider opens a service protected by
// e-mail code through a real Traefik, gets a code by mail through a real
// SMTP receiver, and reaches the service; an address that is not allowed
// gets the very same answer and no mail; guessing codes ends in 429.
func TestEmailCodeThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	be := recordingBackend(t)
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})
	smtp := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{})

	var ch struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/notifications/channels", map[string]any{
		"name": "people", "kind": "email",
		"settings": map[string]any{"host": smtp.Host, "port": smtp.Port, "from": "gate@example.net", "encryption": "none"}}, &ch)
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/notifications/settings", map[string]any{
		"certWarningDays": 14, "debounceSeconds": 60, "mailChannelId": ch.ID}, nil)
	p.MustJSON(t, http.StatusOK, http.MethodPost, "/api/notifications/channels/"+ch.ID+"/test", nil, nil)
	smtp.WaitMails(t, 1, 10*time.Second) // the channel works: its test mail went to its own address

	id := accessService(t, p, be, "code.access.test", map[string]any{
		"type": "email_code", "allowedEmails": []string{"friends.example"}, "sessionSeconds": 3600})

	c := browser(t, tr)
	var a answer
	harness.Eventually(t, 30*time.Second, func() bool {
		a = fetch(t, c, "http://code.access.test/photos?album=1", nil)
		return a.code == http.StatusFound
	}, "code.access.test never redirected to the code page")
	start, _ := url.Parse(a.location)
	if !strings.HasPrefix(a.location, p.URL+forwardauth.EmailCodePath+"?") || start.Query().Get("rd") != "http://code.access.test/photos?album=1" {
		t.Fatalf("redirect %q", a.location)
	}
	if a = fetch(t, c, a.location, nil); a.code != http.StatusOK || !strings.Contains(a.body, "Send me a code") {
		t.Fatalf("code page: %d %s", a.code, a.body)
	}
	form := url.Values{"service": {id}, "rd": {start.Query().Get("rd")}}
	send := func(email string) answer {
		v := url.Values{"email": {email}}
		for k, x := range form {
			v[k] = x
		}
		return postForm(t, c, p.URL+forwardauth.EmailCodePath+"/send", v)
	}

	// Not allowed: the same answer, and no mail.
	began := time.Now()
	outsider := send("eve@elsewhere.example")
	tOut := time.Since(began)
	began = time.Now()
	friend := send("ann@friends.example")
	tIn := time.Since(began)
	if outsider.code != http.StatusOK || friend.code != http.StatusOK ||
		strings.ReplaceAll(outsider.body, "eve@elsewhere.example", "X") != strings.ReplaceAll(friend.body, "ann@friends.example", "X") {
		t.Fatalf("answers differ: %d / %d\n%s\n%s", outsider.code, friend.code, outsider.body, friend.body)
	}
	t.Logf("send answered in %v (not allowed) and %v (allowed)", tOut, tIn)
	smtp.WaitMails(t, 2, 10*time.Second)
	time.Sleep(500 * time.Millisecond)
	if mails := smtp.Mails(); len(mails) != 2 || strings.Join(mails[1].To, ",") != "ann@friends.example" {
		t.Fatalf("mails after the two asks: %+v", mails)
	}
	mails := smtp.Mails()
	msg, err := mails[1].Message()
	if err != nil {
		t.Fatal(err)
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	m := subjectCode.FindStringSubmatch(subject)
	if m == nil {
		t.Fatalf("subject %q", subject)
	}
	code := m[1]

	// The right code: back to the service through the exchange hop, in.
	v := url.Values{"email": {"ann@friends.example"}, "code": {code}}
	for k, x := range form {
		v[k] = x
	}
	a = postForm(t, c, p.URL+forwardauth.EmailCodePath+"/verify", v)
	if a.code != http.StatusSeeOther || !strings.HasPrefix(a.location, "http://code.access.test/photos?") {
		t.Fatalf("verify: %d %q %s", a.code, a.location, a.body)
	}
	if a = fetch(t, c, a.location, nil); a.code != http.StatusFound || a.location != "http://code.access.test/photos?album=1" {
		t.Fatalf("exchange hop: %d %q %s", a.code, a.location, a.body)
	}
	a = fetch(t, c, a.location, map[string]string{"Remote-User": "mallory"})
	var seen http.Header
	_ = json.Unmarshal([]byte(a.body), &seen)
	if a.code != http.StatusOK || strings.Join(seen.Values("Remote-User"), ",") != "ann@friends.example" {
		t.Fatalf("through Traefik with the session: %d %s", a.code, a.body)
	}
	var sessions struct {
		Items []struct{ ID, Kind, Email string }
	}
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/sessions", nil, &sessions)
	if len(sessions.Items) != 1 || sessions.Items[0].Kind != "email_code" {
		t.Fatalf("sessions %+v", sessions.Items)
	}

	// Guessing: a fresh code for another allowed address, then wrong codes
	// until the limits answer 429; the right code does not get through then.
	attacker := browser(t, tr)
	send("bob@friends.example")
	mails = smtp.WaitMails(t, 3, 10*time.Second)
	msg, _ = mails[2].Message()
	subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	bobCode := subjectCode.FindStringSubmatch(subject)[1]
	guess := url.Values{"email": {"bob@friends.example"}}
	for k, x := range form {
		guess[k] = x
	}
	var last answer
	tries := 0
	for n := 0; n < 100 && last.code != http.StatusTooManyRequests; n++ {
		g := []byte("000000")
		copy(g[6-len(itoa3(n)):], itoa3(n))
		if string(g) == bobCode {
			continue
		}
		guess.Set("code", string(g))
		last = postForm(t, attacker, p.URL+forwardauth.EmailCodePath+"/verify", guess)
		tries++
		if last.code != http.StatusUnauthorized && last.code != http.StatusTooManyRequests {
			t.Fatalf("guess %d: %d %s", n, last.code, last.body)
		}
	}
	if last.code != http.StatusTooManyRequests {
		t.Fatalf("no 429 after %d wrong codes", tries)
	}
	t.Logf("429 after %d wrong codes", tries)
	guess.Set("code", bobCode)
	if a := postForm(t, attacker, p.URL+forwardauth.EmailCodePath+"/verify", guess); a.code != http.StatusTooManyRequests {
		t.Fatalf("the right code after the limit: %d", a.code)
	}
	// The session ends from the sessions list.
	p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/sessions/"+sessions.Items[0].ID, nil, nil)
	if a := fetch(t, c, "http://code.access.test/photos", nil); a.code != http.StatusFound {
		t.Fatalf("after the session was ended: %d", a.code)
	}
}

func itoa3(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}
