package paneladdr

import (
	"context"
	"errors"
	"testing"
)

func domain(d string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return d, nil }
}

func TestAddress(t *testing.T) {
	tests := []struct {
		name                 string
		internal, public     string
		adminDomain          string
		bound                string // "" leaves it unbound
		listen, intl, fwd    string
		provider, publicWant string
	}{
		{name: "nothing known", provider: "http://127.0.0.1:8080"},
		{name: "bound on loopback", bound: "127.0.0.1:9000",
			listen: "http://127.0.0.1:9000", intl: "http://127.0.0.1:9000", fwd: "http://127.0.0.1:9000",
			provider: "http://127.0.0.1:9000", publicWant: "http://127.0.0.1:9000"},
		{name: "wildcard bind is reached on loopback", bound: "[::]:8080",
			listen: "http://127.0.0.1:8080", intl: "http://127.0.0.1:8080", fwd: "http://127.0.0.1:8080",
			provider: "http://127.0.0.1:8080", publicWant: "http://[::]:8080"},
		{name: "IPv6 loopback", bound: "[::1]:8080",
			listen: "http://[::1]:8080", intl: "http://[::1]:8080", fwd: "http://[::1]:8080",
			provider: "http://[::1]:8080", publicWant: "http://[::1]:8080"},
		{name: "admin domain", adminDomain: "panel.example.com", bound: "0.0.0.0:8080",
			listen: "http://127.0.0.1:8080", intl: "http://127.0.0.1:8080", fwd: "https://panel.example.com",
			provider: "http://127.0.0.1:8080", publicWant: "https://panel.example.com"},
		{name: "internal URL", internal: "http://gatehouse:8080", adminDomain: "panel.example.com", bound: "0.0.0.0:8080",
			listen: "http://127.0.0.1:8080", intl: "http://gatehouse:8080", fwd: "http://gatehouse:8080",
			provider: "http://gatehouse:8080", publicWant: "https://panel.example.com"},
		{name: "internal URL without admin domain", internal: "http://gatehouse:8080",
			intl: "http://gatehouse:8080", fwd: "http://gatehouse:8080",
			provider: "http://gatehouse:8080", publicWant: "http://gatehouse:8080"},
		{name: "public URL", public: "https://login.example.com", adminDomain: "panel.example.com", bound: "127.0.0.1:8080",
			listen: "http://127.0.0.1:8080", intl: "http://127.0.0.1:8080", fwd: "https://panel.example.com",
			provider: "http://127.0.0.1:8080", publicWant: "https://login.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(tt.internal, tt.public, domain(tt.adminDomain))
			if tt.bound != "" {
				a.Bind(tt.bound)
			}
			pub, err := a.Public(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			got := []string{a.Listen(), a.Internal(), a.ForwardAuth(tt.adminDomain), a.Provider(), pub, a.PublicSetting()}
			want := []string{tt.listen, tt.intl, tt.fwd, tt.provider, tt.publicWant, tt.public}
			for i, what := range []string{"Listen", "Internal", "ForwardAuth", "Provider", "Public", "PublicSetting"} {
				if got[i] != want[i] {
					t.Errorf("%s = %q, want %q", what, got[i], want[i])
				}
			}
		})
	}
}

func TestPublicPassesTheSettingsError(t *testing.T) {
	boom := errors.New("database is gone")
	a := New("", "", func(context.Context) (string, error) { return "", boom })
	if _, err := a.Public(t.Context()); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
}

func TestNilKnowsNoAddress(t *testing.T) {
	var a *Address
	if a.Listen() != "" || a.Internal() != "" || a.ForwardAuth("") != "" || a.PublicSetting() != "" {
		t.Fatal("a nil address answered an address")
	}
	if a.ForwardAuth("panel.example.com") != "https://panel.example.com" {
		t.Fatal("ForwardAuth ignored the admin domain")
	}
}

func TestPortalURL(t *testing.T) {
	for _, tc := range []struct{ override, host, want string }{
		{"", "", ""},
		{"http://auth.localhost:8080", "", ""},
		{"", "auth.example.com", "https://auth.example.com"},
		{"http://auth.localhost:8080", "auth.localhost", "http://auth.localhost:8080"},
		{"http://other.example.com", "auth.example.com", "https://auth.example.com"},
	} {
		if got := PortalURL(tc.override, tc.host); got != tc.want {
			t.Errorf("PortalURL(%q, %q) = %q, want %q", tc.override, tc.host, got, tc.want)
		}
	}
}
