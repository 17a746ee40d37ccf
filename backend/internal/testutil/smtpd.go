package testutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions configure a test SMTP receiver.
type SMTPOptions struct {
	// StartTLS offers STARTTLS with a certificate made for the test (for
	// 127.0.0.1 and localhost); RequireTLS refuses MAIL before it.
	StartTLS, RequireTLS bool
	// ImplicitTLS speaks TLS from the first byte (port 465 style).
	ImplicitTLS bool
	// Username and Password, when set, are the only AUTH PLAIN accepted,
	// and MAIL is refused before it.
	Username, Password string
	// OnMail, when set, hears each accepted message.
	OnMail func(ReceivedMail)
}

// SMTPReceiver is a real SMTP server (github.com/emersion/go-smtp) on
// 127.0.0.1 that keeps every message it accepts. Tests send mail through
// it and read the messages back.
type SMTPReceiver struct {
	Host string
	Port int
	// CertPool trusts the receiver's certificate (TLS modes only).
	CertPool *x509.CertPool

	opts   SMTPOptions
	srv    *smtp.Server
	mu     sync.Mutex
	mails  []ReceivedMail
	notify chan struct{}
}

// ReceivedMail is one accepted message.
type ReceivedMail struct {
	From string
	To   []string
	Data string
	// TLS and Auth say how the message came: over TLS, after AUTH.
	TLS  bool
	Auth string
}

// Message parses the mail's data (headers and raw body).
func (m ReceivedMail) Message() (*mail.Message, error) {
	return mail.ReadMessage(strings.NewReader(m.Data))
}

// NewSMTPReceiver starts a receiver, stopped when the test ends.
func NewSMTPReceiver(t testing.TB, opts SMTPOptions) *SMTPReceiver {
	t.Helper()
	r, err := StartSMTPReceiver(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// StartSMTPReceiver starts a receiver outside a Go test (the Chromium
// suite runs it through scripts/smtpreceiver); Close stops it.
func StartSMTPReceiver(opts SMTPOptions) (*SMTPReceiver, error) {
	r := &SMTPReceiver{opts: opts, notify: make(chan struct{}, 1)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{r: r, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ErrorLog = log.New(io.Discard, "", 0)
	srv.MaxMessageBytes = 1 << 20
	srv.MaxRecipients = 50
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	// AUTH over plain text only when the test asks for no TLS at all.
	srv.AllowInsecureAuth = !opts.StartTLS && !opts.ImplicitTLS
	var ln net.Listener
	var err error
	if opts.StartTLS || opts.ImplicitTLS {
		cert, pool, err := testCertificate()
		if err != nil {
			return nil, err
		}
		r.CertPool = pool
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if opts.ImplicitTLS {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", srv.TLSConfig)
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, err
	}
	if opts.ImplicitTLS {
		srv.TLSConfig = nil // the listener already speaks TLS: no STARTTLS on top
	}
	r.srv = srv
	addr := ln.Addr().(*net.TCPAddr)
	r.Host, r.Port = "127.0.0.1", addr.Port
	go func() { _ = srv.Serve(ln) }()
	return r, nil
}

// Close stops the receiver.
func (r *SMTPReceiver) Close() error { return r.srv.Close() }

// Addr is host:port.
func (r *SMTPReceiver) Addr() string { return net.JoinHostPort(r.Host, strconv.Itoa(r.Port)) }

// Mails returns the messages accepted so far.
func (r *SMTPReceiver) Mails() []ReceivedMail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ReceivedMail(nil), r.mails...)
}

// WaitMails waits until n messages arrived and returns them; it fails the
// test after timeout.
func (r *SMTPReceiver) WaitMails(t testing.TB, n int, timeout time.Duration) []ReceivedMail {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if m := r.Mails(); len(m) >= n {
			return m
		}
		select {
		case <-r.notify:
		case <-deadline:
			t.Fatalf("SMTP receiver: %d mails after %s, want %d", len(r.Mails()), timeout, n)
		}
	}
}

func (r *SMTPReceiver) add(m ReceivedMail) {
	r.mu.Lock()
	r.mails = append(r.mails, m)
	r.mu.Unlock()
	if r.opts.OnMail != nil {
		r.opts.OnMail(m)
	}
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

type smtpSession struct {
	r    *SMTPReceiver
	conn *smtp.Conn
	from string
	to   []string
	auth string
}

func (s *smtpSession) secure() bool {
	_, ok := s.conn.TLSConnectionState()
	return ok
}

func (s *smtpSession) AuthMechanisms() []string {
	if s.r.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain || s.r.opts.Username == "" {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != s.r.opts.Username || password != s.r.opts.Password {
			return smtp.ErrAuthFailed
		}
		s.auth = username
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if s.r.opts.Username != "" && s.auth == "" {
		return smtp.ErrAuthRequired
	}
	if s.r.opts.RequireTLS && !s.secure() {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Must issue a STARTTLS command first"}
	}
	s.from = from
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *smtpSession) Data(rd io.Reader) error {
	b, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	s.r.add(ReceivedMail{From: s.from, To: append([]string(nil), s.to...), Data: string(b), TLS: s.secure(), Auth: s.auth})
	return nil
}

func (s *smtpSession) Reset() { s.from, s.to = "", nil }

func (s *smtpSession) Logout() error { return nil }

// testCertificate makes a self-signed certificate for 127.0.0.1 and
// localhost, and a pool that trusts it.
func testCertificate() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "gatehouse test SMTP"},
		NotBefore:    time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}
