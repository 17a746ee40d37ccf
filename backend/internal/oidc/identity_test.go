package oidc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestIdentityOf(t *testing.T) {
	tests := []struct {
		name   string
		claims map[string]any
		want   Identity
	}{
		{"username first", map[string]any{"preferred_username": "ana", "email": "a@example.com", "email_verified": true, "groups": []any{"ops", "dev", "ops"}},
			Identity{Username: "ana", Email: "a@example.com", EmailVerified: true, User: "ana", Name: "ana", Groups: []string{"ops", "dev"}}},
		{"verified e-mail when no username", map[string]any{"email": "a@example.com", "email_verified": "true", "name": "Ana"},
			Identity{Email: "a@example.com", EmailVerified: true, User: "a@example.com", Name: "Ana", Groups: []string{}}},
		{"never an unverified e-mail", map[string]any{"email": "a@example.com", "groups": " ops , ,dev"},
			Identity{Email: "a@example.com", User: "sub-1", Name: "sub-1", Groups: []string{"ops", "dev"}}},
		{"a comma inside a listed group", map[string]any{"groups": []any{"a,b", 7}},
			Identity{User: "sub-1", Name: "sub-1", Groups: []string{"a b"}}},
		{"overlong claims are bounded", map[string]any{"preferred_username": strings.Repeat("é", 200), "name": strings.Repeat("n", 300),
			"email": strings.Repeat("a", 250) + "@x.io", "email_verified": true, "groups": []any{strings.Repeat("g", 257), "ops"}},
			Identity{Username: strings.Repeat("é", 128), EmailVerified: true, User: strings.Repeat("é", 128), Name: strings.Repeat("n", 256), Groups: []string{"ops"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Issuer, tt.want.Subject = "https://id.example.com", "sub-1"
			got := identityOf("https://id.example.com", "sub-1", tt.claims, "groups")
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("identityOf:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestMultiFactor(t *testing.T) {
	tests := []struct {
		name   string
		claims map[string]any
		want   bool
	}{
		{"nothing said", map[string]any{}, false},
		{"password only", map[string]any{"amr": []any{"pwd"}}, false},
		{"mfa in amr", map[string]any{"amr": []any{"pwd", "otp", "mfa"}}, true},
		{"a factor without mfa", map[string]any{"amr": []any{"hwk"}}, false},
		{"amr as a string is not a list", map[string]any{"amr": "mfa"}, false},
		{"phishing-resistant acr", map[string]any{"acr": "phrh"}, true},
		{"PAPE multi-factor acr", map[string]any{"acr": "http://schemas.openid.net/pape/policies/2007/06/multi-factor"}, true},
		{"another acr", map[string]any{"acr": "1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := identityOf("https://id.example.com", "s", tt.claims, "groups").MultiFactor(); got != tt.want {
				t.Errorf("MultiFactor = %v; want %v", got, tt.want)
			}
		})
	}
}

// A provider naming thousands of groups gives the first maxGroups: the
// directory's sync compares each with every group of the directory.
func TestGroupsClaimIsBounded(t *testing.T) {
	many := make([]any, 10_000)
	for i := range many {
		many[i] = fmt.Sprintf("group-%d", i)
	}
	got := identityOf("https://id.example.com", "sub-1", map[string]any{"groups": many}, "groups").Groups
	if len(got) != maxGroups || got[0] != "group-0" || got[maxGroups-1] != fmt.Sprintf("group-%d", maxGroups-1) {
		t.Fatalf("%d groups kept, first %q", len(got), got[0])
	}
}
