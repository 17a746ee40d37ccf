package admin

import (
	"strings"
	"testing"
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
