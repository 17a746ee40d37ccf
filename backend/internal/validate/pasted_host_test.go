package validate

import (
	"errors"
	"strings"
	"testing"
)

func TestPastedHostname(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{"example.com", "example.com", nil},
		{"  https://Example.com/ ", "example.com", nil},
		{"HTTP://example.com", "example.com", nil},
		{"example.com.", "example.com", nil},
		{"https://example.com:8443", "", ErrHostnameNotAlone},
		{"https://example.com/app", "", ErrHostnameNotAlone},
		{"https://user@example.com", "", ErrHostnameNotAlone},
		{"example.com?x", "", ErrHostnameNotAlone},
		{"ftp://example.com", "", ErrHostnameNotAlone},
		{strings.Repeat("a", 400), "", ErrHostnameTooLong},
	}
	for _, tc := range tests {
		got, err := PastedHostname(tc.in)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("PastedHostname(%q) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// FuzzPastedHostname: whatever is pasted, the answer is an error or a name
// Hostname may then judge, never with a
// scheme, slash, colon or at sign left in it (invalid UTF-8 may grow under
// NormalizeHostname's lower-casing; Hostname refuses it).
func FuzzPastedHostname(f *testing.F) {
	for _, s := range []string{"https://Example.com/", "example.com", "http://a:1/b", "", "https://", "*.x.test"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := PastedHostname(s)
		if err != nil {
			if got != "" {
				t.Fatalf("error %v with a name %q", err, got)
			}
			return
		}
		if strings.ContainsAny(got, "/:@?#") {
			t.Fatalf("PastedHostname(%q) = %q", s, got)
		}
		_ = Hostname(got, true)
	})
}
