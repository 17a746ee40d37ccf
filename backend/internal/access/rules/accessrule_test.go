package rules

import (
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		uri       string
		clean     string
		ambiguous bool
	}{
		{"/", "/", false},
		{"/public/a.css?x=1", "/public/a.css", false},
		{"/public/", "/public/", false},
		{"/caf%C3%A9", "/café", false},
		{"/%70ublic/x", "/public/x", false},
		{"/public/../admin", "/admin", true},
		{"/public/%2e%2e/admin", "/admin", true},
		{"/public/%2E%2E/admin", "/admin", true},
		{"//admin", "/admin", true},
		{"/public//x", "/public/x", true},
		{"/public/./x", "/public/x", true},
		{"/public/..", "/", true},
		{"/public;x=1/../admin", "/admin", true},
		{"/public%2f..%2fadmin", "/admin", true},
		{"/public%2F..%2Fadmin", "/admin", true},
		{`/public\..\admin`, `/public\..\admin`, true},
		{"/public/%252e%252e/admin", "/public/%2e%2e/admin", true},
		{"/bad%zz", "/bad%zz", true},
		{"/trail%", "/trail%", true},
		{"/x%00y", "/x\x00y", true},
		{"relative", "/relative", true},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			p := ParsePath(tt.uri)
			if p.Clean != tt.clean || p.Ambiguous != tt.ambiguous {
				t.Fatalf("ParsePath(%q) = %q ambiguous=%v, want %q ambiguous=%v", tt.uri, p.Clean, p.Ambiguous, tt.clean, tt.ambiguous)
			}
		})
	}
}

func mustCompile(t *testing.T, rules []Rule, def Action, geo Geo) *Set {
	t.Helper()
	var c apperr.Collector
	Normalize(rules, "rules", Options{GeoIP: geo != nil}, &c)
	if err := c.Err(); err != nil {
		t.Fatalf("normalize: %v", err)
	}
	s, err := Compile(nil, rules, def, geo)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return s
}

// The classic bypass: an allow rule for /public/ must never let a path that
// an upstream reads as /admin through, however it is spelt.
func TestAllowNeverMatchesAnotherSpelling(t *testing.T) {
	s := mustCompile(t, []Rule{{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/public/"}}}}, Authenticate, nil)
	allowed := []string{"/public", "/public/", "/public/app.js", "/public/a/b?q=1", "/%70ublic/x"}
	refused := []string{
		"/public/../admin", "/public/%2e%2e/admin", "/public/%2E%2e/admin", "//public/x", "/public//x",
		"/PUBLIC/x", "/Public/", "/public;jsessionid=1/x", "/public%2f..%2fadmin", `/public\..\admin`,
		"/public/%252e%252e/admin", "/publicity", "/public-secret/x", "/admin", "/public/./x", "/public/%00",
		"/public/%zz",
	}
	for _, u := range allowed {
		if d := s.Decide(&Request{Method: "GET", URI: u}); d.Action != Allow {
			t.Errorf("%s: %s, want allow", u, d.Action)
		}
	}
	for _, u := range refused {
		if d := s.Decide(&Request{Method: "GET", URI: u}); d.Action != Authenticate {
			t.Errorf("%s: %s, want authenticate", u, d.Action)
		}
	}
}

// Restrictive rules match every reading of a path, and ignore case.
func TestDenyMatchesEverySpelling(t *testing.T) {
	s := mustCompile(t, []Rule{
		{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/admin"}}},
		{Action: Allow},
	}, Authenticate, nil)
	for _, u := range []string{"/admin", "/ADMIN/x", "/public/../admin", "/public/%2e%2e/admin", "//admin", "/%61dmin",
		"/x/..%2fadmin", `/x\..\admin`, "/admin;x=1", "/admin/", "/x/%252e%252e/admin"} {
		if d := s.Decide(&Request{Method: "GET", URI: u}); d.Action != Deny {
			t.Errorf("%s: %s, want deny", u, d.Action)
		}
	}
	if d := s.Decide(&Request{Method: "GET", URI: "/administrator"}); d.Action != Allow {
		t.Errorf("/administrator: %s, want allow (prefixes match whole segments)", d.Action)
	}
}

func TestConditions(t *testing.T) {
	rules := []Rule{
		{Action: Allow, Note: "LAN", Sources: []string{"private", "loopback"}},
		{Action: Deny, Methods: []string{"delete"}},
		{Action: Allow, Paths: []PathMatch{{Type: PathGlob, Value: "/api/*/stream"}}, Methods: []string{"GET"}},
		{Action: Authenticate, Paths: []PathMatch{{Type: PathRegex, Value: `/dav/[a-z]+\.ics`}}},
		{Action: Allow, Headers: []HeaderMatch{{Name: "user-agent", Match: "contains", Value: "nextcloud"}}},
		{Action: Allow, Paths: []PathMatch{{Type: PathGlob, Value: "/files/**"}}},
	}
	s := mustCompile(t, rules, Deny, nil)
	pub := netip.MustParseAddr("203.0.113.9")
	tests := []struct {
		name   string
		req    Request
		action Action
		index  int
	}{
		{"lan v4", Request{Method: "DELETE", URI: "/x", Addr: netip.MustParseAddr("192.168.1.7")}, Allow, 0},
		{"loopback v6", Request{Method: "GET", URI: "/x", Addr: netip.MustParseAddr("::1")}, Allow, 0},
		{"mapped v4", Request{Method: "GET", URI: "/x", Addr: netip.MustParseAddr("::ffff:10.1.2.3")}, Allow, 0},
		{"public delete", Request{Method: "DELETE", URI: "/x", Addr: pub}, Deny, 1},
		{"glob", Request{Method: "GET", URI: "/api/42/stream", Addr: pub}, Allow, 2},
		{"glob one segment only", Request{Method: "GET", URI: "/api/4/2/stream", Addr: pub}, Deny, -1},
		{"glob method narrow", Request{Method: "HEAD", URI: "/api/42/stream", Addr: pub}, Deny, -1},
		{"regex case folded for authenticate", Request{Method: "GET", URI: "/DAV/home.ICS", Addr: pub}, Authenticate, 3},
		{"header", Request{Method: "GET", URI: "/y", Addr: pub, Header: http.Header{"User-Agent": {"Mozilla/5.0 (Linux) mirall/3.1 Nextcloud-android"}}}, Allow, 4},
		{"double star", Request{Method: "GET", URI: "/files/a/b/c", Addr: pub}, Allow, 5},
		{"double star zero segments", Request{Method: "GET", URI: "/files", Addr: pub}, Allow, 5},
		{"unknown address never allowed by source", Request{Method: "GET", URI: "/z"}, Deny, -1},
		{"unknown address denied by method", Request{Method: "DELETE", URI: "/z"}, Deny, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.req
			d := s.Decide(&r)
			if d.Action != tt.action || d.Index != tt.index {
				t.Fatalf("got %s #%d, want %s #%d", d.Action, d.Index, tt.action, tt.index)
			}
		})
	}
}

func TestUnknownAddressMatchesRestrictiveSources(t *testing.T) {
	s := mustCompile(t, []Rule{{Action: Deny, Sources: []string{"198.51.100.0/24"}}}, Allow, nil)
	if d := s.Decide(&Request{Method: "GET", URI: "/"}); d.Action != Deny {
		t.Fatalf("unknown address: %s, want deny (fail closed)", d.Action)
	}
}

type fakeGeo map[string]string

func (g fakeGeo) Country(a netip.Addr) string { return g[a.String()] }

func TestCountries(t *testing.T) {
	geo := fakeGeo{"203.0.113.1": "FR", "203.0.113.2": "DE"}
	s := mustCompile(t, []Rule{{Action: Deny, Countries: []string{"fr"}}}, Allow, geo)
	if d := s.Decide(&Request{Method: "GET", URI: "/", Addr: netip.MustParseAddr("203.0.113.1")}); d.Action != Deny {
		t.Errorf("FR: %s", d.Action)
	}
	if d := s.Decide(&Request{Method: "GET", URI: "/", Addr: netip.MustParseAddr("203.0.113.2")}); d.Action != Allow {
		t.Errorf("DE: %s", d.Action)
	}
	// Rules saved while a database was loaded keep restricting without one.
	s2, err := Compile([]Rule{{Action: Deny, Countries: []string{"FR"}}}, []Rule{{Action: Allow, Countries: []string{"DE"}}}, Authenticate, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := s2.Decide(&Request{Method: "GET", URI: "/", Addr: netip.MustParseAddr("203.0.113.2")}); d.Action != Deny || d.Scope != ScopeGlobal {
		t.Errorf("without a database: %s %s, want global deny", d.Action, d.Scope)
	}
}

func TestGlobalRulesComeFirst(t *testing.T) {
	s, err := Compile([]Rule{{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/.well-known/acme-challenge"}}}},
		[]Rule{{Action: Deny}}, Authenticate, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Decide(&Request{Method: "GET", URI: "/.well-known/acme-challenge/tok"})
	if d.Action != Allow || d.Scope != ScopeGlobal || d.Index != 0 {
		t.Fatalf("got %+v", d)
	}
	d = s.Decide(&Request{Method: "GET", URI: "/x"})
	if d.Action != Deny || d.Scope != ScopeService || d.Index != 0 {
		t.Fatalf("got %+v", d)
	}
}

func TestNormalizeNamesEveryField(t *testing.T) {
	rules := []Rule{{
		Action:    "permit",
		Paths:     []PathMatch{{Type: "prefix", Value: "public"}, {Type: "exact", Value: "/a/../b"}, {Type: "regex", Value: "("}, {Type: "wild", Value: "/"}, {Type: "exact", Value: "/a%2fb"}, {Type: "prefix", Value: "/a*"}},
		Methods:   []string{"GET", "BAD METHOD"},
		Sources:   []string{"10.0.0.300/8", "lan"},
		Countries: []string{"XX"},
		Headers:   []HeaderMatch{{Name: "Bad Header"}, {Name: "X-A", Match: "equals"}, {Name: "X-B", Match: "regex", Value: "x"}},
	}}
	var c apperr.Collector
	Normalize(rules, "rules", Options{}, &c)
	err := c.Err()
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("want a validation error, got %v", err)
	}
	got := map[string]bool{}
	for _, f := range e.Fields {
		got[f.Field] = true
	}
	for _, want := range []string{"rules[0].action", "rules[0].paths[0].value", "rules[0].paths[1].value", "rules[0].paths[2].value",
		"rules[0].paths[3].type", "rules[0].paths[4].value", "rules[0].paths[5].value", "rules[0].methods[1]", "rules[0].sources[0]", "rules[0].sources[1]",
		"rules[0].countries[0]", "rules[0].countries", "rules[0].headers[0].name", "rules[0].headers[1].value", "rules[0].headers[2].match"} {
		if !got[want] {
			t.Errorf("no error for %s (got %v)", want, e.Fields)
		}
	}
}

func TestNormalizeCanonicalises(t *testing.T) {
	rules := []Rule{{Action: " Allow ", Methods: []string{"get", "GET", "propfind"}, Sources: []string{"192.168.1.7/24", "::ffff:10.0.0.1", "Private"}, Countries: []string{"de"}}}
	var c apperr.Collector
	Normalize(rules, "rules", Options{GeoIP: true}, &c)
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	r := rules[0]
	if r.Action != Allow || strings.Join(r.Methods, ",") != "GET,PROPFIND" || strings.Join(r.Sources, ",") != "192.168.1.0/24,10.0.0.1,private" || r.Countries[0] != "DE" {
		t.Fatalf("got %+v", r)
	}
}

func TestClientAddr(t *testing.T) {
	cdn, _ := ParseTrusted("173.245.48.0/20, 10.0.0.2")
	tests := []struct {
		name    string
		xff     []string
		remote  string
		trusted string
		want    string
	}{
		{"no header", nil, "192.0.2.1:5555", "", "192.0.2.1"},
		{"traefik's peer", []string{"198.51.100.4"}, "127.0.0.1:1", "", "198.51.100.4"},
		{"forged entry ignored", []string{"10.0.0.5, 198.51.100.4"}, "127.0.0.1:1", "", "198.51.100.4"},
		{"through a trusted cdn", []string{"198.51.100.4, 173.245.48.9"}, "127.0.0.1:1", "cdn", "198.51.100.4"},
		{"forged left of the client", []string{"127.0.0.1, 198.51.100.4, 173.245.48.9"}, "127.0.0.1:1", "cdn", "198.51.100.4"},
		{"chain of trusted proxies", []string{"198.51.100.4", "173.245.48.9, 10.0.0.2"}, "", "cdn", "198.51.100.4"},
		{"only trusted entries", []string{"173.245.48.9"}, "", "cdn", "173.245.48.9"},
		{"untrusted cdn", []string{"198.51.100.4, 173.245.48.9"}, "", "", "173.245.48.9"},
		{"garbage", []string{"not-an-ip"}, "127.0.0.1:1", "", ""},
		{"garbage where the client is", []string{"junk, 173.245.48.9"}, "", "cdn", ""},
		{"v6 with port", []string{"[2001:db8::1]:443"}, "", "", "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tr []netip.Prefix
			if tt.trusted == "cdn" {
				tr = cdn
			}
			got := ClientAddr(tt.xff, tt.remote, tr)
			if (tt.want == "" && got.IsValid()) || (tt.want != "" && got.String() != tt.want) {
				t.Fatalf("got %v, want %q", got, tt.want)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	s := mustCompile(t, []Rule{
		{Action: Allow, Note: "static", Paths: []PathMatch{{Type: PathPrefix, Value: "/static"}}},
		{Action: Deny, Methods: []string{"POST"}},
	}, Authenticate, nil)
	ex := s.Explain(&Request{Method: "GET", URI: "/static/../admin"})
	if ex.Decision.Action != Authenticate || len(ex.Steps) != 2 || !strings.Contains(ex.Steps[0].Reason, "ambiguous") {
		t.Fatalf("got %+v", ex)
	}
	ex = s.Explain(&Request{Method: "POST", URI: "/x"})
	if ex.Decision.Action != Deny || !ex.Steps[1].Matched || !strings.Contains(ex.Reason, "service rule 2 (deny)") {
		t.Fatalf("got %+v", ex)
	}
}

func TestIsCountry(t *testing.T) {
	for cc, want := range map[string]bool{"DE": true, "US": true, "ZW": true, "AD": true, "XX": false, "E ": false, "D": false, "DEU": false, "EA": false} {
		if IsCountry(cc) != want {
			t.Errorf("IsCountry(%q) != %v", cc, want)
		}
	}
}

func TestDecideDoesNotAllocate(t *testing.T) {
	rules := make([]Rule, 0, 50)
	for i := 0; i < 49; i++ {
		rules = append(rules, Rule{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/p" + strings.Repeat("x", i)}}, Methods: []string{"GET"}})
	}
	rules = append(rules, Rule{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/dav"}}, Methods: []string{"PROPFIND"}, Sources: []string{"private"}})
	s := mustCompile(t, rules, Authenticate, nil)
	addr := netip.MustParseAddr("192.168.0.9")
	allocs := testing.AllocsPerRun(200, func() {
		r := Request{Method: "PROPFIND", URI: "/dav/files/a.txt?x=1", Addr: addr}
		if s.Decide(&r).Action != Allow {
			t.Fatal("want allow")
		}
	})
	if allocs != 0 {
		t.Fatalf("Decide allocates %v times per call", allocs)
	}
}

func TestExposureOf(t *testing.T) {
	allowAll := Rule{Action: Allow}
	denyAll := Rule{Action: Deny}
	authAll := Rule{Action: Authenticate}
	allowPublic := Rule{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/public"}}}
	denyAdmin := Rule{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/admin"}}}
	allowOffice := Rule{Action: Allow, Sources: []string{"10.0.0.0/8"}}
	allowRoot := Rule{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/"}}}
	allowGlob := Rule{Action: Allow, Paths: []PathMatch{{Type: PathGlob, Value: "/**"}, {Type: PathExact, Value: "/x"}}}
	allowAnyAddr := Rule{Action: Allow, Sources: []string{"0.0.0.0/0", "::/0"}}
	allowV4 := Rule{Action: Allow, Sources: []string{"0.0.0.0/0"}}
	allowGet := Rule{Action: Allow, Methods: []string{"GET"}}
	allowHeader := Rule{Action: Allow, Headers: []HeaderMatch{{Name: "X-Debug"}}}
	tests := []struct {
		name        string
		global, own []Rule
		def         Action
		want        Exposure
	}{
		{"no rules, authenticate", nil, nil, Authenticate, ExposedToNone},
		{"no rules, allow default", nil, nil, Allow, ExposedToEveryone},
		{"no rules, deny default", nil, nil, Deny, ExposedToNone},
		{"the new rule of the editor: allow with no conditions", nil, []Rule{allowAll}, Authenticate, ExposedToEveryone},
		{"deny some paths, then allow all", nil, []Rule{denyAdmin, allowAll}, Authenticate, ExposedToEveryone},
		{"allow some paths", nil, []Rule{allowPublic}, Authenticate, ExposedToSome},
		{"allow an office", nil, []Rule{allowOffice}, Deny, ExposedToSome},
		{"allow GET", nil, []Rule{allowGet}, Authenticate, ExposedToSome},
		{"allow by header", nil, []Rule{allowHeader}, Authenticate, ExposedToSome},
		{"prefix / is every path", nil, []Rule{allowRoot}, Authenticate, ExposedToEveryone},
		{"glob /** is every path", nil, []Rule{allowGlob}, Authenticate, ExposedToEveryone},
		{"every address", nil, []Rule{allowAnyAddr}, Authenticate, ExposedToEveryone},
		{"every IPv4 address", nil, []Rule{allowV4}, Authenticate, ExposedToSome},
		{"authenticate everything before allow all", nil, []Rule{authAll, allowAll}, Allow, ExposedToNone},
		{"allow some, then deny everything", nil, []Rule{allowPublic, denyAll}, Allow, ExposedToSome},
		{"global allow all", []Rule{allowAll}, []Rule{denyAll}, Deny, ExposedToEveryone},
		{"global deny all", []Rule{denyAll}, []Rule{allowAll}, Allow, ExposedToNone},
		{"global allow some, own default allow", []Rule{allowOffice}, nil, Allow, ExposedToEveryone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExposureOf(tt.global, tt.own, tt.def); got != tt.want {
				t.Fatalf("ExposureOf = %s, want %s", got, tt.want)
			}
		})
	}
}
