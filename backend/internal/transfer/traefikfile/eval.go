package traefikfile

import (
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// request is what a rule looks at, for evaluating rules in tests: the
// import must keep every router's meaning, and the way to show it is to ask
// both rules the same questions.
type request struct {
	Host     string // without the port
	Path     string
	Method   string
	Header   http.Header
	Query    url.Values
	ClientIP netip.Addr
}

// match evaluates e on r with the semantics of Traefik v3's HTTP matchers
// (pkg/muxer/http): Host compares case-insensitively and ignores one
// trailing dot, Path is exact, PathPrefix a plain string prefix, Header
// compares a canonical header's values (an empty value asks only for the
// header's presence), Query asks for a parameter holding the value.
func (e *expr) match(r request) bool {
	switch e.op {
	case opAnd:
		return e.l.match(r) && e.r.match(r)
	case opOr:
		return e.l.match(r) || e.r.match(r)
	case opNot:
		return !e.l.match(r)
	}
	a := e.args
	switch e.name {
	case "Host":
		h, want := strings.ToLower(r.Host), strings.ToLower(a[0])
		return h == want || strings.TrimSuffix(h, ".") == strings.TrimSuffix(want, ".")
	case "HostRegexp":
		return regexp.MustCompile(a[0]).MatchString(r.Host)
	case "Path":
		return r.Path == a[0]
	case "PathPrefix":
		return strings.HasPrefix(r.Path, a[0])
	case "PathRegexp":
		return regexp.MustCompile(a[0]).MatchString(r.Path)
	case "Method":
		return strings.EqualFold(r.Method, a[0])
	case "Header":
		vs, ok := r.Header[http.CanonicalHeaderKey(a[0])]
		return ok && (a[1] == "" || slices.Contains(vs, a[1]))
	case "HeaderRegexp":
		re := regexp.MustCompile(a[1])
		return slices.ContainsFunc(r.Header[http.CanonicalHeaderKey(a[0])], re.MatchString)
	case "Query", "QueryRegexp":
		vs, ok := r.Query[a[0]]
		if !ok {
			return false
		}
		if len(a) == 1 {
			return slices.Contains(vs, "")
		}
		if e.name == "Query" {
			return slices.Contains(vs, a[1])
		}
		return slices.ContainsFunc(vs, regexp.MustCompile(a[1]).MatchString)
	case "ClientIP":
		p, err := parseIPOrCIDR(a[0])
		return err == nil && r.ClientIP.IsValid() && p.Contains(r.ClientIP.Unmap())
	}
	return false
}
