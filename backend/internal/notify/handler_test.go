package notify

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func webhookChannel(url string, events ...Kind) map[string]any {
	return map[string]any{"name": "hook", "kind": "webhook", "events": events,
		"secrets": map[string]any{"webhookUrl": url}}
}

func TestChannelCRUDKeepsSecretsWriteOnly(t *testing.T) {
	v := newEnv(t)
	const secret = "s3cret-key-123"
	code, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels",
		webhookChannel("https://hooks.example.com/in?key="+secret, BackendDown))
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, raw)
	}
	id := body["id"].(string)
	if strings.Contains(raw, secret) || !strings.Contains(raw, `"secretsSet":["webhookUrl"]`) {
		t.Fatalf("create answer shows the secret or not its name: %s", raw)
	}
	for _, path := range []string{"/api/notifications/channels", "/api/notifications/channels/" + id} {
		if _, _, raw := v.do(t, http.MethodGet, path, nil); strings.Contains(raw, secret) || strings.Contains(raw, "hooks.example.com") {
			t.Fatalf("GET %s shows the secret: %s", path, raw)
		}
	}
	// An update without secrets keeps the stored one.
	code, _, raw = v.do(t, http.MethodPut, "/api/notifications/channels/"+id, map[string]any{
		"name": "renamed", "kind": "webhook", "events": []Kind{CertExpiring}, "enabled": false})
	if code != http.StatusOK || !strings.Contains(raw, `"secretsSet":["webhookUrl"]`) || !strings.Contains(raw, `"enabled":false`) {
		t.Fatalf("update: %d %s", code, raw)
	}
	var row channelRow
	if err := v.svc.db.Where("id = ?", id).Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(row.Secrets, secret) || !strings.HasPrefix(row.Secrets, "age:") {
		t.Fatalf("secrets stored unsealed: %q", row.Secrets)
	}
	if code, _, _ := v.do(t, http.MethodDelete, "/api/notifications/channels/"+id, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if code, _, _ := v.do(t, http.MethodGet, "/api/notifications/channels/"+id, nil); code != http.StatusNotFound {
		t.Fatalf("get after delete: %d", code)
	}
	if strings.Contains(v.logs.String(), secret) {
		t.Fatal("the secret reached the log")
	}
}

func TestChannelValidationNamesFields(t *testing.T) {
	v := newEnv(t)
	tests := []struct {
		name   string
		body   map[string]any
		fields []string
	}{
		{"empty", map[string]any{"kind": "nope"}, []string{"name", "kind"}},
		{"unknown event", map[string]any{"name": "x", "kind": "webhook", "events": []string{"bogus"},
			"secrets": map[string]any{"webhookUrl": "https://example.com/"}}, []string{"events[0]"}},
		{"ntfy", map[string]any{"name": "x", "kind": "ntfy", "settings": map[string]any{"host": "a/b@c", "topic": "bad topic"}},
			[]string{"settings.host", "settings.topic"}},
		{"gotify", map[string]any{"name": "x", "kind": "gotify", "settings": map[string]any{"host": "gotify.example.com", "path": "/a?b"},
			"secrets": map[string]any{"token": "short"}}, []string{"settings.path", "secrets.token"}},
		{"discord", map[string]any{"name": "x", "kind": "discord", "secrets": map[string]any{"webhookUrl": "https://evil.example/api/webhooks/1/x"}},
			[]string{"secrets.webhookUrl"}},
		{"slack", map[string]any{"name": "x", "kind": "slack"}, []string{"secrets.webhookUrl"}},
		{"telegram", map[string]any{"name": "x", "kind": "telegram", "settings": map[string]any{"chatIds": []string{"1,2"}},
			"secrets": map[string]any{"token": "nope"}}, []string{"secrets.token", "settings.chatIds[0]"}},
		{"email", map[string]any{"name": "x", "kind": "email", "settings": map[string]any{"host": "mail.example.com",
			"from": "Me <me@example.com>", "to": []string{"a@example.com,b@example.com"}, "encryption": "ssl", "port": 70000}},
			[]string{"settings.from", "settings.to[0]", "settings.encryption", "settings.port"}},
		{"webhook", map[string]any{"name": "x", "kind": "webhook", "secrets": map[string]any{"webhookUrl": "ftp://user:pw@example.com/"}}, //nolint:gosec // a refused URL, not a credential
			[]string{"secrets.webhookUrl"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels", tc.body)
			if code != http.StatusUnprocessableEntity {
				t.Fatalf("status %d: %s", code, raw)
			}
			got := map[string]bool{}
			for _, f := range body["error"].(map[string]any)["fields"].([]any) {
				got[f.(map[string]any)["field"].(string)] = true
			}
			for _, f := range tc.fields {
				if !got[f] {
					t.Errorf("field %s not named in %s", f, raw)
				}
			}
		})
	}
}

func TestSettings(t *testing.T) {
	v := newEnv(t)
	if _, body, _ := v.do(t, http.MethodGet, "/api/notifications/settings", nil); body["certWarningDays"] != float64(14) {
		t.Fatalf("defaults: %v", body)
	}
	code, body, _ := v.do(t, http.MethodPut, "/api/notifications/settings", map[string]any{"certWarningDays": 0, "debounceSeconds": -1})
	if code != http.StatusUnprocessableEntity || len(body["error"].(map[string]any)["fields"].([]any)) != 2 {
		t.Fatalf("invalid settings: %d %v", code, body)
	}
	if code, _, raw := v.do(t, http.MethodPut, "/api/notifications/settings", map[string]any{"certWarningDays": 10, "debounceSeconds": 0}); code != http.StatusOK {
		t.Fatalf("put: %d %s", code, raw)
	}
	if st, _ := v.svc.Settings(context.Background()); st.CertWarningDays != 10 || st.DebounceSeconds != 0 {
		t.Fatalf("stored %+v", st)
	}
}

func TestSendTestToWebhook(t *testing.T) {
	v := newEnv(t)
	r := newReceiver(t)
	_, body, _ := v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(r.URL+"/hook?template=keep&token=abc"))
	id := body["id"].(string)
	code, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil)
	if code != http.StatusOK || body["ok"] != true {
		t.Fatalf("test: %d %s", code, raw)
	}
	msgs := r.messages()
	if len(msgs) != 1 || msgs[0]["title"] != "Gatehouse test notification" || !strings.Contains(msgs[0]["message"].(string), "receives Gatehouse") {
		t.Fatalf("received %v", msgs)
	}
	if r.path[0] != "/hook?template=keep&token=abc" {
		t.Fatalf("webhook called at %s, its own query must pass through unchanged", r.path[0])
	}
	_, body, _ = v.do(t, http.MethodGet, "/api/notifications/channels/"+id, nil)
	if ld := body["lastDelivery"].(map[string]any); ld["ok"] != true || ld["event"] != "test" {
		t.Fatalf("last delivery %v", ld)
	}
}

func TestSendTestFailureHidesSecrets(t *testing.T) {
	v := newEnv(t)
	r := newReceiver(t)
	url := r.URL + "/private-key-0123456789"
	r.Close() // nothing listens any more
	_, body, _ := v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(url))
	id := body["id"].(string)
	code, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil)
	if code != http.StatusOK || body["ok"] != false || body["error"] == "" {
		t.Fatalf("test: %d %s", code, raw)
	}
	_, _, got := v.do(t, http.MethodGet, "/api/notifications/channels/"+id, nil)
	for _, s := range []string{raw, got, v.logs.String()} {
		if strings.Contains(s, "private-key-0123456789") {
			t.Fatalf("secret leaked: %s", s)
		}
	}
	if !strings.Contains(got, `"ok":false`) {
		t.Fatalf("last delivery not failed: %s", got)
	}
	// Nor where it dialled: a generic reason only.
	for _, s := range []string{raw, got} {
		if strings.Contains(s, "127.0.0.1") || strings.Contains(s, "dial") || !strings.Contains(s, "connection was refused") {
			t.Fatalf("the answer shows the dial chain: %s", s)
		}
	}
}

// TestSendTestFailureHidesTheAnswer: a server that refuses the message is
// reported by its status alone, whatever its answer says.
func TestSendTestFailureHidesTheAnswer(t *testing.T) {
	v := newEnv(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("internal-secret-answer"))
	}))
	t.Cleanup(srv.Close)
	_, body, _ := v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(srv.URL+"/hook"))
	id := body["id"].(string)
	_, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil)
	_, _, got := v.do(t, http.MethodGet, "/api/notifications/channels/"+id, nil)
	for _, s := range []string{raw, got} {
		if body["ok"] != false || strings.Contains(s, "internal-secret-answer") || strings.Contains(s, "127.0.0.1") ||
			!strings.Contains(s, "status 502") {
			t.Fatalf("test answer: %s", s)
		}
	}
}

func TestEmailThroughSMTPReceiver(t *testing.T) {
	v := newEnv(t)
	sink := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{})
	_, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels", map[string]any{
		"name": "mail", "kind": "email", "events": []Kind{BackendDown},
		"settings": map[string]any{"host": sink.Host, "port": sink.Port, "from": "panel@example.com",
			"to": []string{"ops@example.com", "oncall@example.com"}, "encryption": "none"}})
	id, _ := body["id"].(string)
	if id == "" {
		t.Fatal(raw)
	}
	if _, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil); body["ok"] != true {
		t.Fatalf("test: %s", raw)
	}
	// A real event, through the debouncer and the queue.
	if _, err := v.svc.PutSettings(context.Background(), Settings{CertWarningDays: 14, DebounceSeconds: 0}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.svc.run(5 * time.Millisecond)(ctx)
	for range 5 {
		v.svc.Publish(ctx, Event{Kind: BackendDown, Key: "backend:web:http://10.0.0.1:80", Subject: "Backend down: web"})
	}
	sink.WaitMails(t, 2, 5*time.Second)
	time.Sleep(100 * time.Millisecond)
	mails := sink.Mails()
	if len(mails) != 2 {
		t.Fatalf("got %d mails, want the test and one event (one transaction for both recipients)", len(mails))
	}
	m := mails[1]
	if m.From != "panel@example.com" || len(m.To) != 2 || !strings.Contains(m.Data, "Subject: Backend down: web") {
		t.Fatalf("mail %+v", m)
	}
}

// TestEmailChannelWithSTARTTLSAndAuth: the channel's password is stored
// sealed, never shown, and used over STARTTLS (a certificate the test made);
// a wrong password fails the test button with fixed words.
func TestEmailChannelWithSTARTTLSAndAuth(t *testing.T) {
	sink := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{StartTLS: true, RequireTLS: true, Username: "ops", Password: "s3cret-pass"})
	v := newEnv(t, func(o *Deps) { o.MailRootCAs = sink.CertPool })
	_, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels", map[string]any{
		"name": "people mail", "kind": "email",
		"settings": map[string]any{"host": "localhost", "port": sink.Port, "from": "gate@example.com",
			"username": "ops", "encryption": "starttls"},
		"secrets": map[string]any{"password": "s3cret-pass"}})
	id, _ := body["id"].(string)
	if id == "" || strings.Contains(raw, "s3cret-pass") || !strings.Contains(raw, `"secretsSet":["password"]`) {
		t.Fatal(raw)
	}
	var row channelRow
	if err := v.svc.db.Where("id = ?", id).Take(&row).Error; err != nil || strings.Contains(row.Secrets, "s3cret") {
		t.Fatalf("stored secrets %q %v", row.Secrets, err)
	}
	if _, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil); body["ok"] != true {
		t.Fatalf("test: %s", raw)
	}
	m := sink.WaitMails(t, 1, 5*time.Second)[0]
	if !m.TLS || m.Auth != "ops" || strings.Join(m.To, ",") != "gate@example.com" {
		t.Fatalf("mail %+v", m)
	}
	// The people-mail setting names it; SendMail goes through it.
	if code, _, raw := v.do(t, http.MethodPut, "/api/notifications/settings", map[string]any{
		"certWarningDays": 14, "debounceSeconds": 60, "mailChannelId": id}); code != http.StatusOK {
		t.Fatal(raw)
	}
	if err := v.svc.SendMail(context.Background(), mail.Message{To: []string{"ann@example.org"}, Subject: "Your code", Text: "123456"}); err != nil {
		t.Fatal(err)
	}
	if m := sink.WaitMails(t, 2, 5*time.Second)[1]; strings.Join(m.To, ",") != "ann@example.org" || !strings.Contains(m.Data, "123456") {
		t.Fatalf("mail %+v", m)
	}
	// A wrong password: the answer says so in fixed words, without the server's text.
	v.do(t, http.MethodPut, "/api/notifications/channels/"+id, map[string]any{
		"name": "people mail", "kind": "email",
		"settings": map[string]any{"host": "localhost", "port": sink.Port, "from": "gate@example.com",
			"username": "ops", "encryption": "starttls"},
		"secrets": map[string]any{"password": "wrong-pass"}})
	_, body, raw = v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil)
	if body["ok"] != false || !strings.Contains(raw, "refused the username or password (535)") || strings.Contains(raw, "wrong-pass") {
		t.Fatalf("test: %s", raw)
	}
	err := v.svc.SendMail(context.Background(), mail.Message{To: []string{"ann@example.org"}, Subject: "s", Text: "x"})
	if err == nil || strings.Contains(err.Error(), "wrong-pass") {
		t.Fatalf("err %v", err)
	}
}

func TestMailChannelSetting(t *testing.T) {
	v := newEnv(t)
	if err := v.svc.SendMail(context.Background(), mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"}); !errors.Is(err, ErrNoMailChannel) {
		t.Fatalf("err %v", err)
	}
	_, body, _ := v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel("https://hooks.example.com/x"))
	for _, id := range []string{body["id"].(string), "nope"} {
		code, _, raw := v.do(t, http.MethodPut, "/api/notifications/settings", map[string]any{
			"certWarningDays": 14, "debounceSeconds": 60, "mailChannelId": id})
		if code != http.StatusUnprocessableEntity || !strings.Contains(raw, "mailChannelId") {
			t.Fatalf("%d %s", code, raw)
		}
	}
	if v.svc.MailReady(context.Background()) {
		t.Fatal("ready without a channel")
	}
}

func TestEmailChannelValidation(t *testing.T) {
	v := newEnv(t)
	for name, tc := range map[string]struct {
		settings map[string]any
		events   []Kind
		field    string
	}{
		"events need recipients": {map[string]any{"host": "smtp.example.com", "from": "a@example.com"}, []Kind{BackendDown}, "settings.to"},
		"password over plain text": {map[string]any{"host": "smtp.example.com", "from": "a@example.com", "username": "u",
			"encryption": "none"}, nil, "settings.encryption"},
		"header injection in from": {map[string]any{"host": "smtp.example.com", "from": "a@example.com\r\nBcc: x@evil.test"}, nil, "settings.from"},
		"list in to":               {map[string]any{"host": "smtp.example.com", "from": "a@example.com", "to": []string{"b@example.com,c@evil.test"}}, nil, "settings.to[0]"},
	} {
		code, _, raw := v.do(t, http.MethodPost, "/api/notifications/channels", map[string]any{
			"name": "m", "kind": "email", "events": tc.events, "settings": tc.settings, "secrets": map[string]any{"password": "p"}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(raw, `"field":"`+tc.field+`"`) {
			t.Errorf("%s: %d %s", name, code, raw)
		}
	}
}

func TestEventsReachOnlySubscribedEnabledChannels(t *testing.T) {
	v := newEnv(t)
	a, b, c := newReceiver(t), newReceiver(t), newReceiver(t)
	v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(a.URL, CertExpiring))
	other := webhookChannel(b.URL, BackendDown)
	other["name"] = "other"
	v.do(t, http.MethodPost, "/api/notifications/channels", other)
	off := webhookChannel(c.URL, CertExpiring)
	off["name"], off["enabled"] = "off", false
	v.do(t, http.MethodPost, "/api/notifications/channels", off)
	if _, err := v.svc.PutSettings(context.Background(), Settings{CertWarningDays: 14, DebounceSeconds: 0}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.svc.run(5 * time.Millisecond)(ctx)
	v.svc.Publish(ctx, Event{Kind: CertExpiring, Key: "cert:abc", Subject: "Certificate expiring"})
	eventually(t, "delivery", func() bool { return len(a.messages()) == 1 })
	time.Sleep(100 * time.Millisecond)
	if len(a.messages()) != 1 || len(b.messages()) != 0 || len(c.messages()) != 0 {
		t.Fatalf("deliveries %d %d %d", len(a.messages()), len(b.messages()), len(c.messages()))
	}
}

func TestPollingResumedGoesToPollingStoppedChannels(t *testing.T) {
	v := newEnv(t)
	r := newReceiver(t)
	v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(r.URL, PollingStopped))
	if _, err := v.svc.PutSettings(context.Background(), Settings{CertWarningDays: 14, DebounceSeconds: 0}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.svc.run(5 * time.Millisecond)(ctx)
	at := v.clock.Now()
	v.svc.Publish(ctx, PollingEvent(false, at, at)) // resumed before any stop: nothing to say
	v.svc.Publish(ctx, PollingEvent(true, at.Add(-time.Minute), at))
	eventually(t, "stopped", func() bool { return len(r.messages()) == 1 })
	v.svc.Publish(ctx, PollingEvent(false, at, at))
	eventually(t, "resumed", func() bool { return len(r.messages()) == 2 })
	time.Sleep(50 * time.Millisecond)
	msgs := r.messages()
	if len(msgs) != 2 || msgs[0]["title"] != "Traefik stopped fetching the configuration" || msgs[1]["title"] != "Traefik fetches the configuration again" {
		t.Fatalf("received %v", msgs)
	}
}

// TestBackupFailureAndRecoveryReachAWebhook: a failed scheduled backup is
// sent once to the channels subscribed to backup_failed, and so is the
// success that follows it; a success without a failure before says nothing.
func TestBackupFailureAndRecoveryReachAWebhook(t *testing.T) {
	v := newEnv(t)
	r := newReceiver(t)
	v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel(r.URL, BackupFailed))
	if _, err := v.svc.PutSettings(context.Background(), Settings{CertWarningDays: 14, DebounceSeconds: 0}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.svc.run(5 * time.Millisecond)(ctx)
	at := v.clock.Now()
	v.svc.Publish(ctx, BackupEvent(nil, "/data/backups", at))
	v.svc.Publish(ctx, BackupEvent(errors.New("no space left on device"), "/data/backups", at))
	eventually(t, "failure", func() bool { return len(r.messages()) == 1 })
	v.svc.Publish(ctx, BackupEvent(errors.New("no space left on device"), "/data/backups", at))
	v.svc.Publish(ctx, BackupEvent(nil, "/data/backups", at))
	eventually(t, "recovery", func() bool { return len(r.messages()) == 2 })
	time.Sleep(50 * time.Millisecond)
	msgs := r.messages()
	if len(msgs) != 2 || msgs[0]["title"] != "A scheduled backup failed" || msgs[1]["title"] != "Scheduled backups work again" ||
		!strings.Contains(msgs[0]["message"].(string), "no space left on device") {
		t.Fatalf("received %v", msgs)
	}
}

// bodySender fails as several shoutrrr services do: with the server's
// answer in the error text.
type bodySender struct{}

func (bodySender) Send(context.Context, string, string, string) error {
	return errors.New("notification failed: 500 internal-secret-answer from 10.0.0.53:53")
}

// TestSendTestFailureHidesABodyInTheError: whatever a sender puts in its
// error, the answer and the stored last error carry fixed words only.
func TestSendTestFailureHidesABodyInTheError(t *testing.T) {
	v := newEnv(t, func(o *Deps) { o.Sender = bodySender{} })
	_, body, _ := v.do(t, http.MethodPost, "/api/notifications/channels", webhookChannel("https://hooks.example.com/x"))
	id := body["id"].(string)
	_, _, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil)
	_, _, got := v.do(t, http.MethodGet, "/api/notifications/channels/"+id, nil)
	for _, s := range []string{raw, got} {
		if strings.Contains(s, "internal-secret-answer") || strings.Contains(s, "10.0.0.53") || !strings.Contains(s, "delivery failed") {
			t.Fatalf("test answer: %s", s)
		}
	}
}
