package httpapi_test

import (
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// The route walk (app.TestRoleDecisions) covers every registered route;
// this table pins the edges: self-service for people and tokens, tokens on
// person-only routes, secret reads, and actors the table does not know.
func TestDecide(t *testing.T) {
	admin := actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleAdmin}
	viewer := actor.Actor{Kind: actor.KindAdmin, Role: actor.RoleViewer}
	adminToken := actor.Actor{Kind: actor.KindToken, Role: actor.RoleAdmin}
	viewerToken := actor.Actor{Kind: actor.KindToken, Role: actor.RoleViewer}
	tests := []struct {
		name    string
		who     actor.Actor
		method  string
		class   route.Class
		allowed bool
	}{
		{"viewer, own two-factor", viewer, "POST", route.SelfService, true},
		{"viewer, own password", viewer, "PUT", route.SelfService, true},
		{"viewer token, own sessions", viewerToken, "GET", route.SelfService, false},
		{"admin token, me", adminToken, "GET", route.SelfService, false},
		{"admin token, sign out", adminToken, "POST", route.SelfService, false},
		{"viewer, a read", viewer, "GET", route.Guarded, true},
		{"viewer, a secret read", viewer, "GET", route.SecretRead, false},
		{"viewer token, a secret read", viewerToken, "GET", route.SecretRead, false},
		{"admin, a secret read", admin, "GET", route.SecretRead, true},
		{"admin token, a secret read", adminToken, "GET", route.SecretRead, true},
		{"viewer, a write", viewer, "DELETE", route.Guarded, false},
		{"admin token, a write", adminToken, "PUT", route.Guarded, true},
		{"admin token, a person-only write", adminToken, "POST", route.PersonOnly, false},
		{"admin token, a person-only password reset", adminToken, "PUT", route.PersonOnly, false},
		{"admin token, a person-only delete", adminToken, "DELETE", route.PersonOnly, false},
		{"viewer token, a person-only write", viewerToken, "PUT", route.PersonOnly, false},
		{"viewer, a person-only write", viewer, "PUT", route.PersonOnly, false},
		{"admin session, a person-only write", admin, "PUT", route.PersonOnly, true},
		{"unknown role", actor.Actor{Kind: actor.KindAdmin, Role: "owner"}, "GET", route.Guarded, false},
		{"no role", actor.Actor{Kind: actor.KindToken}, "GET", route.Guarded, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := httpapi.Decide(tt.who, tt.method, tt.class)
			if tt.allowed && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tt.allowed && !apperr.IsCode(err, apperr.CodeForbidden) {
				t.Fatalf("Decide = %v; want forbidden", err)
			}
		})
	}
}
