package forwardauth

import (
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// landingPath decides where a shared link lands. Without a path of its own
// it is the service's first path or path-prefix routing rule, so a link to
// a path-routed service reaches it instead of Traefik's 404. A path the
// service's routers would not match is refused; routing rules a browser
// following a link cannot satisfy (headers, methods, query, client
// addresses) are warned about.
func landingPath(rules []store.Rule, asked string) (string, []string, error) {
	var prefixes, exact []string
	var warnings []string
	for _, r := range rules {
		switch r.Type {
		case services.RulePathPrefix:
			prefixes = append(prefixes, r.Value)
		case services.RulePath:
			exact = append(exact, r.Value)
		case services.RuleHeader:
			warnings = append(warnings, "the service is only routed when the request has header "+r.Name+": "+r.Value+", which a browser following the link will not send")
		case services.RuleMethod:
			warnings = append(warnings, "the service is only routed for "+r.Value+" requests: opening a link is a GET and its button a POST")
		case services.RuleQuery:
			warnings = append(warnings, "the service is only routed when the query has "+r.Name+"="+r.Value+", which the link does not carry")
		case services.RuleClientIP:
			warnings = append(warnings, "the service is only routed for clients from "+r.Value+": the link works only from there")
		}
	}
	p := strings.TrimSpace(asked)
	if p == "" {
		switch {
		case len(prefixes) > 0:
			p = prefixes[0]
		case len(exact) > 0:
			p = exact[0]
		default:
			p = "/"
		}
		return p, warnings, nil
	}
	if p[0] != '/' || strings.ContainsAny(p, "?#\\") || strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", nil, apperr.Field("path", "must be a path starting with / without spaces, ? or #")
	}
	if len(prefixes)+len(exact) > 0 && !routed(p, prefixes, exact) {
		return "", nil, apperr.Field("path", "the service is not routed at %s: use one of its paths (%s)", p, strings.Join(append(exact, prefixes...), ", "))
	}
	return p, warnings, nil
}

// routed reports whether Traefik's PathPrefix or Path matchers of the
// service would take p (PathPrefix is a plain string prefix in Traefik).
func routed(p string, prefixes, exact []string) bool {
	for _, x := range exact {
		if p == x {
			return true
		}
	}
	for _, x := range prefixes {
		if strings.HasPrefix(p, x) {
			return true
		}
	}
	return false
}
