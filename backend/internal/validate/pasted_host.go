package validate

import (
	"errors"
	"strings"
)

// ErrHostnameNotAlone is a host name typed with a port, a path or
// credentials, which a domain or host name field does not take.
var ErrHostnameNotAlone = errors.New("enter the name alone, such as example.com (no port, path or user)")

// maxPasted bounds what PastedHostname looks at: a host name is at most
// 253 characters, a scheme and a slash add a few.
const maxPasted = 300

// PastedHostname turns what people paste into a host name field into the
// name: "https://Example.com/" and "http://example.com" become
// "example.com" (scheme and one trailing slash dropped, then
// NormalizeHostname). A port, path, query or credentials are refused with
// ErrHostnameNotAlone rather than dropped: the person meant something the
// field cannot hold. The result still goes through Hostname.
func PastedHostname(s string) (string, error) {
	if len(s) > maxPasted {
		return "", ErrHostnameTooLong
	}
	t := strings.TrimSpace(s)
	lower := strings.ToLower(t)
	for _, scheme := range [...]string{"https://", "http://"} {
		if strings.HasPrefix(lower, scheme) {
			t = t[len(scheme):]
			t = strings.TrimSuffix(t, "/")
			break
		}
	}
	if strings.ContainsAny(t, "/?#@") || strings.Contains(t, ":") {
		return "", ErrHostnameNotAlone
	}
	return NormalizeHostname(t), nil
}
