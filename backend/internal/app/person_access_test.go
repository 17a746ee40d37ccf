package app

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// attackerFile is a Gatehouse export made on a panel the attacker runs: it
// names administrator "ops" (whose password the attacker knows) and a new
// administrator "mallory", their password hashes sealed with a passphrase
// the attacker chose.
func attackerFile(t *testing.T, passphrase string) string {
	t.Helper()
	b := newTestApp(t, nil)
	b.signIn()
	b.createUser(t, "ops", "admin")
	b.createUser(t, "mallory", "admin")
	if rec := b.do("PUT", "/api/people/"+b.userID(t, "ops")+"/password", `{"password":"attacker-knows-this"}`); rec.Code != http.StatusNoContent {
		t.Fatalf("set ops's password on the attacker's panel = %d %s", rec.Code, rec.Body)
	}
	rec := b.do("POST", "/api/export", `{"passphrase":"`+passphrase+`","admins":true,"adminPasswords":true}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("export = %d %s", rec.Code, rec.Body)
	}
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// Only the administrators the attack is about; "admin" would replace the
	// importing person's own password.
	var admins []any
	for _, a := range doc["admins"].([]any) {
		if a.(map[string]any)["username"] != "admin" {
			admins = append(admins, a)
		}
	}
	doc["admins"] = admins
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// userID finds an administrator's id through the API.
func (a *testApp) userID(t *testing.T, username string) string {
	t.Helper()
	rec := a.do("GET", "/api/people?limit=200", "")
	list := decode[struct {
		Items []struct{ ID, Username string }
	}](t, rec)
	for _, u := range list.Items {
		if u.Username == username {
			return u.ID
		}
	}
	t.Fatalf("no administrator %q in %s", username, rec.Body)
	return ""
}

// canSignIn reports whether username signs in with password.
func (a *testApp) canSignIn(username, password string) bool {
	rec := a.do("POST", "/api/admin/login", `{"username":"`+username+`","password":"`+password+`"}`,
		"Cookie", "", "RemoteAddr", owner)
	return rec.Code == http.StatusOK
}

// An API token never creates or takes over an administrator, nor changes
// how administrators sign in, through any route, import included: a leaked
// token, once revoked, leaves no way in behind. A person may import the
// same file; each imported item is then an audit entry of its own, and the
// administrator whose password the file replaced is signed out.
func TestTokenCannotTakeOverAdministrators(t *testing.T) {
	const passphrase = "the attacker chose this"
	file := attackerFile(t, passphrase)

	a := newTestApp(t, nil)
	a.signIn()
	a.createUser(t, "ops", "admin")
	opsSession := a.login(t, "ops", "correct-horse-battery", owner)
	adminToken := &caller{name: "admin token", token: true, value: a.createToken(t, "leaked", "admin")}
	viewerToken := &caller{name: "viewer token", token: true, viewer: true, value: a.createToken(t, "leaked-viewer", "viewer")}
	pass := "X-Gatehouse-Passphrase"

	for _, c := range []*caller{adminToken, viewerToken} {
		for _, q := range []string{"", "?apply=true"} {
			rec := a.as(c, "POST", "/api/import"+q, file, pass, passphrase)
			if rec.Code != http.StatusForbidden {
				t.Fatalf("%s: import%s = %d %s; want 403", c.name, q, rec.Code, rec.Body)
			}
			env := decodeEnvelope(t, rec)
			if env.Error.Code != "forbidden" {
				t.Fatalf("%s: import%s: code %q", c.name, q, env.Error.Code)
			}
			if !c.viewer && !slices.ContainsFunc(env.Error.Fields, func(f struct {
				Field   string `json:"field"`
				Message string `json:"message"`
			}) bool {
				return f.Field == "admins"
			}) {
				t.Fatalf("%s: import%s: the envelope does not name the admins section: %s", c.name, q, rec.Body)
			}
		}
	}
	// The sign-in settings' own routes: refused to tokens too.
	for _, w := range [][3]string{
		{"PUT", "/api/admin/sso", `{"enabled":true,"rules":[{"claim":"email","value":"mallory@evil.example","role":"admin"}],"createAdmins":true,"localPasswords":true}`},
		{"PUT", "/api/sso", `{"enabled":true,"issuer":"https://id.evil.example","clientId":"x","clientSecret":"y"}`},
		{"PUT", "/api/admin/security", `{"requireTwoFactor":false}`},
	} {
		rec := a.as(adminToken, w[0], w[1], w[2])
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "API tokens cannot") {
			t.Errorf("admin token: %s %s = %d %s; want the role check's 403", w[0], w[1], rec.Code, rec.Body)
		}
	}
	// Nothing changed: ops keeps its password and its session, mallory
	// does not exist.
	if a.canSignIn("ops", "attacker-knows-this") || a.canSignIn("mallory", "correct-horse-battery") {
		t.Fatal("the token's import let the attacker sign in")
	}
	if rec := a.as(&caller{value: opsSession}, "GET", "/api/admin/me", ""); rec.Code != http.StatusOK {
		t.Fatalf("ops's session after the refused import = %d", rec.Code)
	}

	// A token may still import what does not touch anyone's access.
	var doc map[string]any
	if err := json.Unmarshal([]byte(file), &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "admins")
	plain, _ := json.Marshal(doc)
	if rec := a.as(adminToken, "POST", "/api/import?apply=true", string(plain), pass, passphrase); rec.Code != http.StatusOK {
		t.Fatalf("admin token: import without administrators = %d %s", rec.Code, rec.Body)
	}

	// A person imports the file: applied, ops signed out, each item audited.
	rec := a.do("POST", "/api/import?apply=true", file, pass, passphrase)
	if rec.Code != http.StatusOK {
		t.Fatalf("admin session: import = %d %s", rec.Code, rec.Body)
	}
	if rec := a.as(&caller{value: opsSession}, "GET", "/api/admin/me", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("ops's session after its password was replaced by import = %d; want 401", rec.Code)
	}
	if !a.canSignIn("ops", "attacker-knows-this") {
		t.Fatal("the person's import did not apply ops's password")
	}
	entries := decode[struct {
		Items []struct {
			Action   string
			Actor    struct{ Kind, Name string }
			Resource struct{ Type, ID, Name string }
			Changes  []struct {
				Path          string
				Before, After any
			}
		}
	}](t, a.do("GET", "/api/audit?resourceType="+url.QueryEscape("people"), ""))
	seen := map[string]bool{}
	for _, e := range entries.Items {
		if e.Actor.Kind != "admin" || e.Actor.Name != "admin" {
			continue
		}
		for _, c := range e.Changes {
			if c.Path == "password" {
				if c.After != "[redacted]" || strings.Contains(a.do("GET", "/api/audit?format=csv", "").Body.String(), "$2a$") {
					t.Errorf("%s %s: the password is not redacted: %+v", e.Action, e.Resource.Name, c)
				}
				seen[e.Action+" "+e.Resource.Name] = true
			}
		}
	}
	if !seen["update ops"] || !seen["create mallory"] {
		t.Fatalf("audit entries of the imported administrators (with their password change) missing: %v in %+v", seen, entries.Items)
	}
}

// A token acts with its creator's current standing: while the panel
// requires a second factor, the tokens of an administrator without one
// stop, as that administrator's session does, until they enrol.
func TestTokenStopsWhileItsCreatorLacksSecondFactor(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.enrolTOTP(t)
	a.createUser(t, "ops", "admin")
	ops := &testApp{t: t, c: a.c, handler: a.handler, cookie: a.login(t, "ops", "correct-horse-battery", owner)}
	tok := &caller{name: "ops's token", token: true, value: ops.createToken(t, "ops-ci", "admin")}
	if rec := a.as(tok, "GET", "/api/services", ""); rec.Code != http.StatusOK {
		t.Fatalf("before the requirement: %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PUT", "/api/admin/security", `{"requireTwoFactor":true}`); rec.Code != http.StatusOK {
		t.Fatalf("require two-factor = %d %s", rec.Code, rec.Body)
	}
	// A read and a write (routes whose 403 the API description lists).
	for _, r := range [][2]string{{"GET", "/api/admin/security"}, {"PUT", "/api/config"}} {
		rec := a.as(tok, r[0], r[1], `{}`)
		if rec.Code != http.StatusForbidden || decodeEnvelope(t, rec).Error.Code != "two_factor_required" {
			t.Fatalf("%s %s with the token of an administrator without a second factor = %d %s; want 403 two_factor_required",
				r[0], r[1], rec.Code, rec.Body)
		}
	}
	// The admin's own token (enrolled creator) keeps working.
	mine := &caller{token: true, value: a.createToken(t, "admin-ci", "admin")}
	if rec := a.as(mine, "GET", "/api/services", ""); rec.Code != http.StatusOK {
		t.Fatalf("an enrolled administrator's token = %d %s", rec.Code, rec.Body)
	}
	ops.enrolTOTP(t)
	if rec := a.as(tok, "GET", "/api/services", ""); rec.Code != http.StatusOK {
		t.Fatalf("after its creator enrolled: %d %s", rec.Code, rec.Body)
	}
}

// Administrators' password hashes leave the panel only with a person: an
// API token that exports them could crack them offline into a sign-in that
// outlives the token's revocation. The rest of a sealed export stays open
// to an admin token.
func TestTokenCannotExportPasswordHashes(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	tok := &caller{name: "admin token", token: true, value: a.createToken(t, "scripts", "admin")}
	const body = `{"passphrase":"a long enough passphrase","admins":true,"adminPasswords":true}`
	rec := a.as(tok, "POST", "/api/export", body)
	if rec.Code != http.StatusForbidden || decodeEnvelope(t, rec).Error.Code != "forbidden" ||
		strings.Contains(rec.Body.String(), "$2") {
		t.Fatalf("token export with adminPasswords = %d %s; want 403", rec.Code, rec.Body)
	}
	if rec := a.as(tok, "POST", "/api/export", `{"passphrase":"a long enough passphrase","admins":true,"secrets":true}`); rec.Code != http.StatusOK {
		t.Fatalf("token export of sealed secrets without password hashes = %d %s; want 200", rec.Code, rec.Body)
	}
	if rec := a.do("POST", "/api/export", body); rec.Code != http.StatusOK {
		t.Fatalf("a person's export with adminPasswords = %d %s; want 200", rec.Code, rec.Body)
	}
}
