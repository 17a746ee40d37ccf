// This file checks the target URL of a redirect service and
// renders it as the regex and replacement of Traefik's redirectRegex
// middleware, so the services feature (which validates) and dynconf (which
// emits) agree on one definition.

package validate

import (
	"errors"
	"net/url"
	"strings"
)

// MaxRedirectURLLen bounds a target URL.
const MaxRedirectURLLen = 2048

// Traefik matches the regex against the request's full URL
// (scheme://host[:port]/path?query). keepRegex captures the path and query;
// anyRegex matches every request.
const (
	keepRegex = `^[a-z][a-z0-9+.-]*://[^/]+(.*)$`
	anyRegex  = `^.*$`
)

// RedirectURL returns why raw is not an acceptable target: an absolute http or
// https URL with a valid host, no credentials, and only the characters
// RFC 3986 allows; with keepPath, no query or fragment (the request's own
// path and query are appended).
func RedirectURL(raw string, keepPath bool) error {
	if raw == "" {
		return errors.New("is required")
	}
	if len(raw) > MaxRedirectURLLen {
		return errors.New("must be at most 2048 characters")
	}
	for i := 0; i < len(raw); i++ {
		if !urlChar(raw[i]) {
			return errors.New("must use URL characters only (percent-encode spaces, quotes and non-ASCII text)")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("must be a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("must start with http:// or https://")
	}
	if u.User != nil {
		return errors.New("must not contain a user name or password")
	}
	if u.Opaque != "" || u.Host == "" {
		return errors.New("must name a host, as in https://example.com/")
	}
	if err := TargetHost(u.Hostname()); err != nil {
		return errors.New("must name a valid host")
	}
	if p := u.Port(); p != "" && (len(p) > 5 || p == "0") {
		return errors.New("must have a port between 1 and 65535")
	}
	if keepPath && (u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.ContainsAny(raw, "?#")) {
		return errors.New("must not have a query or fragment when the request's path and query are kept")
	}
	return nil
}

// urlChar: unreserved, reserved (gen-delims and sub-delims) and '%'.
func urlChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("-._~:/?#[]@!$&'()*+,;=%", c) >= 0
}

// RedirectRegex is the redirectRegex regex for a target.
func RedirectRegex(keepPath bool) string {
	if keepPath {
		return keepRegex
	}
	return anyRegex
}

// RedirectReplacement is the redirectRegex replacement for a checked target: the
// URL with '$' doubled (Go's regexp expands "$name"), followed with keepPath
// by the captured path and query (the URL's own trailing slash dropped, as
// every request path starts with one).
func RedirectReplacement(target string, keepPath bool) string {
	r := strings.ReplaceAll(target, "$", "$$")
	if keepPath {
		return strings.TrimSuffix(r, "/") + "${1}"
	}
	return r
}
