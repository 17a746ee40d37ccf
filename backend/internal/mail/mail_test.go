package mail_test

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestCheckAddress(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"ann@example.com", "ann@example.com", true},
		{"Ann.Lee+tag@Example.COM", "Ann.Lee+tag@example.com", true},
		{"a@b", "a@b", true},
		{"", "", false},
		{"ann", "", false},
		{"ann@", "", false},
		{"@example.com", "", false},
		{"Ann <ann@example.com>", "", false},
		{"ann@example.com, bob@example.com", "", false},
		{"ann@example.com\r\nBcc: x@evil.test", "", false},
		{"ann@example.com\n", "", false},
		{"ann @example.com", "", false},
		{`"a b"@example.com`, "", false},
		{"ann@exa_mple.com", "", false},
		{"ann@-example.com", "", false},
		{"ann@example..com", "", false},
		{"ann@[127.0.0.1]", "", false},
		{"ann@example.com(comment)", "", false},
		{"ann@" + strings.Repeat("a", 260) + ".com", "", false},
		{"ann@exämple.com", "", false},
	} {
		got, err := mail.CheckAddress(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CheckAddress(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestComposeRefusesHeaderInjection(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for name, tc := range map[string]struct {
		from, fromName string
		m              mail.Message
	}{
		"subject":   {"p@example.com", "", mail.Message{To: []string{"a@example.com"}, Subject: "hi\r\nBcc: x@evil.test", Text: "x"}},
		"subject-n": {"p@example.com", "", mail.Message{To: []string{"a@example.com"}, Subject: "hi\nBcc: x@evil.test", Text: "x"}},
		"to":        {"p@example.com", "", mail.Message{To: []string{"a@example.com\r\nBcc: x@evil.test"}, Subject: "s", Text: "x"}},
		"to-list":   {"p@example.com", "", mail.Message{To: []string{"a@example.com,x@evil.test"}, Subject: "s", Text: "x"}},
		"from":      {"p@example.com\r\nBcc: x@evil.test", "", mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"}},
		"from-name": {"p@example.com", "G\r\nBcc: x@evil.test", mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"}},
		"no-to":     {"p@example.com", "", mail.Message{Subject: "s", Text: "x"}},
		"no-text":   {"p@example.com", "", mail.Message{To: []string{"a@example.com"}, Subject: "s"}},
	} {
		if _, err := mail.Compose(tc.from, tc.fromName, tc.m, now); err == nil {
			t.Errorf("%s: composed", name)
		}
	}
}

func TestComposeEncodesHeadersAndBody(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	raw, err := mail.Compose("panel@example.com", "Gatehouse «home»", mail.Message{
		To: []string{"ann@example.com"}, Subject: "Your code: 123456 — für Ann",
		Text: "Line one\nLine two with a very long tail " + strings.Repeat("x", 120), HTML: "<p>Hello</p>",
	}, now)
	if err != nil {
		t.Fatal(err)
	}
	r := testutil.ReceivedMail{Data: string(raw)}
	msg, err := r.Message()
	if err != nil {
		t.Fatal(err)
	}
	dec := new(mime.WordDecoder)
	subj, _ := dec.DecodeHeader(msg.Header.Get("Subject"))
	from, _ := dec.DecodeHeader(msg.Header.Get("From"))
	if subj != "Your code: 123456 — für Ann" || from != "Gatehouse «home» <panel@example.com>" ||
		msg.Header.Get("To") != "<ann@example.com>" || msg.Header.Get("Date") == "" || msg.Header.Get("Message-Id") == "" {
		t.Fatalf("headers %v (subject %q, from %q)", msg.Header, subj, from)
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 998 {
			t.Fatalf("line of %d bytes", len(line))
		}
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q", msg.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var parts []string
	for {
		p, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(quotedprintable.NewReader(p))
		parts = append(parts, p.Header.Get("Content-Type")+"|"+string(b))
	}
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "text/plain; charset=utf-8|Line one\r\nLine two") ||
		parts[1] != "text/html; charset=utf-8|<p>Hello</p>" {
		t.Fatalf("parts %q", parts)
	}
}

func TestSendThroughRealReceivers(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts testutil.SMTPOptions
		sec  mail.Security
		user string
		pass string
		want string // "" for success, else a fragment of the error
		tls  bool
	}{
		{name: "plain", opts: testutil.SMTPOptions{}, sec: mail.SecurityNone},
		{name: "plain auth to loopback", opts: testutil.SMTPOptions{Username: "ops", Password: "s3cret"}, sec: mail.SecurityNone, user: "ops", pass: "s3cret"},
		{name: "starttls", opts: testutil.SMTPOptions{StartTLS: true, RequireTLS: true}, sec: mail.SecurityStartTLS, tls: true},
		{name: "starttls auth", opts: testutil.SMTPOptions{StartTLS: true, RequireTLS: true, Username: "ops", Password: "s3cret"},
			sec: mail.SecurityStartTLS, user: "ops", pass: "s3cret", tls: true},
		{name: "starttls wrong password", opts: testutil.SMTPOptions{StartTLS: true, Username: "ops", Password: "s3cret"},
			sec: mail.SecurityStartTLS, user: "ops", pass: "nope", want: "authenticate"},
		{name: "implicit tls auth", opts: testutil.SMTPOptions{ImplicitTLS: true, Username: "ops", Password: "s3cret"},
			sec: mail.SecurityTLS, user: "ops", pass: "s3cret", tls: true},
		{name: "starttls not offered", opts: testutil.SMTPOptions{}, sec: mail.SecurityStartTLS, want: "STARTTLS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testutil.NewSMTPReceiver(t, tc.opts)
			srv := mail.Server{Host: r.Host, Port: r.Port, Security: tc.sec, Username: tc.user, Password: tc.pass,
				From: "panel@example.com", RootCAs: r.CertPool, Timeout: 5 * time.Second}
			err := mail.Send(context.Background(), srv, mail.Message{To: []string{"ann@example.com", "bob@example.org"},
				Subject: "Sign-in code", Text: "123456"})
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err %v, want %q", err, tc.want)
				}
				if len(r.Mails()) != 0 {
					t.Fatal("a mail was accepted")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := r.WaitMails(t, 1, 5*time.Second)[0]
			if m.From != "panel@example.com" || strings.Join(m.To, ",") != "ann@example.com,bob@example.org" ||
				m.TLS != tc.tls || m.Auth != tc.user || !strings.Contains(m.Data, "Subject: Sign-in code") {
				t.Fatalf("mail %+v", m)
			}
		})
	}
}

// TestSendRefusesUntrustedCertificate: without the test's pool, the
// receiver's self-signed certificate is refused, and no mail goes.
func TestSendRefusesUntrustedCertificate(t *testing.T) {
	r := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{StartTLS: true})
	err := mail.Send(context.Background(), mail.Server{Host: r.Host, Port: r.Port, Security: mail.SecurityStartTLS,
		From: "p@example.com", Timeout: 5 * time.Second}, mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"})
	if err == nil || len(r.Mails()) != 0 {
		t.Fatalf("err %v, mails %d", err, len(r.Mails()))
	}
}

func TestSendRefusesPasswordWithoutTLSToAnotherHost(t *testing.T) {
	err := mail.Send(context.Background(), mail.Server{Host: "smtp.example.com", Port: 25, Security: mail.SecurityNone,
		Username: "ops", Password: "x", From: "p@example.com"}, mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"})
	if !errors.Is(err, mail.ErrPlainAuth) {
		t.Fatalf("err %v", err)
	}
}

func TestSendHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := testutil.NewSMTPReceiver(t, testutil.SMTPOptions{})
	err := mail.Send(ctx, mail.Server{Host: r.Host, Port: r.Port, From: "p@example.com"},
		mail.Message{To: []string{"a@example.com"}, Subject: "s", Text: "x"})
	if err == nil {
		t.Fatal("sent with a cancelled context")
	}
}

func FuzzCheckAddress(f *testing.F) {
	for _, s := range []string{"ann@example.com", "a@b", "Ann <a@b>", "a@b\r\nBcc: c@d", `"x"@y`, "a@b,c@d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := mail.CheckAddress(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(got, "\r\n,;<> ") || strings.Count(got, "@") != 1 {
			t.Fatalf("accepted %q as %q", s, got)
		}
		raw, err := mail.Compose("p@example.com", "", mail.Message{To: []string{got}, Subject: "s", Text: "x"}, time.Unix(0, 0))
		if err != nil {
			t.Fatalf("compose with %q: %v", got, err)
		}
		msg, err := (testutil.ReceivedMail{Data: string(raw)}).Message()
		if err != nil || len(msg.Header["To"]) != 1 || msg.Header.Get("Bcc") != "" {
			t.Fatalf("message for %q: %v %v", got, err, msg)
		}
	})
}
