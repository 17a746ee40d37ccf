package rules

import (
	"encoding/json"
	"net/netip"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// FuzzParsePath checks that Clean is the first reading and that a path
// called unambiguous has no dot segment or duplicate slash.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"/", "/public/../admin", "/a%2fb", "//x", "/a;b", `/a\b`, "/%252e", "/caf%C3%A9", "/x?y#z", "/%zz", "/a/./b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		p := ParsePath(uri)
		if !strings.HasPrefix(p.Clean, "/") {
			t.Fatalf("Clean %q does not start with /", p.Clean)
		}
		if p.Ambiguous {
			return
		}
		if rs := p.readings(); rs[0] != p.Clean {
			t.Fatalf("%q: readings %q do not start with Clean %q", uri, rs, p.Clean)
		}
		if strings.Contains(p.Clean, "//") || strings.Contains(p.Clean, "/../") || strings.HasSuffix(p.Clean, "/..") {
			t.Fatalf("%q: unambiguous with unclean %q", uri, p.Clean)
		}
	})
}

// FuzzRules feeds arbitrary JSON to Normalize: whatever it accepts must
// compile, and evaluating it must not panic.
func FuzzRules(f *testing.F) {
	f.Add(`[{"action":"allow","paths":[{"type":"glob","value":"/api/*/x"}],"methods":["get"],"sources":["private"]}]`, "/api/1/x", "GET", "10.1.1.1")
	f.Add(`[{"action":"deny","paths":[{"type":"regex","value":"/a(b|c)*"}],"headers":[{"name":"X-A","match":"contains","value":"q"}]}]`, "/abc", "POST", "::1")
	f.Add(`[{"action":"authenticate","countries":["DE"]}]`, "/", "HEAD", "")
	f.Add(`[{"action":"allow","paths":[{"type":"prefix","value":"/admin"}],"groups":["admins"],"secondFactor":true},{"action":"deny","people":["ann"]}]`, "/admin/x", "GET", "")
	f.Fuzz(func(t *testing.T, doc, uri, method, addr string) {
		var rules []Rule
		if json.Unmarshal([]byte(doc), &rules) != nil {
			return
		}
		var c apperr.Collector
		Normalize(rules, "rules", Options{GeoIP: true}, &c)
		if c.Err() != nil {
			return
		}
		s, err := Compile(rules, rules, Authenticate, fakeGeo{})
		if err != nil {
			t.Fatalf("accepted rules do not compile: %v", err)
		}
		a, _ := netip.ParseAddr(addr)
		for _, id := range []*Identity{nil, {Username: "ann", Groups: []string{"admins"}, SecondFactor: true}, {Username: "bob"}} {
			r := Request{Method: method, URI: uri, Addr: a, Identity: id}
			d := s.Decide(&r)
			r2 := Request{Method: method, URI: uri, Addr: a, Identity: id}
			if ex := s.Explain(&r2); ex.Decision != d {
				t.Fatalf("Explain %+v disagrees with Decide %+v", ex.Decision, d)
			}
			if id == nil && d.Index >= 0 && d.Action == Allow && (d.Scope == ScopeGlobal && rules[d.Index].HasIdentity() || d.Scope == ScopeService && rules[d.Index].HasIdentity()) {
				t.Fatalf("an anonymous request was allowed by a rule with identity conditions: %+v", d)
			}
			if d.NeedsIdentity && (id != nil || d.Action != Authenticate) {
				t.Fatalf("NeedsIdentity with identity %v or action %s", id, d.Action)
			}
		}
	})
}
