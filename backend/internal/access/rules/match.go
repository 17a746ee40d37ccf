package rules

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/textproto"
	"regexp"
	"strings"
)

// Geo answers the ISO 3166-1 country code of an address ("" when unknown).
type Geo interface {
	Country(addr netip.Addr) string
}

// Request is what rules are evaluated against. Fill Method, URI, Addr and
// Header; the zero Addr means the client's address is unknown. The path
// and country are worked out once, on first use.
type Request struct {
	Method string
	URI    string
	Addr   netip.Addr
	Header http.Header
	// Identity is the person the request comes from, when forward-auth
	// knows one (a "people" protection's session or app password); nil
	// for everyone else. Identity conditions never match nil.
	Identity *Identity

	path        Path
	pathDone    bool
	country     string
	countryDone bool
}

// Identity is who a request comes from, for identity conditions.
type Identity struct {
	PersonID string
	Username string
	// Groups are the names of the person's groups, sorted.
	Groups []string
	// SecondFactor says the person signed in with a second factor or a
	// passkey.
	SecondFactor bool
}

// Path returns the request's path as rules read it.
func (r *Request) Path() *Path {
	if !r.pathDone {
		r.path, r.pathDone = ParsePath(r.URI), true
	}
	return &r.path
}

// Scope says which list a matched rule belongs to.
type Scope uint8

// The scopes.
const (
	ScopeDefault Scope = iota // no rule matched: the default action
	ScopeGlobal
	ScopeService
)

func (s Scope) String() string {
	switch s {
	case ScopeGlobal:
		return "global"
	case ScopeService:
		return "service"
	}
	return "default"
}

// Decision is the outcome of evaluating a Set.
type Decision struct {
	Action Action
	Scope  Scope
	Index  int // position of the rule in its list; -1 for the default
	// NeedsIdentity says the deciding rule has identity conditions and the
	// request carried no person: Action is Authenticate, and only a
	// protection that names a person (a people session, an app password)
	// can satisfy it, after which the caller decides again with
	// Request.Identity set. Any other protection must refuse the request.
	NeedsIdentity bool
}

// List is a compiled rule list. Lists are immutable, so one compiled list
// of global rules serves every service's Set.
type List struct {
	rules []compiled
	src   []Rule // as given, for explanations
}

// Len is the number of rules.
func (l *List) Len() int {
	if l == nil {
		return 0
	}
	return len(l.rules)
}

// CompileList compiles validated rules.
func CompileList(rules []Rule) (*List, error) {
	l := &List{src: rules, rules: make([]compiled, 0, len(rules))}
	for i, r := range rules {
		c, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", i, err)
		}
		l.rules = append(l.rules, c)
	}
	return l, nil
}

// Set is what one service evaluates: the global rules, then its own, then
// the default action. It is immutable and safe for concurrent use.
type Set struct {
	global, own *List
	def         Action
	geo         Geo
	hasGeo      bool
}

type compiled struct {
	action    Action
	paths     []pathMatcher
	methods   []string
	sources   addrSet
	countries []string
	headers   []headerMatcher
	// identity is set when the rule has identity conditions, so rules
	// without them skip the check with one branch.
	identity     bool
	people       []string
	groups       []string
	secondFactor bool
}

type pathMatcher struct {
	kind   string
	value  string // exact: as given; prefix: without a trailing slash
	re     *regexp.Regexp
	reFold *regexp.Regexp
}

type headerMatcher struct {
	name  string // canonical
	match string
	value string
}

// NewSet combines compiled lists (either may be nil) with a default action.
// geo may be nil; country conditions then never let a request through and
// always restrict it.
func NewSet(global, own *List, def Action, geo Geo) *Set {
	if global == nil {
		global = &List{}
	}
	if own == nil {
		own = &List{}
	}
	return &Set{global: global, own: own, def: def, geo: geo, hasGeo: geo != nil}
}

// Compile compiles both lists and combines them, for callers that evaluate
// a single set.
func Compile(global, own []Rule, def Action, geo Geo) (*Set, error) {
	g, err := CompileList(global)
	if err != nil {
		return nil, fmt.Errorf("global %w", err)
	}
	o, err := CompileList(own)
	if err != nil {
		return nil, err
	}
	return NewSet(g, o, def, geo), nil
}

func compileRule(r Rule) (compiled, error) {
	c := compiled{action: r.Action, methods: r.Methods, countries: r.Countries,
		identity: r.HasIdentity(), people: r.People, groups: r.Groups, secondFactor: r.SecondFactor}
	for _, p := range r.Paths {
		m, err := compilePath(p)
		if err != nil {
			return c, err
		}
		c.paths = append(c.paths, m)
	}
	var sources []netip.Prefix
	for _, src := range r.Sources {
		pfx, err := parseSource(src)
		if err != nil {
			return c, err
		}
		sources = append(sources, pfx...)
	}
	c.sources = newAddrSet(sources)
	for _, h := range r.Headers {
		match := h.Match
		if match == "" {
			match = HeaderPresent
		}
		c.headers = append(c.headers, headerMatcher{name: textproto.CanonicalMIMEHeaderKey(h.Name), match: match, value: h.Value})
	}
	return c, nil
}

func compilePath(p PathMatch) (pathMatcher, error) {
	m := pathMatcher{kind: p.Type, value: p.Value}
	var expr string
	switch p.Type {
	case PathExact:
		return m, nil
	case PathPrefix:
		if m.value != "/" {
			m.value = strings.TrimSuffix(m.value, "/")
		}
		return m, nil
	case PathGlob:
		expr = globExpr(p.Value)
	case PathRegex:
		expr = "^(?:" + p.Value + ")$"
	default:
		return m, fmt.Errorf("unknown path type %q", p.Type)
	}
	var err error
	if m.re, err = regexp.Compile(expr); err != nil {
		return m, err
	}
	m.reFold, err = regexp.Compile("(?i)" + expr)
	return m, err
}

// globExpr turns a glob into an anchored expression: "*" is any run of
// characters within a segment, a "**" segment any number of segments.
func globExpr(g string) string {
	var b strings.Builder
	b.WriteString("^")
	for _, seg := range strings.Split(strings.TrimPrefix(g, "/"), "/") {
		if seg == "**" {
			b.WriteString("(?:/[^/]*)*")
			continue
		}
		b.WriteString("/")
		for i, part := range strings.Split(seg, "*") {
			if i > 0 {
				b.WriteString("[^/]*")
			}
			b.WriteString(regexp.QuoteMeta(part))
		}
	}
	b.WriteString("$")
	return b.String()
}

// Decide evaluates the rules in order: the first that matches decides.
func (s *Set) Decide(r *Request) Decision {
	for i := range s.global.rules {
		if d, ok := s.decideRule(&s.global.rules[i], r, ScopeGlobal, i); ok {
			return d
		}
	}
	for i := range s.own.rules {
		if d, ok := s.decideRule(&s.own.rules[i], r, ScopeService, i); ok {
			return d
		}
	}
	return Decision{Action: s.def, Scope: ScopeDefault, Index: -1}
}

// decideRule is the decision of one rule, ok false when it does not match.
func (s *Set) decideRule(c *compiled, r *Request, scope Scope, i int) (Decision, bool) {
	if !s.matches(c, r, nil) {
		return Decision{}, false
	}
	if c.identity {
		if r.Identity == nil {
			return Decision{Action: Authenticate, Scope: scope, Index: i, NeedsIdentity: true}, true
		}
		if c.identityFails(r.Identity) != "" {
			return Decision{}, false
		}
	}
	return Decision{Action: c.action, Scope: scope, Index: i}, true
}

// identityFails says why id does not meet c's identity conditions, "" when
// it does. Names compare without regard to case, as the directory keeps
// them unique that way.
func (c *compiled) identityFails(id *Identity) string {
	if len(c.people) > 0 && !containsName(c.people, id.Username) {
		return "the person is not one of " + strings.Join(c.people, ", ")
	}
	if len(c.groups) > 0 {
		found := false
		for _, g := range id.Groups {
			if containsName(c.groups, g) {
				found = true
				break
			}
		}
		if !found {
			return "the person is in none of the groups " + strings.Join(c.groups, ", ")
		}
	}
	if c.secondFactor && !id.SecondFactor {
		return "the person did not sign in with a second factor"
	}
	return ""
}

func containsName(list []string, name string) bool {
	for _, x := range list {
		if strings.EqualFold(x, name) {
			return true
		}
	}
	return false
}

// Default is the action when no rule matches.
func (s *Set) Default() Action { return s.def }

// matches reports whether every condition of c holds. why, when not nil,
// receives the reason of the first condition that failed.
func (s *Set) matches(c *compiled, r *Request, why *string) bool {
	narrow := c.action == Allow
	// Every condition must hold, so the order they are checked in changes
	// nothing but which reason an explanation gives: without one, the
	// method, the cheapest, goes first and spares the path.
	if why == nil && len(c.methods) > 0 && !matchMethod(c.methods, r.Method, narrow) {
		return false
	}
	fail := func(reason string) bool {
		if why != nil {
			*why = reason
		}
		return false
	}
	if len(c.paths) > 0 {
		p := r.Path()
		if narrow && p.Ambiguous {
			return fail("the path is ambiguous (" + r.URI + "), and allow rules never match an ambiguous path")
		}
		if !matchPaths(c.paths, p, narrow) {
			if narrow && p.variants != nil && matchPaths(c.paths, &Path{Clean: p.Clean}, true) {
				return fail("the path can also be read outside this rule's paths, and allow rules match only when every reading does")
			}
			return fail("the path does not match")
		}
	}
	if len(c.methods) > 0 && !matchMethod(c.methods, r.Method, narrow) {
		return fail("the method does not match")
	}
	if !c.sources.empty() {
		if !r.Addr.IsValid() {
			if narrow {
				return fail("the client address is unknown")
			}
		} else if !c.sources.contains(r.Addr) {
			return fail("the client address does not match")
		}
	}
	if len(c.countries) > 0 {
		if !s.hasGeo {
			if narrow {
				return fail("no country database is configured")
			}
		} else if !s.matchCountry(c.countries, r) {
			return fail("the country does not match")
		}
	}
	for _, h := range c.headers {
		if !h.matches(r.Header) {
			return fail("header " + h.name + " does not match")
		}
	}
	return true
}

// matchPaths matches an allow rule's paths narrowly: every reading of the
// path must match one of them, case-sensitively, so the path cannot mean
// anything the rule does not open. Other rules match broadly: any reading
// matching any of them is enough, and a path with too many readings to
// compute (Overflow) matches.
func matchPaths(ms []pathMatcher, p *Path, narrow bool) bool {
	if narrow {
		if p.Overflow {
			return false
		}
	next:
		for _, v := range p.readings() {
			// A reading that differs from another only by escapes of bytes
			// that are not separators (an upstream that does not decode
			// /%70ublic) has the same segments: compare it decoded.
			if d, ok, structural := decodeOnce(v); ok && !structural {
				v = d
			}
			for i := range ms {
				if ms[i].narrow(v) {
					continue next
				}
			}
			return false
		}
		return true
	}
	if p.Overflow {
		return true
	}
	for _, v := range p.readings() {
		for i := range ms {
			if ms[i].broad(v) {
				return true
			}
		}
	}
	return false
}

func (m *pathMatcher) narrow(p string) bool {
	switch m.kind {
	case PathExact:
		return p == m.value
	case PathPrefix:
		return m.value == "/" || strings.HasPrefix(p, m.value) && (len(p) == len(m.value) || p[len(m.value)] == '/')
	default:
		return m.re.MatchString(p)
	}
}

func (m *pathMatcher) broad(p string) bool {
	switch m.kind {
	case PathExact:
		return strings.EqualFold(trimSlash(p), trimSlash(m.value))
	case PathPrefix:
		v := m.value
		return v == "/" || len(p) >= len(v) && strings.EqualFold(p[:len(v)], v) && (len(p) == len(v) || p[len(v)] == '/')
	default:
		return m.reFold.MatchString(p) || m.reFold.MatchString(trimSlash(p))
	}
}

func trimSlash(p string) string {
	if len(p) > 1 && p[len(p)-1] == '/' {
		return p[:len(p)-1]
	}
	return p
}

func matchMethod(ms []string, m string, narrow bool) bool {
	for _, x := range ms {
		if x == m || !narrow && x == http.MethodGet && m == http.MethodHead {
			return true
		}
	}
	return false
}

func matchAddr(ps []netip.Prefix, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func (s *Set) matchCountry(cs []string, r *Request) bool {
	if !r.countryDone {
		if r.Addr.IsValid() {
			r.country = s.geo.Country(r.Addr.Unmap())
		}
		r.countryDone = true
	}
	for _, c := range cs {
		if c == r.country {
			return true
		}
	}
	return false
}

func (h *headerMatcher) matches(hdr http.Header) bool {
	vals := hdr[h.name]
	if h.match == HeaderPresent {
		return len(vals) > 0
	}
	for _, v := range vals {
		if h.match == HeaderEquals && v == h.value || h.match == HeaderContains && containsFold(v, h.value) {
			return true
		}
	}
	return false
}

// containsFold is an ASCII case-insensitive strings.Contains without allocation.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// UnderPrefix reports whether the path of uri is, unambiguously and in
// every reading, prefix or below it (whole segments, case-sensitive): the
// narrow match allow rules use, for scopes that grant access.
func UnderPrefix(uri, prefix string) bool {
	p := ParsePath(uri)
	if p.Ambiguous {
		return false
	}
	m := pathMatcher{kind: PathPrefix, value: prefix}
	if prefix != "/" {
		m.value = strings.TrimSuffix(prefix, "/")
	}
	return matchPaths([]pathMatcher{m}, &p, true)
}
