package httpx

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// StatusError is an answer with an unexpected status (HTTP, or SMTP for
// mail) from a server the panel contacted. Only the code is kept: the body is the fetched server's
// and never reaches the caller.
type StatusError struct{ Code int }

func (e StatusError) Error() string { return fmt.Sprintf("answered with status %d", e.Code) }

// statusInText finds the status code libraries put in their error text
// ("401 Unauthorized: ...", "status code 503", "HTTP 500").
var statusInText = regexp.MustCompile(`(?i)(?:^|status(?: code)?:? |http |response )([1-5][0-9]{2})(?:\b|$)`)

// textReasons map phrases of the standard library's network errors to the
// reasons FetchFailure gives for the typed errors.
var textReasons = []struct{ phrase, reason string }{
	{"connection refused", "the connection was refused"},
	{"no such host", "the host name could not be resolved"},
	{"server misbehaving", "the host name could not be resolved"},
	{"i/o timeout", "no answer in time"},
	{"deadline exceeded", "no answer in time"},
	{"Client.Timeout", "no answer in time"},
	{"connection reset", "the connection was reset"},
	{"broken pipe", "the connection was reset"},
	{"no route to host", "the host cannot be reached"},
	{"network is unreachable", "the host cannot be reached"},
	{"x509:", "its TLS certificate is not trusted for this host"},
	{"tls: ", "the TLS handshake failed"},
	{"HTTP response to HTTPS client", "it does not speak TLS (http:// instead of https://?)"},
}

// FetchFailure describes why fetching a URL an administrator typed failed,
// in words that tell nothing about what the fetched server said or about
// the network behind it: a status code, or a generic reason. It never
// returns err's text, which may carry the answer's body (go-oidc and
// notification libraries put it there), resolver addresses or a dial
// chain, so the panel cannot be used to read internal URLs back.
func FetchFailure(err error) string {
	var st StatusError
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var recordHdr tls.RecordHeaderError
	var netErr net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &st):
		return st.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "no answer in time"
	case errors.Is(err, context.Canceled):
		return "the request was cancelled"
	case errors.As(err, &dns):
		return "the host name could not be resolved"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "the connection was reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host cannot be reached"
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid):
		return "its TLS certificate is not trusted for this host"
	case errors.As(err, &recordHdr):
		return "it does not speak TLS (http:// instead of https://?)"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "no answer in time"
	}
	// Some libraries flatten the chain into text (%v): recognise the
	// standard library's phrases, and still return only fixed words.
	text := err.Error()
	for _, p := range textReasons {
		if strings.Contains(text, p.phrase) {
			return p.reason
		}
	}
	if m := statusInText.FindStringSubmatch(text); m != nil {
		if code, _ := strconv.Atoi(m[1]); code >= 100 {
			return StatusError{Code: code}.Error()
		}
	}
	return "the request failed"
}
