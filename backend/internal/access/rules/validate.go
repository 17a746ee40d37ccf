package rules

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Options say what the running panel can evaluate.
type Options struct {
	// GeoIP is set when a country database is loaded; without one, country
	// conditions are refused.
	GeoIP bool
	// Directory, when set, is asked whether the people and groups that
	// identity conditions name exist; a rule naming an unknown one is
	// refused. Without it names are only checked for shape (an import
	// that brings its groups along).
	Directory Directory
}

// Directory answers whether people and groups exist, by name, for
// identity conditions. Names compare without regard to case.
type Directory interface {
	HasPerson(username string) bool
	HasGroup(name string) bool
}

// MaxName bounds a username or group name in an identity condition.
const MaxName = 64

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$`)

// Normalize trims and canonicalises rules in place (upper-case methods and
// countries, canonical CIDRs) and records every problem in c under field
// (e.g. "rules"), with JSON paths such as "rules[2].paths[0].value".
func Normalize(rules []Rule, field string, o Options, c *apperr.Collector) {
	if len(rules) > MaxRules {
		c.Add(field, "must have at most %d rules", MaxRules)
	}
	for i := range rules {
		normalizeRule(&rules[i], fmt.Sprintf("%s[%d]", field, i), o, c)
	}
}

// ValidAction reports whether a is one of the actions.
func ValidAction(a Action) bool { return a == Allow || a == Deny || a == Authenticate }

func normalizeRule(r *Rule, f string, o Options, c *apperr.Collector) {
	r.Action = Action(strings.ToLower(strings.TrimSpace(string(r.Action))))
	if !ValidAction(r.Action) {
		c.Add(f+".action", "must be one of: allow, deny, authenticate")
	}
	r.Note = strings.TrimSpace(r.Note)
	if utf8.RuneCountInString(r.Note) > MaxNote || !printable(r.Note) {
		c.Add(f+".note", "must be at most %d printable characters", MaxNote)
	}
	for kind, n := range map[string]int{"paths": len(r.Paths), "methods": len(r.Methods), "sources": len(r.Sources),
		"countries": len(r.Countries), "headers": len(r.Headers), "people": len(r.People), "groups": len(r.Groups)} {
		if n > MaxConditions {
			c.Add(f+"."+kind, "must have at most %d items", MaxConditions)
		}
	}
	for i := range r.Paths {
		NormalizePath(&r.Paths[i], fmt.Sprintf("%s.paths[%d]", f, i), c)
	}
	for i, m := range r.Methods {
		m = strings.ToUpper(strings.TrimSpace(m))
		r.Methods[i] = m
		if !ValidMethod(m) {
			c.Add(fmt.Sprintf("%s.methods[%d]", f, i), "must be an HTTP method such as GET or PROPFIND")
		}
	}
	r.Methods = dedupe(r.Methods)
	for i, s := range r.Sources {
		s = strings.ToLower(strings.TrimSpace(s))
		p, err := parseSource(s)
		if err != nil {
			c.Add(fmt.Sprintf("%s.sources[%d]", f, i), "must be an IP address, a CIDR such as 192.168.1.0/24, %q or %q", SourcePrivate, SourceLoopback)
			continue
		}
		if _, short := shortcuts[s]; !short {
			s = p[0].String()
			if p[0].IsSingleIP() {
				s = p[0].Addr().String()
			}
		}
		r.Sources[i] = s
	}
	r.Sources = dedupe(r.Sources)
	for i, cc := range r.Countries {
		cc = strings.ToUpper(strings.TrimSpace(cc))
		r.Countries[i] = cc
		if !IsCountry(cc) {
			c.Add(fmt.Sprintf("%s.countries[%d]", f, i), "must be an ISO 3166-1 alpha-2 country code such as DE or US")
		}
	}
	r.Countries = dedupe(r.Countries)
	if len(r.Countries) > 0 && !o.GeoIP {
		c.Add(f+".countries", "country rules need a country database: set PANEL_GEOIP_DB to a MaxMind-format (.mmdb) file")
	}
	for i := range r.Headers {
		normalizeHeader(&r.Headers[i], fmt.Sprintf("%s.headers[%d]", f, i), c)
	}
	r.People = normalizeNames(r.People, f+".people", "person", o.Directory, c)
	r.Groups = normalizeNames(r.Groups, f+".groups", "group", o.Directory, c)
}

// normalizeNames trims and checks the names of an identity condition, and
// that each exists in d when d is set.
func normalizeNames(names []string, f, kind string, d Directory, c *apperr.Collector) []string {
	for i, n := range names {
		n = strings.TrimSpace(n)
		names[i] = n
		switch {
		case len(n) > MaxName || !nameRE.MatchString(n):
			c.Add(fmt.Sprintf("%s[%d]", f, i), "must be a %s name: 1-%d letters, digits, spaces or . _ @ -", kind, MaxName)
		case d != nil && kind == "person" && !d.HasPerson(n):
			c.Add(fmt.Sprintf("%s[%d]", f, i), "names no person: %q is not in the directory", n)
		case d != nil && kind == "group" && !d.HasGroup(n):
			c.Add(fmt.Sprintf("%s[%d]", f, i), "names no group: %q is not in the directory", n)
		}
	}
	return dedupeFold(names)
}

// dedupeFold drops names repeated without regard to case.
func dedupeFold(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := list[:0]
next:
	for _, s := range list {
		for _, o := range out {
			if strings.EqualFold(o, s) {
				continue next
			}
		}
		out = append(out, s)
	}
	return out
}

var cleanChars = regexp.MustCompile(`^/[A-Za-z0-9\-._~!$&'()*+,=:@/\x{80}-\x{10FFFF}]*$`)

// NormalizePath trims and checks one path condition (also a machine
// token's scope), recording problems under f (f.type, f.value).
func NormalizePath(p *PathMatch, f string, c *apperr.Collector) {
	p.Type = strings.TrimSpace(p.Type)
	p.Value = strings.TrimSpace(p.Value)
	v := p.Value
	switch p.Type {
	case PathExact, PathPrefix, PathGlob:
		switch {
		case v == "" || v[0] != '/':
			c.Add(f+".value", "must start with /")
		case len(v) > MaxPathValue:
			c.Add(f+".value", "must be at most %d characters", MaxPathValue)
		case !utf8.ValidString(v) || !cleanChars.MatchString(v):
			c.Add(f+".value", "may contain only path characters, written decoded (no %%, \\, ;, ?, # or spaces)")
		case p.Type != PathGlob && strings.Contains(v, "*"):
			c.Add(f+".value", "may contain * only in a glob")
		case !structurallyPlain(strings.ReplaceAll(v, "*", "x")):
			c.Add(f+".value", "must be a clean path: no //, . or .. segments")
		}
	case PathRegex:
		if v == "" || len(v) > MaxPathValue {
			c.Add(f+".value", "must be between 1 and %d characters", MaxPathValue)
		} else if _, err := regexp.Compile(v); err != nil {
			c.Add(f+".value", "is not a valid regular expression (RE2 syntax): %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	default:
		c.Add(f+".type", "must be one of: exact, prefix, glob, regex")
	}
}

func normalizeHeader(h *HeaderMatch, f string, c *apperr.Collector) {
	h.Name = strings.TrimSpace(h.Name)
	h.Match = strings.ToLower(strings.TrimSpace(h.Match))
	if h.Match == "" {
		h.Match = HeaderPresent
	}
	if len(h.Name) > 100 || !validate.HeaderName(h.Name) {
		c.Add(f+".name", "must be a header name (letters, digits and -, at most 100)")
	}
	switch h.Match {
	case HeaderPresent:
		h.Value = ""
	case HeaderEquals, HeaderContains:
		if h.Value == "" || len(h.Value) > MaxHeaderVal || !printable(h.Value) {
			c.Add(f+".value", "must be 1 to %d printable characters", MaxHeaderVal)
		}
	default:
		c.Add(f+".match", "must be one of: present, equals, contains")
	}
}

// ValidMethod reports an HTTP method token (GET, PROPFIND, ...), upper case.
func ValidMethod(m string) bool {
	return len(m) <= 20 && validate.HeaderName(m) && strings.ToUpper(m) == m
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func dedupe(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := list[:0]
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
