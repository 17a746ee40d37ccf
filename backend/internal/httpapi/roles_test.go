package httpapi_test

import (
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
)

// The route walk (app.TestRoleDecisions) covers every registered route;
// this table pins the edges: the self-service prefix, tokens on person-only
// routes, and actors the table does not know.
func TestDecide(t *testing.T) {
	admin := actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleAdmin}
	viewer := actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleViewer}
	adminToken := actor.Actor{Kind: actor.KindToken, Role: actor.RoleAdmin}
	viewerToken := actor.Actor{Kind: actor.KindToken, Role: actor.RoleViewer}
	tests := []struct {
		name          string
		who           actor.Actor
		method, route string
		allowed       bool
	}{
		{"viewer, planned own 2FA route", viewer, "POST", "/api/admin/me/2fa/totp", true},
		{"viewer, own password", viewer, "PUT", "/api/admin/me/password", true},
		{"viewer token, own sessions", viewerToken, "GET", "/api/admin/me/sessions", false},
		{"admin token, me", adminToken, "GET", "/api/admin/me", false},
		{"admin token, sign out", adminToken, "POST", "/api/admin/logout", false},
		{"viewer, a read", viewer, "GET", "/api/services", true},
		{"viewer, the secret preview", viewer, "GET", "/api/proxy/config/preview", false},
		{"admin, the secret preview", admin, "GET", "/api/proxy/config/preview", true},
		{"viewer, a write", viewer, "DELETE", "/api/services/:id", false},
		{"admin token, a write", adminToken, "PUT", "/api/config", true},
		{"admin token, new administrator", adminToken, "POST", "/api/admin/users", false},
		{"admin token, reset a password", adminToken, "PUT", "/api/admin/users/:id/password", false},
		{"admin token, revoke a token", adminToken, "DELETE", "/api/admin/tokens/:id", false},
		{"admin token, list tokens", adminToken, "GET", "/api/admin/tokens", true},
		{"admin token, a route that only starts alike", adminToken, "POST", "/api/admin/usersx", true},
		{"admin token, require two-factor", adminToken, "PUT", "/api/admin/security", false},
		{"admin token, administrators' SSO", adminToken, "PUT", "/api/admin/sso", false},
		{"admin token, the OpenID provider", adminToken, "PUT", "/api/sso", false},
		{"viewer token, the OpenID provider", viewerToken, "PUT", "/api/sso", false},
		{"admin token, reads the OpenID provider", adminToken, "GET", "/api/sso", true},
		{"admin session, the OpenID provider", admin, "PUT", "/api/sso", true},
		{"unknown role", actor.Actor{Kind: actor.KindAdmin, Role: "owner"}, "GET", "/api/services", false},
		{"no role", actor.Actor{Kind: actor.KindToken}, "GET", "/api/services", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := httpapi.Decide(tt.who, tt.method, tt.route)
			if tt.allowed && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tt.allowed && !apperr.IsCode(err, apperr.CodeForbidden) {
				t.Fatalf("Decide = %v; want forbidden", err)
			}
		})
	}
}
