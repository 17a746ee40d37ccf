package rules

import (
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
