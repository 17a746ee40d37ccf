package traefikfile

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Traefik v3 reads a router's rule as a Go expression (vulcand/predicate on
// go/parser): matcher calls with Go string literals as arguments, joined by
// &&, || and !, with parentheses. This file parses that language and checks
// each matcher as Traefik's HTTP muxer does, so a rule Traefik refuses is
// reported as such rather than imported.

// Limits keep hostile rules cheap: Traefik has none, but no real rule comes
// near them.
const (
	maxRuleLen   = 16 << 10
	maxRuleDepth = 64
)

// Expression node kinds.
const (
	opMatch = iota
	opAnd
	opOr
	opNot
)

// expr is one node of a parsed rule.
type expr struct {
	op   int
	name string   // opMatch: the matcher's canonical name (Host, PathPrefix, ...)
	args []string // opMatch: the unquoted arguments
	l, r *expr    // opAnd, opOr: both; opNot: l
}

// matcherArity lists Traefik v3's HTTP matchers and how many values each takes.
var matcherArity = map[string][]int{
	"ClientIP": {1}, "Method": {1}, "Host": {1}, "HostRegexp": {1},
	"Path": {1}, "PathRegexp": {1}, "PathPrefix": {1},
	"Header": {2}, "HeaderRegexp": {2}, "Query": {1, 2}, "QueryRegexp": {1, 2},
}

// matcherNames maps every spelling Traefik accepts (as written, lower case,
// upper case, and capitalised lower case such as "Pathprefix") to the name.
var matcherNames = func() map[string]string {
	m := map[string]string{}
	for n := range matcherArity {
		low := strings.ToLower(n)
		for _, s := range []string{n, low, strings.ToUpper(n), strings.ToUpper(low[:1]) + low[1:]} {
			m[s] = n
		}
	}
	return m
}()

// parseRule parses a Traefik v3 HTTP rule and checks its matchers as
// Traefik does; the error says why Traefik would refuse the rule.
func parseRule(rule string) (*expr, error) {
	if len(rule) > maxRuleLen {
		return nil, fmt.Errorf("the rule is longer than %d bytes", maxRuleLen)
	}
	if strings.TrimSpace(rule) == "" {
		return nil, fmt.Errorf("the rule is empty")
	}
	p := &ruleParser{src: rule}
	if err := p.lex(); err != nil {
		return nil, err
	}
	e, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("unexpected %s after the end of the rule", p.toks[p.pos])
	}
	return e, nil
}

func (p *ruleParser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

func (p *ruleParser) accept(kind byte) bool {
	if t, ok := p.peek(); ok && t.kind == kind {
		p.pos++
		return true
	}
	return false
}

func (p *ruleParser) or(depth int) (*expr, error) {
	l, err := p.and(depth)
	if err != nil {
		return nil, err
	}
	for p.accept('|') {
		r, err := p.and(depth)
		if err != nil {
			return nil, err
		}
		l = &expr{op: opOr, l: l, r: r}
	}
	return l, nil
}

func (p *ruleParser) and(depth int) (*expr, error) {
	l, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for p.accept('&') {
		r, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		l = &expr{op: opAnd, l: l, r: r}
	}
	return l, nil
}

func (p *ruleParser) unary(depth int) (*expr, error) {
	if depth > maxRuleDepth {
		return nil, fmt.Errorf("the rule nests deeper than %d levels", maxRuleDepth)
	}
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("the rule ends where a matcher is expected")
	}
	switch t.kind {
	case '!':
		p.pos++
		e, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &expr{op: opNot, l: e}, nil
	case '(':
		p.pos++
		e, err := p.or(depth + 1)
		if err != nil {
			return nil, err
		}
		if !p.accept(')') {
			return nil, fmt.Errorf("missing ) for the ( at offset %d", t.at)
		}
		return e, nil
	case 'i':
		p.pos++
		return p.call(t)
	}
	return nil, fmt.Errorf("unexpected %s where a matcher is expected", t)
}

// call parses Name(`a`, "b") after its name and checks it.
func (p *ruleParser) call(name token) (*expr, error) {
	canon, ok := matcherNames[name.text]
	if !ok {
		return nil, fmt.Errorf("unknown matcher %q at offset %d", name.text, name.at)
	}
	if !p.accept('(') {
		return nil, fmt.Errorf("missing ( after %s at offset %d", name.text, name.at)
	}
	var args []string
	for !p.accept(')') {
		t, ok := p.peek()
		if !ok {
			return nil, fmt.Errorf("missing ) for %s at offset %d", name.text, name.at)
		}
		if t.kind != 's' {
			return nil, fmt.Errorf("unexpected %s in the values of %s", t, name.text)
		}
		p.pos++
		args = append(args, t.text)
		if !p.accept(',') {
			if !p.accept(')') {
				return nil, fmt.Errorf("missing ) for %s at offset %d", name.text, name.at)
			}
			break
		}
	}
	e := &expr{op: opMatch, name: canon, args: args}
	if err := checkMatcher(e); err != nil {
		return nil, err
	}
	return e, nil
}

// checkMatcher applies Traefik's own checks of a matcher's values.
func checkMatcher(e *expr) error {
	want := matcherArity[e.name]
	okN := false
	for _, n := range want {
		okN = okN || n == len(e.args)
	}
	if !okN {
		if e.name == "Host" && len(e.args) > 1 {
			return fmt.Errorf("the Host matcher takes one value in Traefik v3 (got %d, as v2 allowed): write Host(`a`) || Host(`b`)", len(e.args))
		}
		return fmt.Errorf("%s takes %s value(s), got %d", e.name, arityText(want), len(e.args))
	}
	v := e.args[0]
	switch e.name {
	case "Host", "HostRegexp":
		for i := 0; i < len(v); i++ {
			if v[i] >= utf8.RuneSelf {
				return fmt.Errorf("%s(%q): Traefik refuses non-ASCII characters", e.name, v)
			}
		}
	case "Path", "PathPrefix":
		if !strings.HasPrefix(v, "/") {
			return fmt.Errorf("%s(%q): the path does not start with a '/'", e.name, v)
		}
	case "ClientIP":
		if _, err := parseIPOrCIDR(v); err != nil {
			return fmt.Errorf("ClientIP(%q): %w", v, err)
		}
	}
	if re := regexpArg(e); re != "" {
		if _, err := regexp.Compile(re); err != nil {
			return fmt.Errorf("%s: invalid regular expression: %w", e.name, err)
		}
	}
	return nil
}

// regexpArg is the regular expression a matcher takes, if any.
func regexpArg(e *expr) string {
	switch e.name {
	case "HostRegexp", "PathRegexp":
		return e.args[0]
	case "HeaderRegexp", "QueryRegexp":
		if len(e.args) == 2 {
			return e.args[1]
		}
	}
	return ""
}

func arityText(n []int) string {
	if len(n) == 2 {
		return "1 or 2"
	}
	return strconv.Itoa(n[0])
}

// parseIPOrCIDR accepts an address or a CIDR range, as Traefik's IP checker does.
func parseIPOrCIDR(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("not an IP address or CIDR range")
	}
	return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
}

// String renders the expression back as a rule (for messages and tests).
func (e *expr) String() string {
	switch e.op {
	case opAnd:
		return "(" + e.l.String() + " && " + e.r.String() + ")"
	case opOr:
		return "(" + e.l.String() + " || " + e.r.String() + ")"
	case opNot:
		return "!" + e.l.String()
	}
	q := make([]string, len(e.args))
	for i, a := range e.args {
		q[i] = strconv.Quote(a)
	}
	return e.name + "(" + strings.Join(q, ", ") + ")"
}
