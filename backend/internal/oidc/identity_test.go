package oidc

import (
	"reflect"
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
