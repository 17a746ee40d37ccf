package forwardauth

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// codeEnv is an env whose codes go through a real notification service
// and a real SMTP receiver.
type codeEnv struct {
	*env
	smtp *testutil.SMTPReceiver
}

func newCodeEnv(t *testing.T) *codeEnv {
	t.Helper()
	rcv := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{})
	var mailer *notify.Service
	v := newEnv(t, func(o *Deps) {
		box, err := sealbox.Ephemeral()
		if err != nil {
			t.Fatal(err)
		}
		mailer = notify.NewService(notify.Deps{DB: o.DB, Secrets: box, Now: time.Now})
		o.Mailer = mailer
	})
	ctx := context.Background()
	ch, err := mailer.Create(ctx, notify.ChannelRequest{Name: "people", Kind: notify.Email,
		Settings: notify.ChannelSettings{Host: rcv.Host, Port: rcv.Port, From: "gate@example.net", Encryption: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mailer.PutSettings(ctx, notify.Settings{CertWarningDays: 14, DebounceSeconds: 60, MailChannelID: ch.ID}); err != nil {
		t.Fatal(err)
	}
	return &codeEnv{env: v, smtp: rcv}
}

// form posts a code form to the panel from ip, as the page's browser does.
func (v *env) form(path string, vals url.Values, ip string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(vals.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if ip != "" {
		req.RemoteAddr = ip + ":40000"
	}
	return testutil.Serve(v.e, req)
}

// settle waits until every code being mailed is done.
func (v *env) settle() {
	v.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(v.acc.mailSlots) > 0 {
		if time.Now().After(deadline) {
			v.t.Fatal("codes still being mailed")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var codeRE = regexp.MustCompile(`: ([0-9]{6})$`)

// codeOf reads the code from a mail's subject.
func codeOf(t *testing.T, m testutil.ReceivedMail) string {
	t.Helper()
	msg, err := m.Message()
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	c := codeRE.FindStringSubmatch(subj)
	if c == nil {
		t.Fatalf("no code in %q", subj)
	}
	return c[1]
}

func TestEmailCodeSettings(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	for name, tc := range map[string]struct {
		body  map[string]any
		field string
	}{
		"bad entry":      {map[string]any{"allowedEmails": []string{"ann@example.com", "not an address"}}, "allowedEmails[1]"},
		"list injection": {map[string]any{"allowedEmails": []string{"ann@example.com,eve@evil.test"}}, "allowedEmails[0]"},
		"wildcard local": {map[string]any{"allowedEmails": []string{"*@example.com"}}, "allowedEmails[0]"},
		"too short":      {map[string]any{"allowedEmails": []string{"example.com"}, "sessionSeconds": 60}, "sessionSeconds"},
		"too long":       {map[string]any{"allowedEmails": []string{"example.com"}, "sessionSeconds": 100 * 24 * 3600}, "sessionSeconds"},
	} {
		tc.body["type"] = "email_code"
		rec := v.do(http.MethodPost, "/api/services/"+id+"/security-configs", tc.body, nil)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"`+tc.field+`"`) {
			t.Errorf("%s: %d %s", name, rec.Code, rec.Body.String())
		}
	}
	var got SecurityConfigResponse
	v.must(http.StatusCreated, http.MethodPost, "/api/services/"+id+"/security-configs", map[string]any{
		"type": "email_code", "allowedEmails": []string{" Ann@Example.COM ", "@Example.org", "*.corp.example", "ann@example.com"},
	}, &got)
	if got.AllowedEmails == nil || strings.Join(*got.AllowedEmails, ",") != "ann@example.com,example.org,*.corp.example" ||
		got.SessionSeconds == nil || *got.SessionSeconds != DefaultEmailSessionSeconds {
		t.Fatalf("saved %+v", got)
	}
}

func TestEmailAllowMatches(t *testing.T) {
	a := newEmailAllow([]string{"ann@example.com", "example.org", "*.corp.example"})
	for addr, want := range map[string]bool{
		"ann@example.com":       true,
		"bob@example.com":       false,
		"bob@example.org":       true,
		"bob@sub.example.org":   false,
		"eve@corp.example":      false,
		"eve@eu.corp.example":   true,
		"eve@evilcorp.example":  false,
		"ann@example.com.evil":  false,
		"ann@example.comx":      false,
		"example.org@evil.test": false,
	} {
		if got := a.allows(addr); got != want {
			t.Errorf("allows(%q) = %v", addr, got)
		}
	}
	if newEmailAllow(nil).allows("ann@example.com") {
		t.Error("an empty list allows someone")
	}
}

// TestEmailCodeFlow: an allowed visitor asks for a code, gets it by real
// SMTP, and reaches the service; a visitor whose address is not allowed
// gets the very same answer and no mail; the session is listed and ends.
func TestEmailCodeFlow(t *testing.T) {
	v := newCodeEnv(t)
	id := v.service("app.example.com")
	protect(t, v.env, id, map[string]any{"type": "email_code", "allowedEmails": []string{"example.com"}, "sessionSeconds": 3600})

	rec := v.verify(fwd{service: id, host: "app.example.com", uri: "/dash?tab=1", browser: true})
	loc, _ := url.Parse(rec.Header().Get("Location"))
	if rec.Code != http.StatusFound || !strings.HasPrefix(loc.String(), testPanel+EmailCodePath+"?") ||
		loc.Query().Get("rd") != "https://app.example.com/dash?tab=1" {
		t.Fatalf("unauthenticated browser: %d %q", rec.Code, loc)
	}
	if api := v.verify(fwd{service: id, host: "app.example.com"}); api.Code != http.StatusUnauthorized {
		t.Fatalf("API client: %d", api.Code)
	}
	page := v.get(loc.RequestURI(), nil)
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), `action="/api/auth/email-code/send"`) {
		t.Fatalf("start page: %d %s", page.Code, page.Body.String())
	}
	rd := loc.Query().Get("rd")
	send := func(email string) *httptest.ResponseRecorder {
		return v.form(EmailCodePath+"/send", url.Values{"service": {id}, "rd": {rd}, "email": {email}}, "192.0.2.10")
	}
	outsider := send("eve@evil.test")
	insider := send("ann@example.com")
	// The code's form redirects to the service: its origin is a form-action.
	if csp := insider.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' https://app.example.com;") {
		t.Fatalf("CSP %q", csp)
	}
	if outsider.Code != http.StatusOK || insider.Code != http.StatusOK ||
		strings.ReplaceAll(outsider.Body.String(), "eve@evil.test", "X") != strings.ReplaceAll(insider.Body.String(), "ann@example.com", "X") {
		t.Fatalf("answers differ:\n%d %s\n%d %s", outsider.Code, outsider.Body.String(), insider.Code, insider.Body.String())
	}
	v.settle()
	mails := v.smtp.Mails()
	if len(mails) != 1 || strings.Join(mails[0].To, ",") != "ann@example.com" {
		t.Fatalf("mails %+v", mails)
	}
	code := codeOf(t, mails[0])
	var stored []emailCodeRow
	v.db.Find(&stored)
	if len(stored) != 1 || strings.Contains(stored[0].CodeHash, code) {
		t.Fatalf("stored codes %+v", stored)
	}

	verifyCode := func(email, code string) *httptest.ResponseRecorder {
		return v.form(EmailCodePath+"/verify", url.Values{"service": {id}, "rd": {rd}, "email": {email}, "code": {code}}, "192.0.2.10")
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	if r := verifyCode("ann@example.com", wrong); r.Code != http.StatusUnauthorized || !strings.Contains(r.Body.String(), "not right") {
		t.Fatalf("wrong code: %d %s", r.Code, r.Body.String())
	}
	ok := verifyCode("ANN@example.com", code[:3]+" "+code[3:])
	back, _ := url.Parse(ok.Header().Get("Location"))
	if ok.Code != http.StatusSeeOther || back.Host != "app.example.com" || back.Query().Get(ExchangeParam) == "" {
		t.Fatalf("right code: %d %q %s", ok.Code, back, ok.Body.String())
	}
	if again := verifyCode("ann@example.com", code); again.Code != http.StatusUnauthorized {
		t.Fatalf("code used twice: %d", again.Code)
	}
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: back.RequestURI(), browser: true})
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "https://app.example.com/dash?tab=1" || ck == nil {
		t.Fatalf("exchange: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if d := time.Until(ck.Expires); d < 50*time.Minute || d > 24*time.Hour {
		// The test clock is fixed in the past; the cookie says MaxAge.
		if ck.MaxAge != 3600 {
			t.Fatalf("cookie lifetime %v / %d", ck.Expires, ck.MaxAge)
		}
	}
	in := v.verify(fwd{service: id, host: "app.example.com", uri: "/dash", cookie: ck.Value})
	if in.Code != http.StatusOK || in.Header().Get("Remote-User") != "ann@example.com" || in.Header().Get("Remote-Email") != "ann@example.com" {
		t.Fatalf("with the session: %d %v", in.Code, in.Header())
	}
	var sessions struct{ Items []SessionResponse }
	v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &sessions)
	if len(sessions.Items) != 1 || sessions.Items[0].Kind != "email_code" || sessions.Items[0].Email != "ann@example.com" {
		t.Fatalf("sessions %+v", sessions.Items)
	}
	v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions/"+sessions.Items[0].ID, nil, nil)
	if out := v.verify(fwd{service: id, host: "app.example.com", uri: "/dash", cookie: ck.Value, browser: true}); out.Code != http.StatusFound {
		t.Fatalf("after the session ended: %d", out.Code)
	}
	// An address taken off the list loses its session at the next request.
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: "/", browser: true})
	if rec.Code != http.StatusFound {
		t.Fatalf("%d", rec.Code)
	}
}

// TestEmailCodeBruteForce: a code survives EmailCodeAttempts wrong tries;
// wrong codes for one address and from one client end in 429, whichever
// codes and addresses are tried.
func TestEmailCodeBruteForce(t *testing.T) {
	v := newCodeEnv(t)
	id := v.service("app.example.com")
	protect(t, v.env, id, map[string]any{"type": "email_code", "allowedEmails": []string{"example.com"}})
	rd := "https://app.example.com/"
	send := func(email, ip string) *httptest.ResponseRecorder {
		return v.form(EmailCodePath+"/send", url.Values{"service": {id}, "rd": {rd}, "email": {email}}, ip)
	}
	try := func(email, code, ip string) int {
		return v.form(EmailCodePath+"/verify", url.Values{"service": {id}, "rd": {rd}, "email": {email}, "code": {code}}, ip).Code
	}
	// Per code: five wrong tries and the right code no longer works.
	send("ann@example.com", "192.0.2.1")
	v.settle()
	code := codeOf(t, v.smtp.WaitMails(t, 1, 5*time.Second)[0])
	for i := range EmailCodeAttempts {
		if c := try("ann@example.com", wrongCode(code, i), "192.0.2.1"); c != http.StatusUnauthorized {
			t.Fatalf("try %d: %d", i, c)
		}
	}
	if c := try("ann@example.com", code, "192.0.2.1"); c != http.StatusUnauthorized {
		t.Fatalf("the right code after %d wrong ones: %d", EmailCodeAttempts, c)
	}
	// Per address: a new code does not give new tries past the address's limit,
	// even from many client addresses.
	send("ann@example.com", "192.0.2.2")
	v.settle()
	code = codeOf(t, v.smtp.WaitMails(t, 2, 5*time.Second)[1])
	for i := EmailCodeAttempts + 1; i < EmailFailuresPerAddress; i++ {
		if c := try("ann@example.com", wrongCode(code, i), "198.51.100."+itoa(i)); c != http.StatusUnauthorized {
			t.Fatalf("try %d: %d", i, c)
		}
	}
	if c := try("ann@example.com", code, "198.51.100.99"); c != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong codes for the address: %d", EmailFailuresPerAddress, c)
	}
	// Per client: wrong codes across many addresses (allowed or not).
	for i := range EmailFailuresPerIP {
		if c := try("user"+itoa(i)+"@example.com", "123456", "203.0.113.7"); c != http.StatusUnauthorized {
			t.Fatalf("client try %d: %d", i, c)
		}
	}
	if c := try("someone@else.test", "123456", "203.0.113.7"); c != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong codes from one client: %d", EmailFailuresPerIP, c)
	}
	// Sends: the same limit for an allowed address and one that is not.
	for _, email := range []string{"bob@example.com", "eve@evil.test"} {
		for i := range EmailSendsPerAddress {
			if r := send(email, "192.0.2."+itoa(50+i)); r.Code != http.StatusOK {
				t.Fatalf("%s send %d: %d", email, i, r.Code)
			}
		}
		if r := send(email, "192.0.2.60"); r.Code != http.StatusTooManyRequests || r.Header().Get("Retry-After") == "" {
			t.Fatalf("%s: send past the limit: %d", email, r.Code)
		}
	}
	v.settle()
}

func wrongCode(code string, i int) string {
	for d := 0; ; d++ {
		c := itoa((i*7919 + d) % 1_000_000)
		c = strings.Repeat("0", 6-len(c)) + c
		if c != code {
			return c
		}
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestEmailCodeFormsRefuse: a form for another service, a foreign return
// address or a missing Origin changes nothing.
func TestEmailCodeFormsRefuse(t *testing.T) {
	v := newCodeEnv(t)
	id := v.service("app.example.com")
	other := v.service("other.example.com")
	protect(t, v.env, id, map[string]any{"type": "email_code", "allowedEmails": []string{"example.com"}})
	for name, vals := range map[string]url.Values{
		"unprotected service":     {"service": {other}, "rd": {"https://other.example.com/"}, "email": {"ann@example.com"}},
		"foreign rd":              {"service": {id}, "rd": {"https://evil.test/"}, "email": {"ann@example.com"}},
		"http rd on another port": {"service": {id}, "rd": {"https://app.example.com:8443/"}, "email": {"ann@example.com"}},
	} {
		if r := v.form(EmailCodePath+"/send", vals, ""); r.Code != http.StatusBadRequest {
			t.Errorf("%s: %d", name, r.Code)
		}
	}
	if r := v.form(EmailCodePath+"/send", url.Values{"service": {id}, "rd": {"https://app.example.com/"},
		"email": {"ann@example.com\r\nBcc: eve@evil.test"}}, ""); r.Code != http.StatusUnprocessableEntity {
		t.Errorf("header injection: %d", r.Code)
	}
	req := httptest.NewRequest(http.MethodPost, EmailCodePath+"/verify", strings.NewReader(url.Values{
		"service": {id}, "rd": {"https://app.example.com/"}, "email": {"ann@example.com"}, "code": {"123456"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := testutil.Serve(v.e, req); r.Code != http.StatusForbidden {
		t.Errorf("verify without Origin: %d", r.Code)
	}
	req = httptest.NewRequest(http.MethodPost, EmailCodePath+"/verify", strings.NewReader("service="+id))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.test")
	if r := testutil.Serve(v.e, req); r.Code != http.StatusForbidden {
		t.Errorf("cross-origin verify: %d", r.Code)
	}
	v.settle()
	if len(v.smtp.Mails()) != 0 {
		t.Fatal("a refused form sent mail")
	}
}

func FuzzEmailAllow(f *testing.F) {
	for _, s := range []string{"ann@example.com", "example.com", "@example.com", "*.example.com", "*", "a@b@c", "A@B.C ", "*.", "@"} {
		f.Add(s, "ann@example.com")
	}
	f.Fuzz(func(t *testing.T, entry, visitor string) {
		list, err := parseEmailAllow([]string{entry})
		if err != nil {
			return
		}
		again, err := parseEmailAllow(list)
		if err != nil || strings.Join(again, "\n") != strings.Join(list, "\n") {
			t.Fatalf("not stable: %q -> %q -> %q (%v)", entry, list, again, err)
		}
		for _, e := range list {
			if strings.ContainsAny(e, " ,;\r\n") || e != strings.ToLower(e) {
				t.Fatalf("stored %q", e)
			}
		}
		if addr, ok := normalizeVisitorEmail(visitor); ok {
			a := newEmailAllow(list)
			if a.allows(addr) {
				_, domain, _ := strings.Cut(addr, "@")
				e := list[0]
				if e != addr && e != domain && (!strings.HasPrefix(e, "*.") || !strings.HasSuffix(domain, e[1:])) {
					t.Fatalf("%q allows %q", e, addr)
				}
			}
		}
	})
}

// TestEmailCodeProtectionImport: an exported email_code protection (JSON
// numbers and lists) is checked and normalized as a save is; a bad entry
// is refused by name.
func TestEmailCodeProtectionImport(t *testing.T) {
	var in map[string]any
	if err := json.Unmarshal([]byte(`{"allowed":["Example.COM","ann@example.org"],"sessionSeconds":7200}`), &in); err != nil {
		t.Fatal(err)
	}
	got, err := CheckProtection("email_code", in)
	if err != nil || fmt.Sprint(got["allowed"]) != "[example.com ann@example.org]" || got["sessionSeconds"] != int64(7200) {
		t.Fatalf("%v %v", got, err)
	}
	_ = json.Unmarshal([]byte(`{"allowed":["not an entry"]}`), &in)
	if _, err := CheckProtection("email_code", in); err == nil || !strings.Contains(err.Error(), "allowedEmails[0]") {
		t.Fatalf("err %v", err)
	}
}

// TestEmailCodeAcrossReplicas: a code mailed by one replica is accepted by
// another, whose exchange hop opens the session there; wrong codes counted
// on one count on the other (the code's tries live in the database), and
// the sweep forgets used codes.
func TestEmailCodeAcrossReplicas(t *testing.T) {
	v := newCodeEnv(t)
	other := v.replica()
	id := v.service("app.example.com")
	protect(t, v.env, id, map[string]any{"type": "email_code", "allowedEmails": []string{"ann@example.com"}})
	rd := "https://app.example.com/"
	vals := url.Values{"service": {id}, "rd": {rd}, "email": {"ann@example.com"}}
	if r := v.form(EmailCodePath+"/send", vals, "192.0.2.1"); r.Code != http.StatusOK {
		t.Fatal(r.Code)
	}
	v.settle()
	code := codeOf(t, v.smtp.WaitMails(t, 1, 5*time.Second)[0])
	vals.Set("code", wrongCode(code, 1))
	for range EmailCodeAttempts - 1 {
		if r := other.form(EmailCodePath+"/verify", vals, "192.0.2.2"); r.Code != http.StatusUnauthorized {
			t.Fatal(r.Code)
		}
	}
	vals.Set("code", code)
	r := v.form(EmailCodePath+"/verify", vals, "192.0.2.3")
	back, _ := url.Parse(r.Header().Get("Location"))
	if r.Code != http.StatusSeeOther {
		t.Fatalf("the right code after %d wrong ones on another replica: %d", EmailCodeAttempts-1, r.Code)
	}
	rec := other.verify(fwd{service: id, host: "app.example.com", uri: back.RequestURI(), browser: true})
	if ck := sessionCookie(t, rec); rec.Code != http.StatusFound || ck == nil {
		t.Fatalf("exchange on the other replica: %d", rec.Code)
	}
	if err := v.acc.sweepCodes(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int64
	v.db.Model(&emailCodeRow{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d codes left after the sweep", n)
	}
}
