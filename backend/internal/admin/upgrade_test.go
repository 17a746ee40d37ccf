package admin_test

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// closeDB closes a handle before its database changes schema underneath
// (PostgreSQL's cached statements would name the old tables).
func closeDB(t *testing.T, db *gorm.DB) {
	t.Helper()
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	_ = sqlDB.Close()
}

// An administrator of the previous release, with a password, TOTP,
// recovery codes, a passkey, an API token and a live session, still signs
// in every way after migration 0017 turns administrators into people. The
// state is made by the real ceremonies, the schema taken back to 0016
// (where the rows must sit in admin_users), then upgraded again.
func TestUpgradeToPeopleKeepsEveryFactorWorking(t *testing.T) {
	ctx := context.Background()
	database := testutil.NewDatabase(t)
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	secrets := func(d *admin.Deps) { d.Secrets = box }

	db := testutil.OpenDB(t, database)
	before := newTFAppOn(t, db, nil, secrets)
	secret, codes := before.enrolTOTP()
	key := newAuthenticator(t)
	before.registerPasskey(key, "laptop")
	session := before.jar[admin.CookieName]
	var me admin.User
	decode(t, before.expect("GET", "/api/admin/me", "", http.StatusOK), &struct{ User *admin.User }{&me})
	creator := actor.Actor{Kind: actor.KindAdmin, ID: me.ID, Name: me.Username, Role: actor.RoleAdmin}
	tok, err := apitokens.NewService(apitokens.Deps{DB: db, Now: before.clock.Now}).
		Create(ctx, creator, apitokens.CreateRequest{Name: "ci", Role: actor.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	closeDB(t, db)

	if err := store.MigrateTo(database, 16); err != nil {
		t.Fatal(err)
	}
	// store.Open would migrate: read the old schema with a plain handle.
	driver := "sqlite3"
	if store.IsPostgres(database) {
		driver = "pgx"
	}
	old, err := sql.Open(driver, database)
	if err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]int64{
		"admin_users": 1, "admin_sessions": 1, "admin_totp": 1, "admin_passkeys": 1, "admin_recovery_codes": 10, "admin_tokens": 1,
	} {
		var n int64
		if err := old.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil || n != want {
			t.Fatalf("at 0016, %s holds %d rows (%v); want %d", table, n, err, want)
		}
	}
	var role string
	if err := old.QueryRow("SELECT role FROM admin_users").Scan(&role); err != nil || role != "admin" {
		t.Fatalf("at 0016 the role is %q (%v)", role, err)
	}
	_ = old.Close()

	if err := store.Migrate(database); err != nil {
		t.Fatal(err)
	}
	db = testutil.OpenDB(t, database)
	after := openTFApp(t, db, nil, secrets)
	after.clock.Add(time.Minute) // a new TOTP step: the enrolment's code is spent

	var p store.Person
	if err := db.Where("username = ?", "admin").Take(&p).Error; err != nil || p.PanelRole != "admin" || p.ID != me.ID {
		t.Fatalf("the administrator became %+v (%v)", p, err)
	}
	// The session opened before the upgrade.
	after.jar[admin.CookieName] = session
	after.expect("GET", "/api/admin/me", "", http.StatusOK)
	// The API token.
	if a, err := apitokens.NewService(apitokens.Deps{DB: db, Now: after.clock.Now}).
		Authenticate(ctx, tok.Value, "198.51.100.9"); err != nil || a.Role != actor.RoleAdmin {
		t.Fatalf("the API token = %+v, %v", a, err)
	}
	// Password and TOTP.
	after.signOut()
	if m := strings.Join(after.password(), ","); !strings.Contains(m, "totp") || !strings.Contains(m, "recovery") {
		t.Fatalf("second-factor methods offered after the upgrade: %s", m)
	}
	after.expect("POST", "/api/admin/login/totp", `{"code":"`+after.code(secret)+`"}`, http.StatusOK)
	// A recovery code.
	after.signOut()
	after.password()
	after.expect("POST", "/api/admin/login/recovery", `{"code":"`+codes[0]+`"}`, http.StatusOK)
	// The passkey alone.
	after.signOut()
	after.passkeyLogin(key, http.StatusOK)
	if !after.signedIn() {
		t.Fatal("the passkey opened no session")
	}
}

// A person without a panel role is refused the panel cleanly, whatever they
// sign in with, and a session they somehow hold opens nothing.
func TestNoPanelRoleIsRefusedThePanel(t *testing.T) {
	a := newTFApp(t)
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	now := a.clock.Now()
	p := store.Person{ID: store.NewID(), Username: "nina", PasswordHash: string(hash), PanelRole: store.PanelRoleNone,
		CreatedAt: now, UpdatedAt: now}
	if err := a.db.Create(&p).Error; err != nil {
		t.Fatal(err)
	}
	a.signOut()
	rec := a.expect("POST", "/api/admin/login", `{"username":"nina","password":"`+password+`"}`, http.StatusForbidden)
	if !strings.Contains(rec.Body.String(), "no access to the panel") || a.signedIn() {
		t.Fatalf("refusal = %s (signed in: %v)", rec.Body, a.signedIn())
	}
	// A wrong password says nothing about the role.
	rec = a.expect("POST", "/api/admin/login", `{"username":"nina","password":"wrong-password-here"}`, http.StatusUnauthorized)
	if strings.Contains(rec.Body.String(), "panel") {
		t.Fatalf("a wrong password revealed the role: %s", rec.Body)
	}
	// A session row of theirs (opened while they had a role) is refused.
	if err := a.db.Model(&store.Person{}).Where("id = ?", p.ID).Update("panel_role", "viewer").Error; err != nil {
		t.Fatal(err)
	}
	a.expect("POST", "/api/admin/login", `{"username":"nina","password":"`+password+`"}`, http.StatusOK)
	if err := a.db.Model(&store.Person{}).Where("id = ?", p.ID).Update("panel_role", store.PanelRoleNone).Error; err != nil {
		t.Fatal(err)
	}
	a.expect("GET", "/api/admin/me", "", http.StatusUnauthorized)
	a.expect("GET", "/api/probe", "", http.StatusUnauthorized)
}
