package rules

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
	for _, part := range [...]struct {
		scope Scope
		list  *List
	}{{ScopeGlobal, s.global}, {ScopeService, s.own}} {
		for i := range part.list.rules {
			var why string
			src := part.list.src[i]
			st := Step{Scope: part.scope, Index: i, Action: src.Action, Note: src.Note}
			c := &part.list.rules[i]
			matched := s.matches(c, r, &why)
			if matched && c.identity {
				if r.Identity == nil {
					st.Matched, st.Reason = true, "every other condition matches, and the rule's identity conditions need a signed-in person"
					ex.Steps = append(ex.Steps, st)
					ex.Decision = Decision{Action: Authenticate, Scope: part.scope, Index: i, NeedsIdentity: true}
					ex.Reason = fmt.Sprintf("%s rule %d (%s) names people or groups and the request has no person, so it must sign in as a person first: %s",
						part.scope, i+1, src.Action, describe(src))
					ex.Path = *r.Path()
					return ex
				}
				if why = c.identityFails(r.Identity); why != "" {
					matched = false
				}
			}
			if matched {
				st.Matched, st.Reason = true, "every condition matches: "+describe(src)
				ex.Steps = append(ex.Steps, st)
				ex.Decision = Decision{Action: src.Action, Scope: part.scope, Index: i}
				ex.Reason = fmt.Sprintf("%s rule %d (%s) matched: %s", part.scope, i+1, src.Action, describe(src))
				ex.Path = *r.Path()
				return ex
			}
			st.Reason = why
			ex.Steps = append(ex.Steps, st)
		}
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
	if len(r.People) > 0 {
		parts = append(parts, "person "+strings.Join(r.People, " or "))
	}
	if len(r.Groups) > 0 {
		parts = append(parts, "in group "+strings.Join(r.Groups, " or "))
	}
	if r.SecondFactor {
		parts = append(parts, "signed in with a second factor")
	}
	if len(parts) == 0 {
		return "no conditions (matches every request)"
	}
	return strings.Join(parts, ", ")
}
