package people_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const password = "correct-horse-battery"

type fixture struct {
	db     *gorm.DB
	svc    *people.Service
	admins *admin.Service
	me     context.Context // the first administrator's requests
	meID   string
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	admins := admin.NewService(admin.Deps{DB: db, Now: clock.Now, BcryptCost: bcrypt.MinCost})
	u, err := admins.Create(context.Background(), "admin", password)
	if err != nil {
		t.Fatal(err)
	}
	ctx := actor.With(context.Background(), actor.Actor{Kind: actor.KindAdmin, ID: u.ID, Name: u.Username, Role: actor.RoleAdmin})
	return fixture{db: db, svc: people.NewService(people.Deps{DB: db, Now: clock.Now, Accounts: admins}), admins: admins, me: ctx, meID: u.ID}
}

func fieldOf(err error) string {
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		return ""
	}
	return e.Fields[0].Field
}

func TestCreateValidates(t *testing.T) {
	f := newFixture(t)
	long := strings.Repeat("a", 300)
	for _, tt := range []struct {
		name  string
		in    people.CreateRequest
		field string
	}{
		{"bad username", people.CreateRequest{Username: "a b", PanelRole: "none"}, "username"},
		{"long username", people.CreateRequest{Username: long, PanelRole: "none"}, "username"},
		{"bad role", people.CreateRequest{Username: "ann", PanelRole: "root"}, "panelRole"},
		{"bad e-mail", people.CreateRequest{Username: "ann", PanelRole: "none", Email: "not-an-address"}, "email"},
		{"named e-mail", people.CreateRequest{Username: "ann", PanelRole: "none", Email: "Ann <ann@example.com>"}, "email"},
		{"long e-mail", people.CreateRequest{Username: "ann", PanelRole: "none", Email: long + "@example.com"}, "email"},
		{"long display name", people.CreateRequest{Username: "ann", PanelRole: "none", DisplayName: long}, "displayName"},
		{"control in display name", people.CreateRequest{Username: "ann", PanelRole: "none", DisplayName: "a\x00b"}, "displayName"},
		{"short password", people.CreateRequest{Username: "ann", PanelRole: "none", Password: "short"}, "password"},
		{"unknown group", people.CreateRequest{Username: "ann", PanelRole: "none", Groups: []string{"nope"}}, "groups[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Create(f.me, tt.in)
			if fieldOf(err) != tt.field {
				t.Fatalf("Create = %v; want an error naming %s", err, tt.field)
			}
		})
	}
}

func TestPeopleAndGroups(t *testing.T) {
	f := newFixture(t)
	ctx := f.me
	family, err := f.svc.CreateGroup(ctx, people.GroupRequest{Name: ptr("family"), Description: ptr("at home")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.CreateGroup(ctx, people.GroupRequest{Name: ptr("Family")}); fieldOf(err) != "name" {
		t.Fatalf("a second family = %v; want a conflict on name", err)
	}
	ann, err := f.svc.Create(ctx, people.CreateRequest{Username: "ann", Email: "Ann@Example.com", DisplayName: "Ann",
		PanelRole: "none", Password: password, Groups: []string{family.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if !ann.Enabled || ann.PanelRole != "none" || len(ann.Groups) != 1 || ann.Groups[0].Name != "family" || !ann.Factors.Password {
		t.Fatalf("ann = %+v", ann)
	}
	if _, err := f.svc.Create(ctx, people.CreateRequest{Username: "bob", Email: "ann@example.COM", PanelRole: "none"}); fieldOf(err) != "email" {
		t.Fatalf("a second person with ann's address = %v; want a conflict on email", err)
	}
	if _, err := f.svc.Create(ctx, people.CreateRequest{Username: "ann", PanelRole: "none"}); fieldOf(err) != "username" {
		t.Fatalf("a second ann = %v; want a conflict on username", err)
	}
	bob, err := f.svc.Create(ctx, people.CreateRequest{Username: "bob", DisplayName: "Robert", PanelRole: "viewer"})
	if err != nil {
		t.Fatal(err)
	}

	// Search, filters and pages.
	for _, tt := range []struct {
		q    people.ListQuery
		want string
	}{
		{people.ListQuery{}, "admin,ann,bob"},
		// The search matches the start of a username, an e-mail address
		// or a display name, whatever its case.
		{people.ListQuery{Q: "ANN@EX"}, "ann"},
		{people.ListQuery{Q: "rob"}, "bob"},
		{people.ListQuery{Q: "a"}, "admin,ann"},
		{people.ListQuery{Q: "example"}, ""},
		{people.ListQuery{Q: "%"}, ""},
		{people.ListQuery{Q: "_nn"}, ""},
		{people.ListQuery{PanelRole: "none"}, "ann"},
		{people.ListQuery{GroupID: family.ID}, "ann"},
		{people.ListQuery{Limit: 1, Offset: 1}, "ann"},
	} {
		page, err := f.svc.List(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range page.Items {
			names = append(names, p.Username)
		}
		if strings.Join(names, ",") != tt.want {
			t.Fatalf("List(%+v) = %v; want %s", tt.q, names, tt.want)
		}
	}
	if _, err := f.svc.List(ctx, people.ListQuery{Limit: 1000}); fieldOf(err) != "limit" {
		t.Fatalf("limit 1000 = %v", err)
	}
	if _, err := f.svc.List(ctx, people.ListQuery{Q: strings.Repeat("x", 101)}); fieldOf(err) != "q" {
		t.Fatalf("a long query = %v", err)
	}

	// Members.
	g, err := f.svc.AddMember(ctx, family.ID, bob.ID)
	if err != nil || len(g.Members) != 2 {
		t.Fatalf("add bob = %+v, %v", g, err)
	}
	if _, err := f.svc.AddMember(ctx, family.ID, "nobody"); fieldOf(err) != "personId" {
		t.Fatalf("add nobody = %v", err)
	}
	if err := f.svc.RemoveMember(ctx, family.ID, ann.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.RemoveMember(ctx, family.ID, ann.ID); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("remove twice = %v", err)
	}
	upd, err := f.svc.Update(ctx, ann.ID, people.UpdateRequest{Groups: &[]string{family.ID}, Enabled: ptr(false), DisplayName: ptr("Ann B.")})
	if err != nil || upd.Enabled || upd.DisplayName != "Ann B." || len(upd.Groups) != 1 {
		t.Fatalf("update ann = %+v, %v", upd, err)
	}
	// Deleting a group keeps its people; deleting a person leaves the group.
	if err := f.svc.Delete(ctx, bob.ID); err != nil {
		t.Fatal(err)
	}
	if g, err := f.svc.GetGroup(ctx, family.ID); err != nil || len(g.Members) != 1 || g.Members[0].Username != "ann" {
		t.Fatalf("family after bob left = %+v, %v", g, err)
	}
	if err := f.svc.DeleteGroup(ctx, family.ID); err != nil {
		t.Fatal(err)
	}
	if p, err := f.svc.Get(ctx, ann.ID); err != nil || len(p.Groups) != 0 {
		t.Fatalf("ann after the group went = %+v, %v", p, err)
	}
}

// The panel keeps an enabled admin, and nobody locks themselves out.
func TestLockOutRules(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		name  string
		in    people.UpdateRequest
		field string
	}{
		{"demote the last admin", people.UpdateRequest{PanelRole: ptr("viewer")}, "panelRole"},
		{"take away one's own role", people.UpdateRequest{PanelRole: ptr("none")}, "panelRole"},
		{"disable oneself", people.UpdateRequest{Enabled: ptr(false)}, "enabled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := f.svc.Update(f.me, f.meID, tt.in); !apperr.IsCode(err, apperr.CodeConflict) || fieldOf(err) != tt.field {
				t.Fatalf("Update = %v; want a conflict on %s", err, tt.field)
			}
		})
	}
	if err := f.svc.Delete(f.me, f.meID); !apperr.IsCode(err, apperr.CodeConflict) {
		t.Fatalf("delete oneself = %v", err)
	}
	// Another admin may not remove the last one either (the system acts here).
	sys := actor.With(context.Background(), actor.System("test"))
	if err := f.svc.Delete(sys, f.meID); !apperr.IsCode(err, apperr.CodeConflict) || fieldOf(err) != "id" {
		t.Fatalf("delete the last admin = %v", err)
	}
}

// Resetting a second factor removes every factor but the password.
func TestResetSecondFactorAndSessions(t *testing.T) {
	f := newFixture(t)
	ctx := f.me
	p, err := f.svc.Create(ctx, people.CreateRequest{Username: "ann", PanelRole: "viewer", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.admins.Login(context.Background(), "ann", password, admin.Client{Address: "192.0.2.1"}); err != nil {
		t.Fatal(err)
	}
	sessions, err := f.svc.Sessions(ctx, p.ID)
	if err != nil || len(sessions) != 1 || sessions[0].Address != "192.0.2.1" {
		t.Fatalf("sessions = %+v, %v", sessions, err)
	}
	if err := f.svc.ResetSecondFactor(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if sessions, _ := f.svc.Sessions(ctx, p.ID); len(sessions) != 0 {
		t.Fatalf("sessions after the reset = %+v", sessions)
	}
	got, err := f.svc.Get(ctx, p.ID)
	if err != nil || !got.Factors.Password || got.Factors.TOTP || got.Factors.Passkeys != 0 {
		t.Fatalf("after the reset = %+v, %v", got, err)
	}
	if err := f.svc.ResetSecondFactor(ctx, "nope"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("reset nobody = %v", err)
	}
	if err := f.svc.EndSession(ctx, p.ID, "nope"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("end an unknown session = %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
