package validate

import (
	"strings"
	"testing"
)

func TestHostname(t *testing.T) {
	tests := []struct {
		name     string
		wildcard bool
		ok       bool
	}{
		{"example.com", false, true},
		{"a-b.c0.example", false, true},
		{"localhost", false, true},
		{"xn--bcher-kva.example", false, true},
		{"*.example.com", true, true},
		{"*.example.com", false, false},
		{"a.*.example.com", true, false},
		{"", false, false},
		{"-a.com", false, false},
		{"a-.com", false, false},
		{"a..com", false, false},
		{"ex ample.com", false, false},
		{"ex`ample.com", false, false},
		{"example.com`) || Host(`evil", false, false},
		{"a(b).com", false, false},
		{"UPPER.com", false, false}, // callers normalize first
		{"under_score.com", false, false},
		{strings.Repeat("a", 64) + ".com", false, false},
		{strings.Repeat("a.", 127) + "aa", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Hostname(tt.name, tt.wildcard); (err == nil) != tt.ok {
				t.Fatalf("Hostname(%q, %v) = %v; want ok=%v", tt.name, tt.wildcard, err, tt.ok)
			}
		})
	}
}

func TestTargetHost(t *testing.T) {
	for _, ok := range []string{"10.0.0.1", "::1", "[::1]", "whoami", "my_app.internal", "App1"} {
		if err := TargetHost(ok); err != nil {
			t.Errorf("TargetHost(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "a/b", "a:80", "a`b", "http://x", "a..b"} {
		if err := TargetHost(bad); err == nil {
			t.Errorf("TargetHost(%q) accepted", bad)
		}
	}
}

// FuzzHostname proves that nothing accepted can break out of a backtick-quoted
// Traefik rule or a URL authority.
func FuzzHostname(f *testing.F) {
	for _, s := range []string{"example.com", "*.a.b", "a`b", "a b", "a)b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeHostname(s)
		if Hostname(n, true) == nil && strings.ContainsAny(n, "`\"' ()|&!/\\:@?#[]{}\t\r\n\x00") {
			t.Fatalf("accepted %q", n)
		}
		if TargetHost(s) == nil && strings.ContainsAny(strings.Trim(s, "[]"), "`\"' ()|&!/\\@?#{}\t\r\n\x00") {
			t.Fatalf("accepted target %q", s)
		}
	})
}
