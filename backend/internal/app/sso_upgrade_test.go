package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// lastSchemaWithSSO is the newest schema of the release before the people
// protection replaced per-service single sign-on.
const lastSchemaWithSSO = 25

// A database from the release before, with services protected by
// per-service single sign-on (an allow-list of an address, a subject, a
// name and a provider group; an empty list; a list switched off), is
// upgraded: every such service gets a people protection, and through the
// portal's "Sign in with …" the real handlers admit exactly whom the lists
// admitted and refuse the others.
func TestUpgradeReplacesPerServiceSSOWithPeople(t *testing.T) {
	// The previous release's panel: a provider, a portal host, people and
	// services; the protections are written below at its schema.
	env, database, before, m := panelWithProvider(t)
	cfg := m.Config()
	before.setPortal(t)
	ann := before.mustCreate("/api/people", `{"username":"ann","email":"Ann@Example.com","panelRole":"none"}`).ID
	d := before.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	svc := map[string]string{}
	for _, name := range []string{"mail", "wiki", "old"} {
		svc[name] = before.mustCreate("/api/services", strings.Replace(svcBody(d.ID, name, ""), `"name":"app"`, `"name":"`+name+`"`, 1)).ID
	}
	before.c.close()

	old := atSchemaWithSSO(t, database)
	protect := func(id, service string, enabled bool, settings string) {
		t.Helper()
		if _, err := old.Exec(`INSERT INTO security_configs (id, service_id, type, enabled, settings, created_at, updated_at)
			VALUES ($1, $2, 'sso', $3, $4, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`, id, service, enabled, settings); err != nil {
			t.Fatal(err)
		}
	}
	protect("sc-mail", svc["mail"], true, fmt.Sprintf(`{"users":["ann@example.com","sub:sub-bob","Carol"],"groups":["/family"],"issuer":%q}`, cfg.Issuer))
	protect("sc-wiki", svc["wiki"], true, `{"users":[],"groups":[]}`)
	protect("sc-old", svc["old"], false, `{"users":["dave@example.com"],"groups":[]}`)
	if _, err := old.Exec(`INSERT INTO sessions (id, token_hash, service_id, kind, subject, sso_issuer, sso_subject, groups, created_at, last_seen_at, expires_at)
		VALUES ('sess-old', 'hash-old', $1, 'sso', 'ann', $2, 'sub-ann', '[]', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
		svc["mail"], cfg.Issuer); err != nil {
		t.Fatal(err)
	}
	_ = old.Close()

	after := newTestApp(t, env)
	after.cookie = after.login(t, "admin", "correct-horse-battery", owner)
	v := &portalIDP{testApp: after, t: t, m: m}
	db := after.c.db
	if n := v.count(&store.SecurityConfig{}, "type = ?", store.SecuritySSO); n != 0 {
		t.Fatalf("%d single sign-on protections left", n)
	}
	if n := v.count(&store.Session{}, "kind = ?", store.SessionSSO); n != 0 {
		t.Fatalf("%d single sign-on sessions left", n)
	}
	var portal struct {
		ProviderSignIn, CreatePeople bool
	}
	_ = json.Unmarshal(v.do("GET", "/api/config/portal", "").Body.Bytes(), &portal)
	if !portal.ProviderSignIn || !portal.CreatePeople {
		t.Fatalf("portal after the upgrade: %+v", portal)
	}
	type prot struct {
		People struct {
			Enabled        bool
			People, Groups []string
		}
		SSO struct{ Enabled bool }
	}
	get := func(name string) prot {
		return decode[prot](t, v.do("GET", "/api/services/"+svc[name]+"/protection", ""))
	}
	mail, wiki, off := get("mail"), get("wiki"), get("old")
	if !mail.People.Enabled || mail.SSO.Enabled || len(mail.People.People) != 3 || len(mail.People.Groups) != 1 || !slices.Contains(mail.People.People, ann) {
		t.Fatalf("mail's protection: %+v", mail)
	}
	if !wiki.People.Enabled || len(wiki.People.People)+len(wiki.People.Groups) != 0 {
		t.Fatalf("wiki's protection: %+v", wiki)
	}
	if off.People.Enabled || len(off.People.People) != 1 {
		t.Fatalf("old's protection: %+v", off)
	}
	var family store.Group
	if err := db.Where("provider_name = ?", "/family").Take(&family).Error; err != nil || family.Name != "family" {
		t.Fatalf("the provider group became %+v (%v)", family, err)
	}
	if rec := v.do("GET", "/api/groups/"+family.ID, ""); !strings.Contains(rec.Body.String(), `"providerName":"/family"`) {
		t.Errorf("the group's provider name is not shown: %s", rec.Body)
	}
	if got := v.audit("?action=upgrade"); len(got.Items) != 3 {
		t.Errorf("%d upgrade entries in the audit log; want one per service", len(got.Items))
	}

	// Decisions through the real handlers: the portal's sign-in with the
	// provider, the continue hop and verify.
	cases := []struct {
		name       string
		user       ssoUser
		mail, wiki int
	}{
		{"listed address, verified", idpUser("sub-ann", "annie", "ann@example.com", true), http.StatusOK, http.StatusOK},
		{"listed subject", idpUser("sub-bob", "bobby", "bob@elsewhere.example", false), http.StatusOK, http.StatusOK},
		{"listed name (preferred_username)", idpUser("sub-carol", "carol", "", false), http.StatusOK, http.StatusOK},
		{"member of the listed provider group", idpUser("sub-frank", "frank", "frank@example.com", true, "/family"), http.StatusOK, http.StatusOK},
		{"listed address, unverified", idpUser("sub-mallory", "mallory", "ann@example.com", false), http.StatusForbidden, http.StatusOK},
		{"another group", idpUser("sub-gina", "gina", "gina@example.com", true, "family"), http.StatusForbidden, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v.t = t
			session, loc := v.signInAs(tc.user, "")
			if session == "" {
				t.Fatalf("sign-in refused: %s", loc)
			}
			if got := v.open(svc["mail"], "mail", session); got != tc.mail {
				t.Errorf("mail = %d; want %d", got, tc.mail)
			}
			if got := v.open(svc["wiki"], "wiki", session); got != tc.wiki {
				t.Errorf("wiki = %d; want %d", got, tc.wiki)
			}
		})
	}
	v.t = t
	// The linked people are the ones made or kept by the upgrade.
	var linked store.Person
	if err := db.Where("sso_subject = ?", "sub-ann").Take(&linked).Error; err != nil || linked.ID != ann {
		t.Fatalf("sub-ann is %+v (%v); want ann", linked, err)
	}
	var carol store.Person
	if err := db.Where("sso_subject = ?", "sub-carol").Take(&carol).Error; err != nil || carol.SSOUsername != "" || carol.Username != "Carol" {
		t.Fatalf("carol is %+v (%v)", carol, err)
	}

	// A second start finds nothing to do.
	if again, err := upgradeSSOProtections(context.Background(), db, slog.New(slog.DiscardHandler)); err != nil || len(again) != 0 {
		t.Fatalf("second run changed %v (%v)", again, err)
	}
}

// A database from the release before has no sign-in portal: its services
// keep their single sign-on (the people protection would send visitors to
// a portal that does not exist) until an administrator sets the portal's
// host, which moves them to the people protection at once.
func TestSSOUpgradeWaitsForThePortalHost(t *testing.T) {
	env, database, before, m := panelWithProvider(t)
	d := before.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	mail := before.mustCreate("/api/services", svcBody(d.ID, "mail", "")).ID
	before.c.close()
	old := atSchemaWithSSO(t, database)
	if _, err := old.Exec(`INSERT INTO security_configs (id, service_id, type, enabled, settings, created_at, updated_at)
		VALUES ('sc-mail', $1, 'sso', true, '{"users":["ann@example.com"],"groups":[]}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`, mail); err != nil {
		t.Fatal(err)
	}
	_ = old.Close()

	after := newTestApp(t, env)
	after.cookie = after.login(t, "admin", "correct-horse-battery", owner)
	v := &portalIDP{testApp: after, t: t, m: m}
	if n := v.count(&store.SecurityConfig{}, "type = ?", store.SecuritySSO); n != 1 {
		t.Fatalf("%d single sign-on protections without a portal; want the one kept", n)
	}
	if n := v.count(&store.UpgradeTask{}, "name = ?", store.UpgradeSSOToPeople); n != 1 {
		t.Fatalf("%d upgrade tasks waiting; want 1", n)
	}

	after.setPortal(t)
	for deadline := time.Now().Add(10 * time.Second); v.count(&store.SecurityConfig{}, "type = ?", store.SecuritySSO) != 0; {
		if time.Now().After(deadline) {
			t.Fatal("setting the portal's host did not replace the single sign-on protection")
		}
		time.Sleep(20 * time.Millisecond)
	}
	type prot struct{ People struct{ Enabled bool } }
	if p := decode[prot](t, v.do("GET", "/api/services/"+mail+"/protection", "")); !p.People.Enabled {
		t.Fatalf("mail's protection after the portal's host was set: %+v", p)
	}
	if n := v.count(&store.UpgradeTask{}, "name = ?", store.UpgradeSSOToPeople); n != 0 {
		t.Fatalf("%d upgrade tasks left", n)
	}
}

// panelWithProvider is a panel (SQLite, or PostgreSQL when the tests run
// there) whose administrator has set up an OpenID provider (mockoidc, in
// this process), as a panel of the previous release could have.
func panelWithProvider(t *testing.T) (env map[string]string, database string, a *testApp, m *mockoidc.MockOIDC) {
	t.Helper()
	dir := t.TempDir()
	env = map[string]string{"PANEL_DATA_DIR": dir, "PANEL_PUBLIC_URL": "https://panel.example.com"}
	database = filepath.Join(dir, "gatehouse.db")
	if testutil.OnPostgres() {
		database = testutil.NewDatabase(t)
		env["PANEL_DATABASE_URL"] = database
	}
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	a = newTestApp(t, env)
	a.signIn()
	cfg := m.Config()
	body, _ := json.Marshal(map[string]any{"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID,
		"clientSecret": cfg.ClientSecret, "scopes": []string{"openid", "email", "profile", "groups"}})
	if rec := a.do("PUT", "/api/sso", string(body)); rec.Code != http.StatusOK {
		t.Fatalf("provider = %d %s", rec.Code, rec.Body)
	}
	return env, database, a, m
}

// atSchemaWithSSO takes the closed database back to the previous release's
// schema and opens it with a plain handle (store.Open would migrate it).
func atSchemaWithSSO(t *testing.T, database string) *sql.DB {
	t.Helper()
	if err := store.MigrateTo(database, lastSchemaWithSSO); err != nil {
		t.Fatal(err)
	}
	driver := "sqlite3"
	if store.IsPostgres(database) {
		driver = "pgx"
	}
	old, err := sql.Open(driver, database)
	if err != nil {
		t.Fatal(err)
	}
	return old
}
