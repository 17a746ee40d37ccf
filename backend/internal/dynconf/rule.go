package dynconf

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Rule types, as stored on services.
const (
	rulePathPrefix = "pathPrefix"
	rulePath       = "path"
	ruleHeader     = "header"
	ruleQuery      = "query"
	ruleMethod     = "method"
	ruleClientIP   = "clientIP"
)

// ruleOrder fixes the order in which rule groups are AND-ed together.
var ruleOrder = []string{rulePathPrefix, rulePath, ruleHeader, ruleQuery, ruleMethod, ruleClientIP}

var matcherOf = map[string]string{
	rulePathPrefix: "PathPrefix", rulePath: "Path", ruleHeader: "Header",
	ruleQuery: "Query", ruleMethod: "Method", ruleClientIP: "ClientIP",
}

var httpMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true,
	"DELETE": true, "OPTIONS": true, "CONNECT": true, "TRACE": true,
}

// quote wraps v in backticks. Traefik's rule values are Go string literals:
// inside a raw (backtick) literal nothing is special except the backtick
// itself, so a value without backticks and control characters cannot escape.
// API validation already guarantees this; the builder checks again because
// it is the last line of defence.
func quote(v string) (string, error) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '`' || c < 0x20 || c == 0x7f {
			return "", fmt.Errorf("value %q contains a backtick or a control character", v)
		}
	}
	return "`" + v + "`", nil
}

// matcher renders Name(`a`, `b`, ...).
func matcher(name string, args ...string) (string, error) {
	q := make([]string, len(args))
	for i, a := range args {
		var err error
		if q[i], err = quote(a); err != nil {
			return "", err
		}
	}
	return name + "(" + strings.Join(q, ", ") + ")", nil
}

// orGroup joins alternatives with ||, in parentheses when there are several.
func orGroup(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " || ") + ")"
}

// hostRule is Host(`a`) or (Host(`a`) || Host(`b`)).
func hostRule(hosts []string) (string, error) {
	parts := make([]string, 0, len(hosts))
	for _, h := range hosts {
		if err := validate.Hostname(h, false); err != nil {
			return "", fmt.Errorf("host %q: %w", h, err)
		}
		m, err := matcher("Host", h)
		if err != nil {
			return "", err
		}
		parts = append(parts, m)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("no host names")
	}
	return orGroup(parts), nil
}

// buildRule combines the host match with the extra rules: rules of the same
// type are OR-ed, groups of different types AND-ed with the host match.
func buildRule(hosts []string, rules []store.Rule) (string, error) {
	hr, err := hostRule(hosts)
	if err != nil {
		return "", err
	}
	if len(rules) == 0 {
		return hr, nil
	}
	ms := make([]string, len(rules))
	for i, r := range rules {
		var err error
		if ms[i], err = ruleMatcher(r); err != nil {
			return "", fmt.Errorf("rules[%d]: %w", i, err)
		}
	}
	out := []string{hr}
	var g []string
	for _, t := range ruleOrder {
		g = g[:0]
		for i, r := range rules {
			if r.Type == t {
				g = append(g, ms[i])
			}
		}
		if len(g) > 0 {
			out = append(out, orGroup(g))
		}
	}
	return strings.Join(out, " && "), nil
}

func ruleMatcher(r store.Rule) (string, error) {
	name, ok := matcherOf[r.Type]
	if !ok {
		return "", fmt.Errorf("unknown rule type %q", r.Type)
	}
	switch r.Type {
	case rulePathPrefix, rulePath:
		if !strings.HasPrefix(r.Value, "/") || !plainText(r.Value) || strings.ContainsAny(r.Value, " ?#") {
			return "", fmt.Errorf("invalid path %q", r.Value)
		}
		return matcher(name, r.Value)
	case ruleHeader, ruleQuery:
		if r.Name == "" || !plainText(r.Name) || strings.Contains(r.Name, " ") || !plainText(r.Value) {
			return "", fmt.Errorf("invalid %s %q=%q", r.Type, r.Name, r.Value)
		}
		return matcher(name, r.Name, r.Value)
	case ruleMethod:
		if !httpMethods[r.Value] {
			return "", fmt.Errorf("invalid method %q", r.Value)
		}
		return matcher(name, r.Value)
	default: // clientIP
		if _, err := netip.ParsePrefix(r.Value); err != nil {
			if _, err := netip.ParseAddr(r.Value); err != nil {
				return "", fmt.Errorf("invalid IP or CIDR %q", r.Value)
			}
		}
		return matcher(name, r.Value)
	}
}

// plainText is printable ASCII without quotes, backticks or backslashes: the
// same restriction the services API applies to rule values.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '`' || c == '"' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}
