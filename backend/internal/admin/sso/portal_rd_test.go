package sso

import (
	"net/url"
	"strings"
	"testing"
)

const testPortalURL = "https://auth.example.com"

func TestPortalRD(t *testing.T) {
	for rd, want := range map[string]string{
		"":                         "",
		testPortalURL + "/account": testPortalURL + "/account",
		"https://AUTH.example.com/api/portal/continue?rd=x": "https://AUTH.example.com/api/portal/continue?rd=x",
		"https://evil.example.net/":                         "",
		"//evil.example.net/":                               "",
		"/account":                                          "",
		"http://auth.example.com/":                          "",
		"https://auth.example.com:8443/":                    "",
		"https://user@auth.example.com/":                    "",
		"https://auth.example.com//evil.example.net":        "",
		"https://auth.example.com":                          "",
		"https://auth.example.com/\\evil":                   "",
		"javascript:alert(1)":                               "",
		testPortalURL + "/" + strings.Repeat("a", maxRD):    "",
	} {
		if got := portalRD(rd, testPortalURL); got != want {
			t.Errorf("portalRD(%q) = %q; want %q", rd, got, want)
		}
	}
	if got := portalRD(testPortalURL+"/x", ""); got != "" {
		t.Errorf("without a portal address: %q", got)
	}
}

// FuzzPortalRD: whatever rd holds, what is kept is an address on the
// portal itself.
func FuzzPortalRD(f *testing.F) {
	for _, s := range []string{testPortalURL + "/a?b=c", "//x", "https://auth.example.com@evil/", "https://auth.example.com/%2f%2fx", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rd string) {
		got := portalRD(rd, testPortalURL)
		if got == "" {
			return
		}
		u, err := url.Parse(got)
		if err != nil || !strings.EqualFold(u.Host, "auth.example.com") || !strings.EqualFold(u.Scheme, "https") ||
			!strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || u.User != nil {
			t.Fatalf("portalRD(%q) kept %q", rd, got)
		}
	})
}
