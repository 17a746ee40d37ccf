package rules

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

// benchSet is a typical service: a deny for an admin area, an allow for
// static files, then the default.
func benchSet(b *testing.B) *Set {
	b.Helper()
	s, err := Compile(nil, []Rule{
		{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/admin"}}},
		{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/public"}}},
		{Action: Authenticate, Paths: []PathMatch{{Type: PathGlob, Value: "/api/**"}}},
	}, Authenticate, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkDecide measures one verify's rule evaluation for a clean path
// (the hot path: no allocation, no reading computed), a common path with
// escapes (two readings), a hostile path that
// has every trigger of another reading, and the longest hostile path verify
// accepts (16 KiB), which must cost linear time.
func BenchmarkDecide(b *testing.B) {
	long := "/public/" + strings.Repeat(`%c0%ae%EF%BC%8F.;x:\%252e%u002e `, 16384/32)
	for _, c := range []struct{ name, uri string }{
		{"clean", "/public/assets/app.3f2a.js?v=12"},
		{"encoded", "/public/My%20Documents/caf%C3%A9.pdf"},
		{"hostile", "/public/%c0%ae%c0%ae/x/..%2f%EF%BC%8Fadmin%00.jpg;x=1/a::$DATA. ?q=1"},
		{"hostile16k", long[:16384]},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := benchSet(b)
			b.ReportAllocs()
			for b.Loop() {
				r := Request{Method: "GET", URI: c.uri}
				s.Decide(&r)
			}
		})
	}
}

// fiftyRules is a service's rule list of 50 where only the last matches
// GET /dashboard from 203.0.113.7 with a browser's user agent: 49 rules of
// every condition kind but countries that miss, then an authenticate rule
// (bench.fiftyRules, which make bench measures verify with).
func fiftyRules() []Rule {
	rules := make([]Rule, 0, 50)
	for i := range 49 {
		var r Rule
		switch i % 7 {
		case 0:
			r = Rule{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: fmt.Sprintf("/admin%d", i)}}}
		case 1:
			r = Rule{Action: Allow, Methods: []string{"GET", "HEAD"}, Paths: []PathMatch{{Type: PathExact, Value: fmt.Sprintf("/public/%d", i)}}}
		case 2:
			r = Rule{Action: Deny, Sources: []string{fmt.Sprintf("198.51.100.%d/32", i), "192.0.2.0/24"}}
		case 3:
			r = Rule{Action: Allow, Paths: []PathMatch{{Type: PathGlob, Value: fmt.Sprintf("/assets/%d/*.css", i)}}}
		case 4:
			r = Rule{Action: Deny, Paths: []PathMatch{{Type: PathRegex, Value: fmt.Sprintf(`^/api/v%d/internal/.*$`, i)}}}
		case 5:
			r = Rule{Action: Allow, Sources: []string{SourcePrivate},
				Headers: []HeaderMatch{{Name: "User-Agent", Match: HeaderContains, Value: fmt.Sprintf("probe-%d", i)}}}
		default:
			r = Rule{Action: Deny, Methods: []string{"DELETE", "PUT"}, Paths: []PathMatch{{Type: PathPrefix, Value: fmt.Sprintf("/data%d", i)}}}
		}
		rules = append(rules, r)
	}
	return append(rules, Rule{Action: Authenticate, Methods: []string{"GET"}, Paths: []PathMatch{{Type: PathPrefix, Value: "/dashboard"}}})
}

// BenchmarkDecideFifty is verify's rule evaluation on fiftyRules: every
// rule is tried before the last one decides.
func BenchmarkDecideFifty(b *testing.B) {
	s, err := Compile(nil, fiftyRules(), Authenticate, nil)
	if err != nil {
		b.Fatal(err)
	}
	h := http.Header{"User-Agent": {"Mozilla/5.0 (bench)"}}
	addr := netip.MustParseAddr("203.0.113.7")
	b.ReportAllocs()
	for b.Loop() {
		r := Request{Method: "GET", URI: "/dashboard?tab=1", Addr: addr, Header: h}
		if d := s.Decide(&r); d.Index != 49 {
			b.Fatal(d)
		}
	}
}

// BenchmarkDecideIdentity compares fiftyRules without a person (the rules
// have no identity conditions: the check must cost nothing and allocate
// nothing) with the documented /admin pattern judged for a signed-in
// person, which must not allocate either.
func BenchmarkDecideIdentity(b *testing.B) {
	plain, err := Compile(nil, fiftyRules(), Authenticate, nil)
	if err != nil {
		b.Fatal(err)
	}
	withID, err := Compile(nil, append(fiftyRules()[:49:49], Rule{Action: Allow, Methods: []string{"GET"},
		Paths: []PathMatch{{Type: PathPrefix, Value: "/dashboard"}}, Groups: []string{"staff", "admins"}, SecondFactor: true}), Authenticate, nil)
	if err != nil {
		b.Fatal(err)
	}
	h := http.Header{"User-Agent": {"Mozilla/5.0 (bench)"}}
	addr := netip.MustParseAddr("203.0.113.7")
	id := &Identity{PersonID: "p", Username: "ann", Groups: []string{"admins", "family"}, SecondFactor: true}
	for _, c := range []struct {
		name string
		set  *Set
		id   *Identity
		want Action
	}{
		{"no-identity-rules", plain, nil, Authenticate},
		{"no-identity-rules-with-person", plain, id, Authenticate},
		{"group-rule-person", withID, id, Allow},
		{"group-rule-anonymous", withID, nil, Authenticate},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := Request{Method: "GET", URI: "/dashboard?tab=1", Addr: addr, Header: h, Identity: c.id}
				if d := c.set.Decide(&r); d.Action != c.want || d.Index != 49 {
					b.Fatal(d)
				}
			}
		})
	}
}
