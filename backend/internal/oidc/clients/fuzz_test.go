package clients

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// FuzzCheckURI: whatever the input, checking a redirect URI never panics,
// and what it accepts is absolute, bounded, without fragment or wildcard,
// and https unless it is loopback http or a native app's scheme.
func FuzzCheckURI(f *testing.F) {
	for _, s := range []string{"https://app.example.com/cb", "http://localhost:1/x", "app.immich:///oauth-callback",
		"com.example.app:/cb", "https://a/#", "javascript:alert(1)", "https://[::1", "http://[::1]/", "x:", "%zz"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, serverSide bool) {
		if checkURI(s, serverSide) != "" {
			return
		}
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || len(s) > maxURI || strings.ContainsAny(s, "#* ") {
			t.Fatalf("accepted %q", s)
		}
		if u.Scheme == "http" && !loopback(u.Hostname()) {
			t.Fatalf("accepted plain http %q", s)
		}
		if serverSide && u.Scheme != "https" && u.Scheme != "http" {
			t.Fatalf("accepted a private-use scheme server-side: %q", s)
		}
	})
}

// FuzzNormalize: any JSON body, once bound, is either refused with field
// errors (never a panic) or yields a client within every bound.
func FuzzNormalize(f *testing.F) {
	for _, p := range Presets() {
		b, _ := json.Marshal(p.Input(p.Name, "app.example.com"))
		f.Add(b)
	}
	f.Add([]byte(`{"name":"x","redirectUris":["https://a.example/cb"],"claimMappings":[{"claim":"r","kind":"groups","values":[{"group":"g","value":"v"}]}]}`))
	f.Add([]byte(`{"name":"x","grantTypes":["urn:ietf:params:oauth:grant-type:device_code"],"public":true}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var in Input
		if json.Unmarshal(body, &in) != nil {
			return
		}
		err := in.normalize()
		if err != nil {
			if _, ok := apperr.As(err); !ok {
				t.Fatalf("not a client error: %v", err)
			}
			return
		}
		if in.Name == "" || len(in.RedirectURIs) > maxURIs || len(in.PostLogoutRedirectURIs) > maxURIs ||
			len(in.AllowedGroupIDs) > maxGroups || len(in.ClaimMappings) > maxMappings ||
			len(in.Scopes) == 0 || in.Scopes[0] != ScopeOpenID || len(in.GrantTypes) == 0 {
			t.Fatalf("accepted out of bounds: %+v", in)
		}
		for _, u := range in.RedirectURIs {
			if checkURI(u, false) != "" {
				t.Fatalf("accepted redirect %q", u)
			}
		}
		if in.AccessTokenTTLSeconds < minTokenTTL || in.AccessTokenTTLSeconds > maxTokenTTL ||
			in.RefreshTokenTTLSeconds < minRefreshTTL || in.RefreshTokenTTLSeconds > maxRefreshTTL {
			t.Fatalf("accepted lifetimes %+v", in)
		}
		for _, m := range in.ClaimMappings {
			if reservedClaims[m.Claim] || !claimName(m.Claim) {
				t.Fatalf("accepted claim %q", m.Claim)
			}
		}
	})
}
