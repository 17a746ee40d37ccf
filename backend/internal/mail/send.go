package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Security is how the connection to the SMTP server is protected.
type Security string

// The security modes.
const (
	SecurityNone     Security = "none"     // plain text (a relay on the same host or network)
	SecurityStartTLS Security = "starttls" // plain text upgraded with STARTTLS, required (port 587)
	SecurityTLS      Security = "tls"      // TLS from the first byte (port 465)
)

// DefaultPort is the usual port of each mode.
func DefaultPort(s Security) int {
	switch s {
	case SecurityStartTLS:
		return 587
	case SecurityTLS:
		return 465
	}
	return 25
}

// Server is an SMTP server to send through.
type Server struct {
	Host     string
	Port     int // 0: DefaultPort(Security)
	Security Security
	// Username and Password, when set, authenticate with AUTH PLAIN. The
	// password is only ever sent over TLS, or to a loopback address.
	Username, Password string
	From               string // the envelope sender and From address
	FromName           string // optional display name
	// RootCAs trusts the server's certificate; nil means the system's roots.
	RootCAs *x509.CertPool
	// Timeout bounds the whole exchange; 0 means 15 seconds.
	Timeout time.Duration
}

// ErrPlainAuth refuses to send a password over a connection without TLS to
// another machine.
var ErrPlainAuth = errors.New("a password is only sent over TLS: choose STARTTLS or TLS")

// Send composes m and delivers it in one SMTP transaction.
func Send(ctx context.Context, srv Server, m Message) error {
	data, err := Compose(srv.From, srv.FromName, m, time.Now())
	if err != nil {
		return err
	}
	if srv.Username != "" && srv.Security != SecurityStartTLS && srv.Security != SecurityTLS && !loopback(srv.Host) {
		return ErrPlainAuth
	}
	timeout := srv.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	port := srv.Port
	if port == 0 {
		port = DefaultPort(srv.Security)
	}
	addr := net.JoinHostPort(srv.Host, strconv.Itoa(port))
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
	defer func() { _ = conn.Close() }()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// A cancelled context ends the exchange at once.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	tlsConf := &tls.Config{ServerName: srv.Host, RootCAs: srv.RootCAs, MinVersion: tls.VersionTLS12}
	var c *smtp.Client
	switch srv.Security {
	case SecurityTLS:
		tc := tls.Client(conn, tlsConf)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fmt.Errorf("TLS with %s: %w", addr, err)
		}
		c = smtp.NewClient(tc)
	case SecurityStartTLS:
		if c, err = smtp.NewClientStartTLS(conn, tlsConf); err != nil {
			return fmt.Errorf("STARTTLS with %s: %w", addr, err)
		}
	default:
		c = smtp.NewClient(conn)
	}
	defer func() { _ = c.Close() }()
	if srv.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", srv.Username, srv.Password)); err != nil {
			return fmt.Errorf("authenticate: %w", err)
		}
	}
	if err := c.SendMail(srv.From, m.To, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	_ = c.Quit()
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}
