package accessrule

import (
	"fmt"
	"strings"
)

// Step is one rule as the tester saw it.
type Step struct {
	Scope   Scope  `json:"-"`
	Index   int    `json:"index"`
	Action  Action `json:"action"`
	Note    string `json:"note,omitempty"`
	Matched bool   `json:"matched"`
	Reason  string `json:"reason"`
}

// Explanation is Decide with its reasons, for the rule tester.
type Explanation struct {
	Decision Decision
	Path     Path
	Steps    []Step // every rule up to and including the one that decided
	Reason   string // one sentence
}

// Explain evaluates like Decide and says why each rule did or did not match.
func (s *Set) Explain(r *Request) Explanation {
	ex := Explanation{Decision: Decision{Action: s.def, Scope: ScopeDefault, Index: -1}}
	for i := range s.rules {
		var why string
		d := s.decision(i)
		st := Step{Scope: d.Scope, Index: d.Index, Action: d.Action, Note: s.sources[i].Note}
		if s.matches(&s.rules[i], r, &why) {
			st.Matched, st.Reason = true, "every condition matches: "+describe(s.sources[i])
			ex.Steps = append(ex.Steps, st)
			ex.Decision = d
			ex.Reason = fmt.Sprintf("%s rule %d (%s) matched: %s", d.Scope, d.Index+1, d.Action, describe(s.sources[i]))
			ex.Path = *r.Path()
			return ex
		}
		st.Reason = why
		ex.Steps = append(ex.Steps, st)
	}
	ex.Path = *r.Path()
	ex.Reason = fmt.Sprintf("no rule matched, so the default action (%s) applies", s.def)
	return ex
}

// describe renders a rule's conditions as a short phrase.
func describe(r Rule) string {
	var parts []string
	if len(r.Paths) > 0 {
		var ps []string
		for _, p := range r.Paths {
			ps = append(ps, p.Type+" "+p.Value)
		}
		parts = append(parts, "path "+strings.Join(ps, " or "))
	}
	if len(r.Methods) > 0 {
		parts = append(parts, "method "+strings.Join(r.Methods, " or "))
	}
	if len(r.Sources) > 0 {
		parts = append(parts, "client address in "+strings.Join(r.Sources, ", "))
	}
	if len(r.Countries) > 0 {
		parts = append(parts, "country "+strings.Join(r.Countries, " or "))
	}
	for _, h := range r.Headers {
		switch h.Match {
		case HeaderEquals:
			parts = append(parts, "header "+h.Name+" equals "+h.Value)
		case HeaderContains:
			parts = append(parts, "header "+h.Name+" contains "+h.Value)
		default:
			parts = append(parts, "header "+h.Name+" present")
		}
	}
	if len(parts) == 0 {
		return "no conditions (matches every request)"
	}
	return strings.Join(parts, ", ")
}
