// This file validates the names users type that end up inside Traefik
// rules and URLs. Only RFC 1123 names (lower-cased, ASCII: IDNs in punycode)
// pass, so nothing accepted here can contain a backtick, quote, space,
// parenthesis or any other character that could break out of a rule.

package validate

import (
	"errors"
	"net/netip"
	"strings"
)

// Validation errors, worded for a field message.
var (
	ErrHostnameEmpty    = errors.New("must not be empty")
	ErrHostnameTooLong  = errors.New("must be at most 253 characters")
	ErrHostnameLabel    = errors.New("each label must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen")
	ErrHostnameWildcard = errors.New("a wildcard is allowed only as the whole first label (*.example.com)")
)

// NormalizeHostname lower-cases and trims a name and drops one trailing dot.
func NormalizeHostname(s string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
}

// Hostname checks a normalized host name. With allowWildcard, a leading "*."
// label is accepted (certificate SANs).
func Hostname(name string, allowWildcard bool) error {
	if name == "" {
		return ErrHostnameEmpty
	}
	if len(name) > 253 {
		return ErrHostnameTooLong
	}
	if strings.HasPrefix(name, "*.") {
		if !allowWildcard {
			return ErrHostnameWildcard
		}
		name = name[2:]
	}
	if strings.Contains(name, "*") {
		return ErrHostnameWildcard
	}
	for _, label := range strings.Split(name, ".") {
		if !validLabel(label, false) {
			return ErrHostnameLabel
		}
	}
	return nil
}

// RelativeHostname checks a subdomain part such as "app" or "eu.app".
func RelativeHostname(name string) error {
	if name == "" {
		return ErrHostnameEmpty
	}
	return Hostname(name, false)
}

// TargetHost checks an upstream host: an IP address or a host name. Names
// may contain underscores (container and service names often do); they go
// into URLs, never into rules.
func TargetHost(host string) error {
	if host == "" {
		return ErrHostnameEmpty
	}
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return nil
	}
	if len(host) > 253 {
		return ErrHostnameTooLong
	}
	for _, label := range strings.Split(host, ".") {
		if !validLabel(label, true) {
			return errors.New("must be an IP address or a host name (letters, digits, hyphens, underscores and dots)")
		}
	}
	return nil
}

func validLabel(l string, underscore bool) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c >= 'A' && c <= 'Z' && underscore:
		case c == '_' && underscore:
		default:
			return false
		}
	}
	return true
}

// StripPort removes a ":port" from a Host header value (keeping IPv6
// literals in brackets whole).
func StripPort(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		return host[:i]
	}
	return host
}
