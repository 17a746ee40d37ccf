package traefikfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// A Gatehouse service matches (Host(h1) || Host(h2) ...) AND, for each kind
// of extra rule it has, (rule1 || rule2 ...) of that kind (dynconf's
// buildRule). A Traefik rule comes over when it has exactly that shape:
// one conjunct of Host matchers, and at most one conjunct per other kind,
// each an OR of matchers of that kind. Anything else (negation, regular
// expressions, ORs across kinds, two && conditions of the same kind) has
// no Gatehouse equivalent.

// ruleTypeOf maps the matchers Gatehouse can express to its rule types.
var ruleTypeOf = map[string]string{
	"PathPrefix": "pathPrefix", "Path": "path", "Header": "header",
	"Query": "query", "Method": "method", "ClientIP": "clientIP",
}

var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"}

// Gatehouse's limits on one service (services.Request.normalize).
const (
	maxHosts = 50
	maxRules = 50
)

// represent turns a parsed rule into host names and extra rules, or says
// why Gatehouse cannot express it.
func represent(e *expr) (hosts []string, rules []store.Rule, err error) {
	var conj []*expr
	flatten(e, opAnd, &conj)
	seenKind := map[string]bool{}
	for _, c := range conj {
		var alts []*expr
		flatten(c, opOr, &alts)
		kind := ""
		for _, a := range alts {
			k, err := kindOf(a)
			if err != nil {
				return nil, nil, err
			}
			if kind != "" && k != kind {
				return nil, nil, fmt.Errorf("%s and %s are joined with ||; Gatehouse joins conditions of different kinds with && only", kind, k)
			}
			kind = k
		}
		if seenKind[kind] {
			return nil, nil, fmt.Errorf("two separate %s conditions are joined with &&; Gatehouse joins conditions of the same kind with ||", kind)
		}
		seenKind[kind] = true
		for _, a := range alts {
			if kind == "Host" {
				h, err := hostOf(a.args[0])
				if err != nil {
					return nil, nil, err
				}
				if !slices.Contains(hosts, h) {
					hosts = append(hosts, h)
				}
				continue
			}
			r, err := ruleOf(a)
			if err != nil {
				return nil, nil, err
			}
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	if len(hosts) == 0 {
		return nil, nil, fmt.Errorf("the rule has no Host matcher, so it matches every host name; a Gatehouse service is reached by its host names")
	}
	if len(hosts) > maxHosts || len(rules) > maxRules {
		return nil, nil, fmt.Errorf("more than %d host names or %d extra conditions", maxHosts, maxRules)
	}
	return hosts, rules, nil
}

// flatten collects the operands of a chain of op (a && b && c).
func flatten(e *expr, op int, out *[]*expr) {
	if e.op == op {
		flatten(e.l, op, out)
		flatten(e.r, op, out)
		return
	}
	*out = append(*out, e)
}

// kindOf is the matcher name of a representable leaf.
func kindOf(e *expr) (string, error) {
	switch e.op {
	case opNot:
		return "", fmt.Errorf("the rule negates a condition (!); Gatehouse rules cannot")
	case opAnd:
		return "", fmt.Errorf("the rule nests && inside ||; Gatehouse can only join kinds of conditions with && at the top")
	case opMatch:
	default:
		return "", fmt.Errorf("unexpected rule structure")
	}
	switch e.name {
	case "HostRegexp", "PathRegexp", "HeaderRegexp", "QueryRegexp":
		if e.name == "QueryRegexp" && len(e.args) == 1 {
			return "Query", nil
		}
		return "", fmt.Errorf("%s uses a regular expression; Gatehouse matches exact values only", e.name)
	case "Host":
		return e.name, nil
	}
	if _, ok := ruleTypeOf[e.name]; ok {
		return e.name, nil
	}
	return "", fmt.Errorf("matcher %s has no Gatehouse equivalent", e.name)
}

// hostOf checks one Host value as a Gatehouse host name.
func hostOf(v string) (string, error) {
	if v != strings.TrimSpace(v) {
		return "", fmt.Errorf("Host(%q) has surrounding spaces, so Traefik never matches it", v)
	}
	h := validate.NormalizeHostname(v)
	if strings.HasPrefix(h, "*.") || strings.HasPrefix(h, "**.") {
		return "", fmt.Errorf("Host(%q) is a wildcard; Gatehouse service host names are exact", v)
	}
	if err := validate.Hostname(h, false); err != nil {
		return "", fmt.Errorf("Host(%q): %w", v, err)
	}
	return h, nil
}

// ruleOf turns one extra matcher into a Gatehouse rule, holding its values
// to the same limits the services API applies.
func ruleOf(e *expr) (store.Rule, error) {
	t := ruleTypeOf[e.name]
	if e.name == "QueryRegexp" {
		t = "query"
	}
	v := e.args[0]
	bad := func(what string) (store.Rule, error) {
		return store.Rule{}, fmt.Errorf("%s: %s", e, what)
	}
	for _, a := range e.args {
		if a != strings.TrimSpace(a) {
			return bad("Gatehouse trims surrounding spaces from condition values, which would change what matches")
		}
	}
	switch t {
	case "pathPrefix", "path":
		if !isPath(v) || len(v) > 1024 {
			return bad("Gatehouse paths use URL path characters only (at most 1024)")
		}
		return store.Rule{Type: t, Value: v}, nil
	case "method":
		m := strings.ToUpper(v)
		if !slices.Contains(httpMethods, m) {
			return bad("Gatehouse knows the standard HTTP methods only")
		}
		return store.Rule{Type: t, Value: m}, nil
	case "clientIP":
		return store.Rule{Type: t, Value: v}, nil
	case "header":
		if !validate.HeaderName(v) || !isRuleText(e.args[1]) || len(e.args[1]) > 1024 {
			return bad("Gatehouse header conditions need a valid header name and a value without quotes, backticks or control characters")
		}
		return store.Rule{Type: t, Name: v, Value: e.args[1]}, nil
	default: // query
		val := ""
		if len(e.args) == 2 {
			val = e.args[1]
		}
		if v == "" || !isRuleText(v) || strings.Contains(v, " ") || !isRuleText(val) || len(val) > 1024 {
			return bad("Gatehouse query conditions need a name without spaces, and a name and value without quotes, backticks or control characters")
		}
		return store.Rule{Type: t, Name: v, Value: val}, nil
	}
}

// isPath is a path the services API accepts in a rule.
func isPath(s string) bool { return strings.HasPrefix(s, "/") && services.ValidRulePath(s) }

// isRuleText is a value the services API accepts in a rule.
func isRuleText(s string) bool { return services.ValidRuleText(s) }
