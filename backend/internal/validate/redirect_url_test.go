package validate

import (
	"regexp"
	"strings"
	"testing"
)

func TestRedirectURL(t *testing.T) {
	tests := []struct {
		url  string
		keep bool
		ok   bool
	}{
		{"https://example.com", false, true},
		{"https://example.com/new/?a=1#top", false, true},
		{"http://10.0.0.1:8080/x", true, true},
		{"https://[fd00::1]/", true, true},
		{"https://example.com/a$1", true, true},
		{"", false, false},
		{"example.com", false, false},
		{"ftp://example.com/", false, false},
		{"javascript:alert(1)", false, false},
		{"https://user:pw@example.com/", false, false},
		{"https://exa mple.com/", false, false},
		{"https://example.com/`x`", false, false},
		{"https://example.com/\"x", false, false},
		{"https://example.com/\n", false, false},
		{"https://ex_am!ple.com/", false, false},
		{"https:///path", false, false},
		{"https://example.com/?q=1", true, false},
		{"https://example.com/#f", true, false},
		{"https://example.com:0/", false, false},
		{"https://example.com/" + strings.Repeat("a", MaxRedirectURLLen), false, false},
	}
	for _, tc := range tests {
		err := RedirectURL(tc.url, tc.keep)
		if (err == nil) != tc.ok {
			t.Errorf("RedirectURL(%q, %v) = %v, want ok %v", tc.url, tc.keep, err, tc.ok)
		}
	}
}

func TestRedirectRewrite(t *testing.T) {
	tests := []struct {
		target, request string
		keep            bool
		want            string
	}{
		{"https://new.test", "http://old.test/a/b?c=d", true, "https://new.test/a/b?c=d"},
		{"https://new.test/base/", "https://old.test:8443/a?x=$1", true, "https://new.test/base/a?x=$1"},
		{"https://new.test/$1${2}", "http://old.test/p", true, "https://new.test/$1${2}/p"},
		{"https://new.test/page?x=1", "http://old.test/a/b?c=d", false, "https://new.test/page?x=1"},
		{"https://new.test/$x", "http://old.test/", false, "https://new.test/$x"},
	}
	for _, tc := range tests {
		if got := rewrite(tc.target, tc.request, tc.keep); got != tc.want {
			t.Errorf("%s + %s (keep %v) = %s, want %s", tc.target, tc.request, tc.keep, got, tc.want)
		}
	}
}

// rewrite does what Traefik's redirectRegex does with the regex and
// replacement: ReplaceAllString over the request URL.
func rewrite(target, request string, keep bool) string {
	return regexp.MustCompile(RedirectRegex(keep)).ReplaceAllString(request, RedirectReplacement(target, keep))
}

// FuzzRedirectReplacement: for every accepted target, the rewrite of any request
// URL is the target itself (keepPath off) or the target followed by the
// request's path and query (on): no '$' of the target or the request is
// ever expanded.
func FuzzRedirectReplacement(f *testing.F) {
	f.Add("https://new.test/", "/a?b=c", true)
	f.Add("https://new.test/$1", "/$2", false)
	f.Add("http://h:1/${x}$$", "/", true)
	f.Fuzz(func(t *testing.T, target, path string, keep bool) {
		if RedirectURL(target, keep) != nil || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "\n\r") {
			return
		}
		got := rewrite(target, "http://old.test"+path, keep)
		want := target
		if keep {
			want = strings.TrimSuffix(target, "/") + path
		}
		if got != want {
			t.Fatalf("rewrite(%q, %q, %v) = %q, want %q", target, path, keep, got, want)
		}
	})
}
