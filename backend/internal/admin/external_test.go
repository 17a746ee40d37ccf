package admin

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestExternalUsername(t *testing.T) {
	tests := []struct {
		name string
		ext  External
		want string
	}{
		{"preferred username", External{Username: "jane.doe", Email: "jane@example.com"}, "jane.doe"},
		{"characters a username may not hold", External{Username: "Jane Doe (ops)"}, "Jane-Doe--ops"},
		{"no username: the email", External{Email: "jane@example.com"}, "jane@example.com"},
		{"nothing usable: the subject's hash", External{Issuer: "https://id.test", Subject: "42", Username: "éé"}, "sso-"},
		{"too long", External{Username: strings.Repeat("a", 80)}, strings.Repeat("a", 64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := externalUsername(tt.ext)
			if !strings.HasPrefix(got, tt.want) || !usernameRE.MatchString(got) {
				t.Fatalf("externalUsername = %q; want %q", got, tt.want)
			}
		})
	}
}

// An administrator created by SSO has no password: password sign-in fails
// for them like for an unknown username.
func TestExternalAdministratorHasNoPassword(t *testing.T) {
	svc := NewService(Deps{DB: testutil.NewDB(t), Now: time.Now, BcryptCost: bcrypt.MinCost})
	u, _, err := svc.SignInExternal(t.Context(), External{Issuer: "https://id.test", Subject: "1", Username: "ada",
		Role: "admin", Create: true}, Client{Address: "192.0.2.1"})
	if err != nil || u.Username != "ada" {
		t.Fatalf("SignInExternal = %+v, %v", u, err)
	}
	for _, pw := range []string{"", "anything-at-all"} {
		if _, _, err := svc.Login(t.Context(), "ada", pw, Client{Address: "192.0.2.1"}); err == nil {
			t.Fatalf("password %q signed in", pw)
		}
	}
}
