// This file validates HTTP header names and values that the panel
// writes into generated Traefik configuration (custom request headers,
// header-matching rules). The API checks them on input and the builder
// checks them again before emitting, with the same rules.

package validate

import "strings"

// HeaderName reports whether s is an RFC 9110 token of at most 128 bytes:
// letters, digits and !#$%&'*+-.^_|~.
func HeaderName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// HeaderValue reports whether s holds no control characters (so no line
// breaks that would split the header).
func HeaderValue(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
