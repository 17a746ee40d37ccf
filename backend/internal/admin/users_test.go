package admin_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func ptr[T any](v T) *T { return &v }

// adminID is the id of the administrator newService creates.
func adminID(t *testing.T, svc *admin.Service) string {
	t.Helper()
	items, err := svc.ListUsers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range items {
		if a.Username == "admin" {
			return a.ID
		}
	}
	t.Fatal("no administrator named admin")
	return ""
}

func wantField(t *testing.T, err error, code apperr.Code, field string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != code || len(e.Fields) == 0 || e.Fields[0].Field != field {
		t.Fatalf("err = %v; want %s on %s", err, code, field)
	}
}

func TestCreateUser(t *testing.T) {
	tests := []struct {
		name  string
		in    admin.CreateUserRequest
		code  apperr.Code
		field string
	}{
		{"viewer", admin.CreateUserRequest{Username: "eve", Password: password, Role: actor.RoleViewer}, "", ""},
		{"admin", admin.CreateUserRequest{Username: "bob", Password: password, Role: actor.RoleAdmin}, "", ""},
		{"no role", admin.CreateUserRequest{Username: "bob", Password: password}, apperr.CodeValidationFailed, "role"},
		{"unknown role", admin.CreateUserRequest{Username: "bob", Password: password, Role: "owner"}, apperr.CodeValidationFailed, "role"},
		{"bad username", admin.CreateUserRequest{Username: "bob smith", Password: password, Role: actor.RoleAdmin}, apperr.CodeValidationFailed, "username"},
		{"short password", admin.CreateUserRequest{Username: "bob", Password: "short", Role: actor.RoleAdmin}, apperr.CodeValidationFailed, "password"},
		{"taken username", admin.CreateUserRequest{Username: "admin", Password: password, Role: actor.RoleAdmin}, apperr.CodeConflict, "username"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, clock, _ := newService(t)
			ctx := context.Background()
			a, err := svc.CreateUser(ctx, tt.in)
			if tt.code != "" {
				wantField(t, err, tt.code, tt.field)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Role != tt.in.Role || a.Disabled || a.LastSignInAt != nil {
				t.Fatalf("created %+v", a)
			}
			u, _, err := svc.Login(ctx, tt.in.Username, tt.in.Password, at("10.0.0.1"))
			if err != nil || u.Role != tt.in.Role {
				t.Fatalf("sign-in = %+v, %v; want the %s role", u, err, tt.in.Role)
			}
			clock.Add(time.Minute)
			if _, _, err := svc.Login(ctx, tt.in.Username, tt.in.Password, at("10.0.0.2")); err != nil {
				t.Fatal(err)
			}
			got, err := svc.GetUser(ctx, a.ID)
			if err != nil || got.LastSignInAt == nil || !got.LastSignInAt.Equal(clock.Now()) {
				t.Fatalf("GetUser = %+v, %v; want the newest sign-in, at %v", got, err, clock.Now())
			}
		})
	}
}

// The panel never loses its last active administrator with the admin role,
// whichever way: demotion, disabling or deletion. The refusal names what the
// request changed.
func TestKeepOneAdmin(t *testing.T) {
	tests := []struct {
		name  string
		do    func(svc *admin.Service, id string) error
		field string
	}{
		{"demote", func(svc *admin.Service, id string) error {
			_, err := svc.UpdateUser(context.Background(), id, admin.UpdateUserRequest{Role: ptr(actor.RoleViewer)})
			return err
		}, "role"},
		{"disable", func(svc *admin.Service, id string) error {
			_, err := svc.UpdateUser(context.Background(), id, admin.UpdateUserRequest{Disabled: ptr(true)})
			return err
		}, "disabled"},
		{"delete", func(svc *admin.Service, id string) error {
			return svc.DeleteUser(context.Background(), id)
		}, "id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _, _ := newService(t)
			ctx := context.Background()
			id := adminID(t, svc)
			// A viewer and a disabled admin do not count.
			if _, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: "eve", Password: password, Role: actor.RoleViewer}); err != nil {
				t.Fatal(err)
			}
			off, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: "off", Password: password, Role: actor.RoleAdmin})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.UpdateUser(ctx, off.ID, admin.UpdateUserRequest{Disabled: ptr(true)}); err != nil {
				t.Fatal(err)
			}
			wantField(t, tt.do(svc, id), apperr.CodeConflict, tt.field)
			if got, err := svc.GetUser(ctx, id); err != nil || got.Role != actor.RoleAdmin || got.Disabled {
				t.Fatalf("after the refusal: %+v, %v", got, err)
			}
			// With a second active admin the same change goes through.
			if _, err := svc.UpdateUser(ctx, off.ID, admin.UpdateUserRequest{Disabled: ptr(false)}); err != nil {
				t.Fatal(err)
			}
			if err := tt.do(svc, id); err != nil {
				t.Fatalf("with another admin: %v", err)
			}
		})
	}
}

// Two administrators demoting each other at once must not leave the panel
// without one: the count and the write share an immediate transaction.
func TestConcurrentDemotionsKeepOneAdmin(t *testing.T) {
	svc, _, db := newService(t)
	ctx := context.Background()
	ids := []string{adminID(t, svc)}
	for _, name := range []string{"bob", "carol", "dave"} {
		a, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: name, Password: password, Role: actor.RoleAdmin})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			req := admin.UpdateUserRequest{Role: ptr(actor.RoleViewer)}
			if i%2 == 1 {
				req = admin.UpdateUserRequest{Disabled: ptr(true)}
			}
			_, errs[i] = svc.UpdateUser(ctx, id, req)
		})
	}
	wg.Wait()
	refused := 0
	for _, err := range errs {
		switch {
		case err == nil:
		case apperr.IsCode(err, apperr.CodeConflict):
			refused++
		default:
			t.Fatalf("UpdateUser: %v", err)
		}
	}
	var n int64
	if err := db.Model(&store.AdminUser{}).Where("role = 'admin' AND disabled_at IS NULL").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != 1 || refused != 1 {
		t.Fatalf("%d active admins left, %d refused; want 1 and 1", n, refused)
	}
}

// Disabling ends the administrator's sessions and refuses sign-in;
// enabling lets them sign in again. Both tell the panel (managed mode drops
// the disabled administrator from the basic-auth list).
func TestDisableUser(t *testing.T) {
	db := testutil.NewDB(t)
	bus := change.NewBus()
	var mu sync.Mutex
	published := 0
	bus.Subscribe(func(e change.Event) {
		if e.Entity == change.Security {
			mu.Lock()
			published++
			mu.Unlock()
		}
	})
	count := func() int { mu.Lock(); defer mu.Unlock(); return published }
	svc := admin.NewService(admin.Deps{DB: db, Now: store.Now, BcryptCost: bcrypt.MinCost, Bus: bus})
	ctx := context.Background()
	if _, err := svc.Create(ctx, "admin", password); err != nil {
		t.Fatal(err)
	}
	bob, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: "bob", Password: password, Role: actor.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	_, tok, err := svc.Login(ctx, "bob", password, at("10.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	before := count()
	got, err := svc.UpdateUser(ctx, bob.ID, admin.UpdateUserRequest{Disabled: ptr(true)})
	if err != nil || !got.Disabled {
		t.Fatalf("disable = %+v, %v", got, err)
	}
	if count() == before {
		t.Fatal("disabling published no change")
	}
	if _, err := svc.Authenticate(ctx, tok); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
		t.Fatalf("the disabled admin's session still works: %v", err)
	}
	if n := len(sessions(t, svc, bob.ID)); n != 0 {
		t.Fatalf("%d sessions left", n)
	}
	if _, _, err := svc.Login(ctx, "bob", password, at("10.0.0.1")); !apperr.IsCode(err, apperr.CodeForbidden) {
		t.Fatalf("disabled sign-in = %v", err)
	}
	if _, err := svc.UpdateUser(ctx, bob.ID, admin.UpdateUserRequest{Disabled: ptr(false)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Login(ctx, "bob", password, at("10.0.0.1")); err != nil {
		t.Fatalf("enabled sign-in: %v", err)
	}
}

func TestUpdateUserErrors(t *testing.T) {
	svc, _, _ := newService(t)
	ctx := context.Background()
	if _, err := svc.UpdateUser(ctx, "nope", admin.UpdateUserRequest{Disabled: ptr(true)}); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	_, err := svc.UpdateUser(ctx, adminID(t, svc), admin.UpdateUserRequest{Role: ptr(actor.Role("root"))})
	wantField(t, err, apperr.CodeValidationFailed, "role")
	if err := svc.DeleteUser(ctx, "nope"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("delete unknown: %v", err)
	}
}

// An administrator resets another's password: every session of theirs ends
// and both hashes verify the new password.
func TestSetUserPassword(t *testing.T) {
	svc, _, db := newService(t)
	ctx := context.Background()
	bob, err := svc.CreateUser(ctx, admin.CreateUserRequest{Username: "bob", Password: password, Role: actor.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Login(ctx, "bob", password, at("10.0.0.1")); err != nil {
		t.Fatal(err)
	}
	wantField(t, svc.SetUserPassword(ctx, bob.ID, "short"), apperr.CodeValidationFailed, "password")
	if n := len(sessions(t, svc, bob.ID)); n != 1 {
		t.Fatalf("a refused reset ended sessions: %d left", n)
	}
	if err := svc.SetUserPassword(ctx, "nope", "a-brand-new-password"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if err := svc.SetUserPassword(ctx, bob.ID, "a-brand-new-password"); err != nil {
		t.Fatal(err)
	}
	if n := len(sessions(t, svc, bob.ID)); n != 0 {
		t.Fatalf("%d sessions left after the reset", n)
	}
	var row store.AdminUser
	if err := db.Where("id = ?", bob.ID).Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	if bcrypt.CompareHashAndPassword([]byte(row.PasswordHash), []byte("a-brand-new-password")) != nil {
		t.Fatal("the stored hash does not verify the new password")
	}
}
