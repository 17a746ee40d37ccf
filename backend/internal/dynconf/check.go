package dynconf

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// CheckConfig verifies a built configuration: every rule parses under a
// strict grammar for the subset of Traefik's rule language the builder emits
// and is anchored on a Host match, and every router references an existing
// service and every gh- middleware it lists. Tests and the fuzz target use it.
func CheckConfig(cfg Config) error {
	h := cfg.Section()
	for _, name := range slices.Sorted(maps.Keys(h.Routers)) {
		r := h.Routers[name]
		if !strings.HasPrefix(name, Prefix) {
			return fmt.Errorf("router %q lacks the %s prefix", name, Prefix)
		}
		if err := CheckRule(r.Rule); err != nil {
			return fmt.Errorf("router %s: rule %q: %w", name, r.Rule, err)
		}
		if _, ok := h.Services[r.Service]; !ok && r.Service != NoopService {
			return fmt.Errorf("router %s: service %q does not exist", name, r.Service)
		}
		for _, m := range r.Middlewares {
			if _, ok := h.Middlewares[m]; strings.HasPrefix(m, Prefix) && !ok {
				return fmt.Errorf("router %s: middleware %q does not exist", name, m)
			}
		}
		if len(r.EntryPoints) == 0 {
			return fmt.Errorf("router %s: no entrypoints", name)
		}
	}
	for name, s := range h.Services {
		if s.LoadBalancer == nil || len(s.LoadBalancer.Servers) == 0 {
			return fmt.Errorf("service %s: no servers", name)
		}
		if t := s.LoadBalancer.ServersTransport; t != "" {
			if _, ok := h.ServersTransports[t]; !ok {
				return fmt.Errorf("service %s: servers transport %q does not exist", name, t)
			}
		}
	}
	return checkStream(cfg)
}

// arity of each matcher the builder may emit.
var arity = map[string]int{"Host": 1, "PathPrefix": 1, "Path": 1, "Header": 2, "Query": 2, "Method": 1, "ClientIP": 1}

// CheckRule parses rule with a strict tokenizer and grammar:
//
//	expr    = and { " || " and }
//	and     = factor { " && " factor }
//	factor  = "(" expr ")" | matcher
//	matcher = Name "(" arg { ", " arg } ")"
//	arg     = "`" { any byte except "`" and control characters } "`"
//
// It also requires the first conjunct to consist of Host matchers only, so
// no rule can match every host.
func CheckRule(rule string) error {
	p := &ruleParser{s: rule}
	first, err := p.and()
	if err != nil {
		return err
	}
	if p.i != len(p.s) {
		return fmt.Errorf("unexpected %q at %d", p.rest(), p.i)
	}
	if !first {
		return fmt.Errorf("the rule is not anchored on Host matchers")
	}
	return nil
}

type ruleParser struct {
	s string
	i int
}

func (p *ruleParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20]
	}
	return r
}

func (p *ruleParser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

// and parses the top level (only && at the top: a top-level || would let
// one alternative skip the host match) and reports whether its first factor
// is hosts-only.
func (p *ruleParser) and() (bool, error) {
	hostsOnly, err := p.factor()
	if err != nil {
		return false, err
	}
	for p.eat(" && ") {
		if _, err := p.factor(); err != nil {
			return false, err
		}
	}
	return hostsOnly, nil
}

func (p *ruleParser) expr() (bool, error) {
	all := true
	for {
		hostsOnly, err := p.factor()
		if err != nil {
			return false, err
		}
		all = all && hostsOnly
		for p.eat(" && ") {
			if _, err := p.factor(); err != nil {
				return false, err
			}
			all = false
		}
		if !p.eat(" || ") {
			return all, nil
		}
	}
}

func (p *ruleParser) factor() (bool, error) {
	if p.eat("(") {
		hostsOnly, err := p.expr()
		if err != nil {
			return false, err
		}
		if !p.eat(")") {
			return false, fmt.Errorf("missing ) at %d", p.i)
		}
		return hostsOnly, nil
	}
	start := p.i
	for p.i < len(p.s) && (p.s[p.i] >= 'A' && p.s[p.i] <= 'Z' || p.s[p.i] >= 'a' && p.s[p.i] <= 'z') {
		p.i++
	}
	name := p.s[start:p.i]
	n, ok := arity[name]
	if !ok {
		return false, fmt.Errorf("unknown matcher %q at %d", name, start)
	}
	if !p.eat("(") {
		return false, fmt.Errorf("missing ( after %s", name)
	}
	for k := 0; k < n; k++ {
		if k > 0 && !p.eat(", ") {
			return false, fmt.Errorf("%s needs %d arguments", name, n)
		}
		if !p.eat("`") {
			return false, fmt.Errorf("argument of %s at %d is not backtick-quoted", name, p.i)
		}
		for p.i < len(p.s) && p.s[p.i] != '`' {
			if c := p.s[p.i]; c < 0x20 || c == 0x7f {
				return false, fmt.Errorf("control character in an argument of %s", name)
			}
			p.i++
		}
		if !p.eat("`") {
			return false, fmt.Errorf("unterminated argument of %s", name)
		}
	}
	if !p.eat(")") {
		return false, fmt.Errorf("missing ) after the arguments of %s", name)
	}
	return name == "Host", nil
}
