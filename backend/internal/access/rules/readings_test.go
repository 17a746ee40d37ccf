package rules

import (
	"strings"
	"testing"
)

// Readings some upstream normalises: each reads as /secret (or below it)
// to somebody, so a deny rule for /secret must refuse every one.
var secretReadings = []struct{ uri, who string }{
	{"/secret.", "Windows strips trailing dots"},
	{"/secret..", "Windows strips trailing dots"},
	{"/SECRET.", "trailing dot, other case"},
	{"/secret%2e", "encoded trailing dot"},
	{"/secret%2E%2e", "encoded trailing dots"},
	{"/secret%20", "Windows strips trailing spaces"},
	{"/secret%20%2e%20", "spaces and dots"},
	{"/secret%09", "Java String.trim"},
	{"/%20secret", "Java String.trim (Spring trimTokens)"},
	{"/secret/%20x", "trim below the prefix"},
	{"/secret%00", "C string ends at NUL"},
	{"/secret%00.jpg", "C string ends at NUL"},
	{"/secret%00/x", "C string ends at NUL"},
	{"/secret::$DATA", "NTFS default stream (IIS)"},
	{"/secret:$DATA", "NTFS stream, one colon"},
	{"/secret%3a%3a$DATA", "encoded stream suffix"},
	{"/secret::$INDEX_ALLOCATION/x", "NTFS directory stream"},
	{"/secret:stream:$DATA", "NTFS named stream"},
	{"/secret:$I30:$INDEX_ALLOCATION/x", "NTFS directory index stream"},
	{"/secret::$DATA.", "stream then trailing dot"},
	{"/secret%252e", "double encoding, trailing dot"},
	{"/%2573ecret", "double encoding"},
	{"/%u0073ecret", "IIS %u escape"},
	{"/secret%u002e", "IIS %u trailing dot"},
	{"/x/%u002e%u002e/secret", "IIS %u dot segment"},
	{"/\uff53\uff45\uff43\uff52\uff45\uff54", "full-width letters (NFKC)"},
	{"/%EF%BD%93ecret", "full-width s, encoded"},
	{"/\u017fecret", "long s (NFKC, case folding)"},
	{"/secret\uff0e", "full-width trailing dot"},
	{"/x\uff0f..\uff0fsecret", "full-width slash U+FF0F"},
	{"/x%EF%BC%8F%EF%BC%8E%EF%BC%8E%EF%BC%8Fsecret", "full-width slash and dots, encoded"},
	{"/x/\uff0e\uff0e/secret", "full-width dots U+FF0E"},
	{"/x/\u2024\u2024/secret", "one dot leaders U+2024"},
	{"/x\u2215..\u2215secret", "division slash U+2215 (best fit)"},
	{"/x\u2044..\u2044secret", "fraction slash U+2044"},
	{"/x\uff3c..\uff3csecret", "full-width backslash U+FF3C"},
	{"/x\u2216..\u2216secret", "set minus U+2216"},
	{"/x\u00a5..\u00a5secret", "yen sign (cp932 best fit)"},
	{"/x\u20a9..\u20a9secret", "won sign (cp949 best fit)"},
	{"/x/%c0%ae%c0%ae/secret", "overlong UTF-8 dots"},
	{"/x/%C0%AE%C0%AE/secret", "overlong UTF-8 dots, upper case"},
	{"/x/%e0%80%ae%e0%80%ae/secret", "three-byte overlong dots"},
	{"/x/%f0%80%80%ae%f0%80%80%ae/secret", "four-byte overlong dots"},
	{"/x%c0%af..%c0%afsecret", "overlong UTF-8 slash"},
	{"/x%c1%9c..%c1%9csecret", "overlong UTF-8 backslash"},
	{"/x/%c0%2e%c0%2e/secret", "lax overlong dots (IIS)"},
	{"/x%c1%1c..%c1%1csecret", "lax overlong backslash (CVE-2000-0884)"},
	{"/x/..%5csecret", "encoded backslash"},
	{"/secret;jsessionid=1", "Tomcat path parameter"},
	{"/x;/../secret", "parameter before a dot segment"},
	{"/x/..%00/secret", "NUL after a dot segment"},
	{"/x/..%20/secret", "dot segment with a trailing space"},
	{"/x/..::$DATA/secret", "dot segment with a stream suffix"},
}

// Paths that escape an allow rule for /public in some reading: an allow
// rule must not let any of them through.
var publicEscapes = []struct{ uri, who string }{
	{"/public/%c0%ae%c0%ae/admin", "overlong UTF-8 dots"},
	{"/public/%C0%AE%C0%AE/admin", "overlong UTF-8 dots, upper case"},
	{"/public/%e0%80%ae%e0%80%ae/admin", "three-byte overlong dots"},
	{"/public%c0%af..%c0%afadmin", "overlong UTF-8 slash"},
	{"/public/..%c0%afadmin", "overlong UTF-8 slash after a dot segment"},
	{"/public%c1%9c..%c1%9cadmin", "overlong UTF-8 backslash"},
	{"/public%c1%1c..%c1%1cadmin", "lax overlong backslash (CVE-2000-0884)"},
	{"/public/\uff0e\uff0e/admin", "full-width dots"},
	{"/public/%EF%BC%8E%EF%BC%8E/admin", "full-width dots, encoded"},
	{"/public\uff0f..\uff0fadmin", "full-width slash"},
	{"/public\u2215..\u2215admin", "division slash"},
	{"/public\u2044..\u2044admin", "fraction slash"},
	{"/public\uff3c..\uff3cadmin", "full-width backslash"},
	{"/public\u00a5..\u00a5admin", "yen sign"},
	{"/public/\u2024\u2024/admin", "one dot leaders"},
	{"/public/%u002e%u002e/admin", "IIS %u dots"},
	{"/public%u2215..%u2215admin", "IIS %u division slash"},
	{"/public/..%20/admin", "dot segment with a trailing space"},
	{"/public/.. /admin", "dot segment with a trailing space, raw"},
	{"/public/..%09/admin", "dot segment with a trailing tab"},
	{"/public/..::$DATA/admin", "dot segment with a stream suffix"},
	{"/public/..:$I30:$INDEX_ALLOCATION/admin", "dot segment with a directory stream"},
	{"/public::$DATA/../admin", "stream suffix before a dot segment"},
	{"/public/x%00/../../admin", "NUL before dot segments"},
}

// TestDenyMatchesNormalisedReadings: a deny rule for /secret refuses every
// reading above, while the rest of the site stays open.
func TestDenyMatchesNormalisedReadings(t *testing.T) {
	s := mustCompile(t, []Rule{
		{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/secret"}}},
		{Action: Allow},
	}, Authenticate, nil)
	for _, tt := range secretReadings {
		t.Run(tt.who, func(t *testing.T) {
			r := Request{Method: "GET", URI: tt.uri}
			if d := s.Decide(&r); d.Action != Deny {
				t.Errorf("%q (%s): %s, want deny; readings %q", tt.uri, tt.who, d.Action, r.Path().readings())
			}
		})
	}
	for _, uri := range []string{"/secretary", "/secrets/x", "/x/secret.", "/x/%2e%2esecret", "/public/caf%C3%A9", "/x:y"} {
		if d := s.Decide(&Request{Method: "GET", URI: uri}); d.Action != Allow {
			t.Errorf("%q: %s, want allow", uri, d.Action)
		}
	}
}

// TestAllowRefusesNormalisedEscapes: an allow rule for /public lets none of
// the escapes through, and still opens what every reading puts below it.
func TestAllowRefusesNormalisedEscapes(t *testing.T) {
	s := mustCompile(t, []Rule{{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/public"}}}}, Authenticate, nil)
	for _, tt := range publicEscapes {
		t.Run(tt.who, func(t *testing.T) {
			r := Request{Method: "GET", URI: tt.uri}
			if d := s.Decide(&r); d.Action != Authenticate {
				t.Errorf("%q (%s): %s, want authenticate; readings %q", tt.uri, tt.who, d.Action, r.Path().readings())
			}
		})
	}
	for _, uri := range []string{"/public/x", "/public/app.3f.js", "/public/caf%C3%A9", "/public/café", "/public/x.",
		"/public/a:b", "/public/@alice:example.org", "/public/x%20y", "/%70ublic/x", "/public/\uff46\uff49\uff4c\uff45", "/public/%c3%a9t%c3%a9/"} {
		r := Request{Method: "GET", URI: uri}
		if d := s.Decide(&r); d.Action != Allow {
			t.Errorf("%q: %s, want allow; readings %q ambiguous %v", uri, d.Action, r.Path().readings(), r.Path().Ambiguous)
		}
	}
}

// An allow rule for an exact path with a colon (Google-style actions,
// Matrix IDs) still matches: only ":$" starts a stream suffix.
func TestAllowExactPathWithColon(t *testing.T) {
	s := mustCompile(t, []Rule{{Action: Allow, Paths: []PathMatch{{Type: PathExact, Value: "/v1/items:batchGet"}}}}, Authenticate, nil)
	if d := s.Decide(&Request{Method: "GET", URI: "/v1/items:batchGet"}); d.Action != Allow {
		t.Fatalf("/v1/items:batchGet: %s, want allow", d.Action)
	}
	if d := s.Decide(&Request{Method: "GET", URI: "/v1/items:batchGet."}); d.Action != Authenticate {
		t.Fatalf("/v1/items:batchGet.: %s, want authenticate (it also reads as /v1/items:batchGet)", d.Action)
	}
}

// TestReadingsAreBounded: a hostile path costs bounded work; past the
// budget it matches every deny rule and no allow rule.
func TestReadingsAreBounded(t *testing.T) {
	hostile := "/public/" + strings.Repeat(`%c0%ae%EF%BC%8F.;x:\%252e%u002e `, 16384/32)
	p := ParsePath(hostile)
	if !p.Overflow || !p.Ambiguous {
		t.Fatalf("a 16 KiB hostile path: overflow %v ambiguous %v", p.Overflow, p.Ambiguous)
	}
	total := 0
	for _, r := range p.readings() {
		total += len(r)
	}
	if total > readingBudget {
		t.Fatalf("readings hold %d bytes, over the budget of %d", total, readingBudget)
	}
	deny := mustCompile(t, []Rule{{Action: Deny, Paths: []PathMatch{{Type: PathExact, Value: "/nowhere"}}}, {Action: Allow}}, Authenticate, nil)
	if d := deny.Decide(&Request{Method: "GET", URI: hostile}); d.Action != Deny {
		t.Fatalf("overflowing path: %s, want deny", d.Action)
	}
	// A long path with escapes but few readings is judged normally.
	long := "/public/" + strings.Repeat("caf%C3%A9/", 1600)
	if p := ParsePath(long); p.Overflow || p.Ambiguous {
		t.Fatalf("a long clean path: overflow %v ambiguous %v", p.Overflow, p.Ambiguous)
	}
}

// UnderPrefix, which bounds a machine token's scope, holds the same line
// as allow rules: every reading must stay below the prefix.
func TestUnderPrefixEveryReading(t *testing.T) {
	for uri, want := range map[string]bool{
		"/dav/x": true, "/dav/x.": true, "/dav/caf%C3%A9": true,
		"/dav/%c0%ae%c0%ae/admin": false, "/dav/\uff0e\uff0e/admin": false, "/dav/..%20/admin": false,
		"/dav/..::$DATA/admin": false, "/dav%c0%af..%c0%afadmin": false,
	} {
		if got := UnderPrefix(uri, "/dav"); got != want {
			t.Errorf("UnderPrefix(%q, /dav) = %v, want %v", uri, got, want)
		}
	}
}
