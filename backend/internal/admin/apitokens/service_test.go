package apitokens_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const password = "correct-horse-battery"

type fixture struct {
	svc    *apitokens.Service
	admins *admin.Service
	clock  *testutil.Clock
	db     *gorm.DB
	admin  actor.Actor // a signed-in administrator with the admin role
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	admins := admin.NewService(admin.Deps{DB: db, Now: clock.Now, BcryptCost: bcrypt.MinCost})
	u, err := admins.Create(context.Background(), "admin", password)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{
		svc: apitokens.NewService(apitokens.Deps{DB: db, Now: clock.Now}), admins: admins, clock: clock, db: db,
		admin: actor.Actor{Kind: actor.KindAdmin, ID: u.ID, Name: u.Username, Role: actor.RoleAdmin},
	}
}

func ptr[T any](v T) *T { return &v }

func TestCreate(t *testing.T) {
	soon := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	past := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		creator func(f fixture) actor.Actor
		in      apitokens.CreateRequest
		code    apperr.Code
		field   string
	}{
		{"admin token", nil, apitokens.CreateRequest{Name: " deploy ", Role: actor.RoleAdmin, ExpiresAt: &soon}, "", ""},
		{"viewer token", nil, apitokens.CreateRequest{Name: "monitoring", Role: actor.RoleViewer}, "", ""},
		{"no name", nil, apitokens.CreateRequest{Name: "  ", Role: actor.RoleViewer}, apperr.CodeValidationFailed, "name"},
		{"no role", nil, apitokens.CreateRequest{Name: "x"}, apperr.CodeValidationFailed, "role"},
		{"expired", nil, apitokens.CreateRequest{Name: "x", Role: actor.RoleViewer, ExpiresAt: &past}, apperr.CodeValidationFailed, "expiresAt"},
		{"more than the creator", func(f fixture) actor.Actor {
			a := f.admin
			a.Role = actor.RoleViewer
			return a
		}, apitokens.CreateRequest{Name: "x", Role: actor.RoleAdmin}, apperr.CodeValidationFailed, "role"},
		{"by a token", func(fixture) actor.Actor {
			return actor.Actor{Kind: actor.KindToken, ID: "t", Name: "t", Role: actor.RoleAdmin}
		}, apitokens.CreateRequest{Name: "x", Role: actor.RoleViewer}, apperr.CodeForbidden, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ctx := context.Background()
			creator := f.admin
			if tt.creator != nil {
				creator = tt.creator(f)
			}
			out, err := f.svc.Create(ctx, creator, tt.in)
			if tt.code != "" {
				e, ok := apperr.As(err)
				if !ok || e.Code != tt.code || (tt.field != "" && (len(e.Fields) == 0 || e.Fields[0].Field != tt.field)) {
					t.Fatalf("Create = %v; want %s on %q", err, tt.code, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.Value, apitokens.ValuePrefix) || !strings.HasPrefix(out.Value, out.Token.Prefix) ||
				out.Token.Name != strings.TrimSpace(tt.in.Name) || out.Token.CreatedBy != "admin" ||
				out.Token.Status != apitokens.StatusActive || out.Token.Role != tt.in.Role {
				t.Fatalf("created %+v", out)
			}
			var row store.AdminToken
			if err := f.db.Where("id = ?", out.Token.ID).Take(&row).Error; err != nil {
				t.Fatal(err)
			}
			if strings.Contains(row.TokenHash, out.Value) || row.TokenHash == out.Value {
				t.Fatal("the value is stored in the clear")
			}
			a, err := f.svc.Authenticate(ctx, out.Value, "10.0.0.1")
			if err != nil || a.Kind != actor.KindToken || a.ID != out.Token.ID || a.Role != tt.in.Role || a.Address != "10.0.0.1" {
				t.Fatalf("Authenticate = %+v, %v", a, err)
			}
		})
	}
}

// A token stops working when revoked, expired or its creator is disabled;
// it acts with no more than its creator's current role; and it dies with
// its creator.
func TestAuthenticate(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	bob, err := f.admins.CreateWithRole(ctx, "bob", password, actor.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	byBob := actor.Actor{Kind: actor.KindAdmin, ID: bob.ID, Name: "bob", Role: actor.RoleAdmin}
	create := func(creator actor.Actor, name string, expires *time.Time) apitokens.Created {
		t.Helper()
		out, err := f.svc.Create(ctx, creator, apitokens.CreateRequest{Name: name, Role: actor.RoleAdmin, ExpiresAt: expires})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	revoked := create(f.admin, "revoked", nil)
	expiring := create(f.admin, "expiring", ptr(f.clock.Now().Add(time.Hour)))
	bobs := create(byBob, "bob's", nil)
	if err := f.svc.Revoke(ctx, revoked.Token.ID); err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Hour)
	for _, v := range []string{revoked.Value, expiring.Value, "gha_unknown", "not-even-a-token"} {
		if _, err := f.svc.Authenticate(ctx, v, "10.0.0.1"); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
			t.Fatalf("Authenticate(%.8s) = %v; want unauthenticated", v, err)
		}
	}
	setPerson := func(col string, v any) {
		t.Helper()
		if err := f.db.Model(&store.Person{}).Where("id = ?", bob.ID).Update(col, v).Error; err != nil {
			t.Fatal(err)
		}
	}
	setPerson("panel_role", "viewer")
	if a, err := f.svc.Authenticate(ctx, bobs.Value, "10.0.0.2"); err != nil || a.Role != actor.RoleViewer {
		t.Fatalf("a demoted creator's admin token = %+v, %v; want the viewer role", a, err)
	}
	setPerson("panel_role", store.PanelRoleNone)
	if _, err := f.svc.Authenticate(ctx, bobs.Value, "10.0.0.2"); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
		t.Fatalf("the token of a creator without a panel role = %v; want unauthenticated", err)
	}
	setPerson("panel_role", "viewer")
	setPerson("disabled_at", f.clock.Now())
	if _, err := f.svc.Authenticate(ctx, bobs.Value, "10.0.0.2"); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
		t.Fatalf("a disabled creator's token = %v; want unauthenticated", err)
	}
	if err := f.db.Delete(&store.Person{ID: bob.ID}).Error; err != nil {
		t.Fatal(err)
	}
	items, err := f.svc.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, it := range items {
		status[it.Name] = it.Status
	}
	want := map[string]string{"revoked": apitokens.StatusRevoked, "expiring": apitokens.StatusExpired}
	if len(status) != len(want) || status["revoked"] != want["revoked"] || status["expiring"] != want["expiring"] {
		t.Fatalf("listed %v; want %v (bob's token gone with bob)", status, want)
	}
	if err := f.svc.Revoke(ctx, "nope"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("revoke unknown: %v", err)
	}
}

// Wrong tokens count against the address; once blocked, even a good token
// from that address is answered rate_limited, while other addresses work.
func TestAuthenticateRateLimit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	out, err := f.svc.Create(ctx, f.admin, apitokens.CreateRequest{Name: "x", Role: actor.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	for range apitokens.MaxFailures {
		if _, err := f.svc.Authenticate(ctx, "gha_wrong", "10.0.0.9"); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
			t.Fatalf("wrong token = %v", err)
		}
	}
	_, err = f.svc.Authenticate(ctx, out.Value, "10.0.0.9")
	if e, ok := apperr.As(err); !ok || e.Code != apperr.CodeRateLimited || e.RetryAfter <= 0 {
		t.Fatalf("blocked address = %v; want rate_limited with a wait", err)
	}
	if _, err := f.svc.Authenticate(ctx, out.Value, "10.0.0.1"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	f.clock.Add(apitokens.FailureWindow)
	if _, err := f.svc.Authenticate(ctx, out.Value, "10.0.0.9"); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

// Use is noted on the request path, listed at once, and written by Flush.
func TestLastUse(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	out, err := f.svc.Create(ctx, f.admin, apitokens.CreateRequest{Name: "x", Role: actor.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	if _, err := f.svc.Authenticate(ctx, out.Value, "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	stored := func() store.AdminToken {
		t.Helper()
		var row store.AdminToken
		if err := f.db.Where("id = ?", out.Token.ID).Take(&row).Error; err != nil {
			t.Fatal(err)
		}
		return row
	}
	if stored().LastUsedAt != nil {
		t.Fatal("last use was written on the request path")
	}
	got, err := f.svc.Get(ctx, out.Token.ID)
	if err != nil || got.LastUsedAt == nil || !got.LastUsedAt.Equal(f.clock.Now()) || got.LastUsedAddress != "10.0.0.1" {
		t.Fatalf("listed before the flush: %+v, %v", got, err)
	}
	if err := f.svc.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if row := stored(); row.LastUsedAt == nil || !row.LastUsedAt.Equal(f.clock.Now()) || row.LastUsedAddress != "10.0.0.1" {
		t.Fatalf("stored after the flush: %+v", row)
	}
}
