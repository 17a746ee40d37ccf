package rules

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// oracleReadings is the reference list of plausible readings, built the
// slow, obvious way: every decode level times every subset of the optional
// steps, with no trigger test, deduplication or budget. It shares only the
// tables of single steps with the code under test.
func oracleReadings(uri string) []string {
	raw, _, _ := strings.Cut(uri, "?")
	raw, _, _ = strings.Cut(raw, "#")
	levels := []string{raw}
	for i := 0; i < maxDecodes; i++ {
		levels = append(levels, oracleDecode(levels[len(levels)-1]))
	}
	steps := []func(string) string{
		func(s string) string {
			if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) {
				return s
			}
			return strings.Map(func(r rune) rune {
				if m, ok := lookalikes[r]; ok {
					return m
				}
				return r
			}, norm.NFKC.String(decodeOverlong(s)))
		},
		func(s string) string { v, _, _ := strings.Cut(s, "\x00"); return v },
		func(s string) string { return strings.ReplaceAll(s, `\`, "/") },
		func(s string) string { return regexp.MustCompile(`;[^/]*`).ReplaceAllString(s, "") },
		func(s string) string {
			segs := strings.Split(s, "/")
			for i, seg := range segs {
				if strings.Contains(seg, ":$") {
					seg, _, _ = strings.Cut(seg, ":")
				}
				seg = strings.TrimFunc(seg, func(r rune) bool { return r <= ' ' })
				if seg != "." && seg != ".." {
					seg = strings.TrimRight(seg, ". \x00\t\n\v\f\r")
				}
				segs[i] = seg
			}
			return strings.Join(segs, "/")
		},
	}
	var out []string
	for _, l := range levels {
		for mask := 0; mask < 1<<len(steps); mask++ {
			s := l
			for i, step := range steps {
				if mask&(1<<i) != 0 {
					s = step(s)
				}
			}
			out = append(out, cleanPath(s))
		}
	}
	return out
}

var oracleEscape = regexp.MustCompile(`%[0-9a-fA-F]{2}|%[uU][0-9a-fA-F]{4}`)

func oracleDecode(s string) string {
	return oracleEscape.ReplaceAllStringFunc(s, func(e string) string {
		if len(e) == 3 {
			b, _ := strconv.ParseUint(e[1:], 16, 8)
			return string([]byte{byte(b)})
		}
		r, _ := strconv.ParseUint(e[2:], 16, 16)
		return string(rune(r))
	})
}

// under reports whether p is prefix or below it, by whole segments.
func under(p, prefix string, fold bool) bool {
	if len(p) < len(prefix) {
		return false
	}
	head := p[:len(prefix)]
	same := head == prefix || fold && strings.EqualFold(head, prefix)
	return same && (len(p) == len(prefix) || p[len(prefix)] == '/')
}

// FuzzPathReadings checks the two promises of the rules against the
// reference readings: if an allow rule for /public matches, no reading
// leaves /public; if any reading is /secret or below, a deny rule for
// /secret matches.
func FuzzPathReadings(f *testing.F) {
	for _, tt := range secretReadings {
		f.Add(tt.uri)
	}
	for _, tt := range publicEscapes {
		f.Add(tt.uri)
	}
	for _, s := range []string{"/public/x", "/public/x.", "/public/a:b", "/%70ublic/x", "/public/caf%C3%A9", "/public/%u002e"} {
		f.Add(s)
	}
	allow, err := Compile(nil, []Rule{{Action: Allow, Paths: []PathMatch{{Type: PathPrefix, Value: "/public"}}}}, Authenticate, nil)
	if err != nil {
		f.Fatal(err)
	}
	deny, err := Compile(nil, []Rule{{Action: Deny, Paths: []PathMatch{{Type: PathPrefix, Value: "/secret"}}}, {Action: Allow}}, Authenticate, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		if len(uri) > 512 || !strings.HasPrefix(uri, "/") {
			return // the oracle is exponential in nothing but slow; keep it short
		}
		readings := oracleReadings(uri)
		if d := allow.Decide(&Request{Method: "GET", URI: uri}); d.Action == Allow {
			for _, r := range readings {
				// Escapes of bytes that are not separators leave the
				// segments alone (an upstream that does not decode).
				if d, ok, structural := decodeOnce(r); ok && !structural {
					r = d
				}
				if !under(r, "/public", false) {
					t.Fatalf("%q: allowed by the rule for /public, but reads as %q", uri, r)
				}
			}
		}
		for _, r := range readings {
			if under(r, "/secret", true) {
				if d := deny.Decide(&Request{Method: "GET", URI: uri}); d.Action != Deny {
					t.Fatalf("%q: reads as %q, but the rule for /secret did not match (%s)", uri, r, d.Action)
				}
				break
			}
		}
	})
}
