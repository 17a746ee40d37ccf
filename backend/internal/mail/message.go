// Package mail composes e-mail for people (sign-in codes, and later
// invitations and password resets) and sends it through an SMTP server.
// Every header value is checked or encoded here, so nothing a visitor or an
// administrator types can add a header or a recipient.
package mail

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of what a message may carry.
const (
	MaxAddressLen = 254 // RFC 5321's path limit, less the brackets
	MaxSubjectLen = 200
	MaxBodyLen    = 256 << 10
	MaxRecipients = 50
)

// Message is one e-mail. Text is required; HTML, when set, makes the mail
// multipart/alternative with both.
type Message struct {
	To      []string
	Subject string
	Text    string
	HTML    string
}

// ErrAddress is the error of an address that is not a bare e-mail address.
var ErrAddress = errors.New("not an e-mail address")

// CheckAddress accepts one bare address (local@domain, no display name, no
// list, no comment, no line break, no spaces) and returns it as written.
// The domain part is lower-cased; the local part is kept as sent (it is the
// receiving server's to interpret).
func CheckAddress(a string) (string, error) {
	if a == "" || len(a) > MaxAddressLen || !utf8.ValidString(a) {
		return "", ErrAddress
	}
	for _, r := range a {
		if r <= ' ' || r == 0x7f || strings.ContainsRune(`,;<>()[]\"`, r) {
			return "", ErrAddress
		}
	}
	p, err := mail.ParseAddress(a)
	if err != nil || p.Name != "" || p.Address != a {
		return "", ErrAddress
	}
	local, domain, ok := strings.Cut(a, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") || !validDomain(domain) {
		return "", ErrAddress
	}
	return local + "@" + strings.ToLower(domain), nil
}

// validDomain accepts a DNS name of labels of letters, digits and '-' (an
// internationalised name must be given in its xn-- form).
func validDomain(d string) bool {
	if len(d) > 253 || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !letter && (c < '0' || c > '9') && c != '-' {
				return false
			}
		}
	}
	return true
}

// ValidDomain reports whether d is a domain name CheckAddress accepts after
// the @.
func ValidDomain(d string) bool { return validDomain(d) }

// Compose writes m as an RFC 5322 message from the address from (fromName
// is an optional display name). The subject and display name are RFC 2047
// encoded; a line break in either is refused, as is any recipient that is
// not a bare address.
func Compose(from, fromName string, m Message, now time.Time) ([]byte, error) {
	if _, err := CheckAddress(from); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if len(m.To) == 0 || len(m.To) > MaxRecipients {
		return nil, fmt.Errorf("to: needs 1 to %d recipients", MaxRecipients)
	}
	to := make([]string, len(m.To))
	for i, a := range m.To {
		if _, err := CheckAddress(a); err != nil {
			return nil, fmt.Errorf("to[%d]: %w", i, err)
		}
		to[i] = (&mail.Address{Address: a}).String()
	}
	for _, v := range [...]struct{ name, v string }{{"subject", m.Subject}, {"from name", fromName}} {
		if strings.ContainsAny(v.v, "\r\n") || !utf8.ValidString(v.v) || len(v.v) > MaxSubjectLen {
			return nil, fmt.Errorf("%s: must be one line of at most %d bytes", v.name, MaxSubjectLen)
		}
	}
	if m.Text == "" || len(m.Text)+len(m.HTML) > MaxBodyLen || !utf8.ValidString(m.Text) || !utf8.ValidString(m.HTML) {
		return nil, fmt.Errorf("body: needs text of at most %d bytes", MaxBodyLen)
	}
	var buf bytes.Buffer
	h := textproto.MIMEHeader{}
	h.Set("From", (&mail.Address{Name: fromName, Address: from}).String())
	h.Set("To", strings.Join(to, ", "))
	h.Set("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	h.Set("Date", now.Format(time.RFC1123Z))
	h.Set("Message-Id", messageID(from))
	h.Set("Mime-Version", "1.0")
	h.Set("Auto-Submitted", "auto-generated")
	if m.HTML == "" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Content-Transfer-Encoding", "quoted-printable")
		writeHeader(&buf, h)
		if err := writeQP(&buf, m.Text); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, part := range [...]struct{ typ, v string }{{"text/plain", m.Text}, {"text/html", m.HTML}} {
		w, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {part.typ + "; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		if err := writeQP(w, part.v); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	h.Set("Content-Type", mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": mw.Boundary()}))
	writeHeader(&buf, h)
	buf.Write(body.Bytes())
	return buf.Bytes(), nil
}

// headerOrder is the order headers are written in (a map has none).
var headerOrder = []string{"From", "To", "Subject", "Date", "Message-Id", "Auto-Submitted", "Mime-Version",
	"Content-Type", "Content-Transfer-Encoding"}

func writeHeader(buf *bytes.Buffer, h textproto.MIMEHeader) {
	for _, k := range headerOrder {
		if v := h.Get(k); v != "" {
			buf.WriteString(k + ": " + v + "\r\n")
		}
	}
	buf.WriteString("\r\n")
}

func writeQP(w interface{ Write([]byte) (int, error) }, s string) error {
	qp := quotedprintable.NewWriter(w)
	// Line breaks as CRLF, the form SMTP carries.
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
	if _, err := qp.Write([]byte(s)); err != nil {
		return err
	}
	return qp.Close()
}

// messageID makes a unique Message-ID on the sender's domain.
func messageID(from string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	_, domain, _ := strings.Cut(from, "@")
	return "<" + hex.EncodeToString(b[:]) + "@" + strings.ToLower(domain) + ">"
}
