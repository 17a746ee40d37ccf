package sso

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func rule(claim, value, role string) map[string]any {
	return map[string]any{"claim": claim, "value": value, "role": role}
}

func user(sub, username, email string, groups ...string) *mockoidc.MockUser {
	return &mockoidc.MockUser{Subject: sub, PreferredUsername: username, Email: email, EmailVerified: true, Groups: groups}
}

func (v *env) adminBySubject(sub string) store.Person {
	v.t.Helper()
	var u store.Person
	if err := v.db.Where("sso_subject = ?", sub).Take(&u).Error; err != nil {
		v.t.Fatalf("no administrator linked to %q: %v", sub, err)
	}
	return u
}

func TestSignInCreatesAnAdministratorWithTheRuleRole(t *testing.T) {
	v := newEnv(t)
	v.settings(map[string]any{"enabled": true, "createAdmins": true, "localPasswords": true,
		"rules": []any{rule("group", "ops", "admin"), rule("group", "engineering", "viewer")}})

	rec := v.signIn(user("sub-jane", "jane.doe", "jane@example.com", "engineering"), tamper{})
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/" {
		t.Fatalf("callback: %d %q %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	me, code := v.me(sessionOf(rec))
	if code != http.StatusOK || me.Username != "jane.doe" || me.Role != "viewer" {
		t.Fatalf("me = %d %+v", code, me)
	}
	row := v.adminBySubject("sub-jane")
	if row.PasswordHash != "" || row.Email != "jane@example.com" || row.SSOIssuer != v.m.Issuer() {
		t.Fatalf("row %+v", row)
	}

	// The link is the subject: a new username at the provider is the same
	// administrator, and the role follows the rules at every sign-in.
	rec = v.signIn(user("sub-jane", "jane.renamed", "jane@example.com", "engineering", "ops"), tamper{})
	me, _ = v.me(sessionOf(rec))
	if me.ID != row.ID || me.Role != "admin" {
		t.Fatalf("second sign-in: %+v (first %s)", me, row.ID)
	}
	var n int64
	v.db.Model(&store.Person{}).Count(&n)
	if n != 2 {
		t.Fatalf("%d administrators; want the owner and jane", n)
	}
}

func TestSignInLinksAnExistingAdministrator(t *testing.T) {
	v := newEnv(t)
	v.settings(map[string]any{"enabled": true, "localPasswords": true,
		"rules": []any{rule("username", "OWNER", "admin")}})

	rec := v.signIn(user("sub-owner", ownerName, "owner@example.com"), tamper{})
	me, code := v.me(sessionOf(rec))
	if code != http.StatusOK || me.Username != ownerName || me.Role != "admin" {
		t.Fatalf("me = %d %+v (%s)", code, me, rec.Header().Get("Location"))
	}
	if row := v.adminBySubject("sub-owner"); row.PasswordHash == "" {
		t.Fatal("linking dropped the password")
	}
	// Another subject with the same username is not the linked owner, and
	// creating administrators is off.
	if got := loginError(v.signIn(user("sub-impostor", ownerName, "x@example.com"), tamper{})); got != errNotAllowed {
		t.Fatalf("another subject with the owner's username: %q", got)
	}
}

func TestSignInLinksByVerifiedEmail(t *testing.T) {
	v := newEnv(t)
	v.db.Model(&store.Person{}).Where("username = ?", ownerName).Update("email", "Owner@Example.com")
	v.settings(map[string]any{"enabled": true, "localPasswords": true,
		"rules": []any{rule("email", "owner@example.com", "admin")}})
	unverified := user("sub-2", "someone", "owner@example.com")
	unverified.EmailVerified = false
	if got := loginError(v.signIn(unverified, tamper{})); got != errNotAllowed {
		t.Fatalf("unverified email: %q", got)
	}
	me, _ := v.me(sessionOf(v.signIn(user("sub-1", "someone", "owner@example.com"), tamper{})))
	if me.Username != ownerName {
		t.Fatalf("me = %+v", me)
	}
}

func TestSignInRefusals(t *testing.T) {
	tests := []struct {
		name  string
		user  *mockoidc.MockUser
		tm    tamper
		setup func(v *env)
		want  string
	}{
		{"no rule matches", user("s1", "mallory", "m@example.com", "guests"), tamper{}, nil, errNotAllowed},
		{"creating administrators is off", user("s1", "newbie", "n@example.com", "ops"), tamper{},
			func(v *env) {
				v.settings(map[string]any{"enabled": true, "localPasswords": true, "rules": []any{rule("group", "ops", "admin")}})
			}, errNotAllowed},
		{"disabled administrator", user("s1", ownerName, "o@example.com", "ops"), tamper{},
			func(v *env) {
				v.db.Model(&store.Person{}).Where("username = ?", ownerName).Update("disabled_at", time.Now())
			}, errDisabled},
		{"state changed", user("s1", "jane", "j@example.com", "ops"),
			tamper{callback: func(u *url.URL) { q := u.Query(); q.Set("state", "forged"); u.RawQuery = q.Encode() }}, nil, errExpired},
		{"callback without the state cookie", user("s1", "jane", "j@example.com", "ops"), tamper{noCookie: true}, nil, errExpired},
		{"nonce changed", user("s1", "jane", "j@example.com", "ops"),
			tamper{authQuery: func(q url.Values) { q.Set("nonce", "another-nonce") }}, nil, errFailed},
		{"PKCE challenge changed", user("s1", "jane", "j@example.com", "ops"),
			tamper{authQuery: func(q url.Values) { q.Set("code_challenge", "bm90LXRoZS1yaWdodC1jaGFsbGVuZ2Utbm90LXRoZS1yaWdodA") }}, nil, errFailed},
		{"code changed", user("s1", "jane", "j@example.com", "ops"),
			tamper{callback: func(u *url.URL) { q := u.Query(); q.Set("code", "forged"); u.RawQuery = q.Encode() }}, nil, errFailed},
		{"sign-in switched off", nil, tamper{},
			func(v *env) { v.settings(map[string]any{"enabled": false, "localPasswords": true}) }, errUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			v.settings(map[string]any{"enabled": true, "createAdmins": true, "localPasswords": true,
				"rules": []any{rule("group", "ops", "admin")}})
			if tt.setup != nil {
				tt.setup(v)
			}
			rec := v.signIn(tt.user, tt.tm)
			if got := loginError(rec); got != tt.want {
				t.Fatalf("got %d %q (%q); want /login?error=%s", rec.Code, got, rec.Header().Get("Location"), tt.want)
			}
			if sessionOf(rec) != "" {
				t.Fatal("a refused sign-in set a session cookie")
			}
		})
	}
}

func TestReplayedCallbackIsRefused(t *testing.T) {
	v := newEnv(t)
	v.settings(map[string]any{"enabled": true, "createAdmins": true, "localPasswords": true,
		"rules": []any{rule("group", "ops", "admin")}})
	var replay string
	rec := v.signIn(user("s1", "jane", "j@example.com", "ops"), tamper{callback: func(u *url.URL) { replay = u.RequestURI() }})
	if sessionOf(rec) == "" {
		t.Fatalf("first callback: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	q, _ := url.Parse(replay)
	// Let the provider redeem the same code again, as a lax one might: the
	// recorded state is what stops the replay of the callback and its cookie.
	sess, err := v.m.SessionStore.GetSessionByID(q.Query().Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	sess.Granted = false
	rec = testutil.Request(v.h, "GET", replay, "", "Cookie", v.lastState)
	if got := loginError(rec); got != errExpired || sessionOf(rec) != "" {
		t.Fatalf("replayed callback: %q", got)
	}
	// The bare state (the former cookie) opens nothing either.
	if got := loginError(testutil.Request(v.h, "GET", replay, "", "Cookie", stateCookie+"="+q.Query().Get("state"))); got != errExpired {
		t.Fatalf("callback with the bare state: %q", got)
	}
}

// TestStartFloodDeniesNoOne: more starts than the former global cap, from
// one address and from many, write nothing shared, and an administrator
// still signs in.
func TestStartFloodDeniesNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("floods the start endpoint")
	}
	v := newEnv(t)
	v.settings(map[string]any{"enabled": true, "createAdmins": true, "localPasswords": true,
		"rules": []any{rule("group", "ops", "admin")}})
	const starts = 10_001
	for _, tt := range []struct {
		name string
		addr func(i int) string
	}{
		{"one address", func(int) string { return "198.51.100.7:4000" }},
		{"many addresses", func(i int) string { return fmt.Sprintf("10.%d.%d.%d:4000", i>>16&255, i>>8&255, i&255) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before int64
			if err := v.db.Model(&store.SSOPending{}).Count(&before).Error; err != nil {
				t.Fatal(err)
			}
			for i := range starts {
				req := httptest.NewRequest(http.MethodGet, StartPath, nil)
				req.RemoteAddr = tt.addr(i)
				rec := httptest.NewRecorder()
				v.h.ServeHTTP(rec, req)
				if loc := rec.Header().Get("Location"); rec.Code != http.StatusFound || strings.HasPrefix(loc, "/login") {
					t.Fatalf("start %d: %d %q", i, rec.Code, loc)
				}
			}
			var n int64
			if err := v.db.Model(&store.SSOPending{}).Count(&n).Error; err != nil || n != before {
				t.Fatalf("%d shared rows written by %d starts (%v), want none", n-before, starts, err)
			}
			rec := v.signIn(user("s-"+tt.name, "ops-"+tt.name[:3], tt.name[:3]+"@example.com", "ops"), tamper{})
			if sessionOf(rec) == "" {
				t.Fatalf("sign-in after the flood: %d %q", rec.Code, rec.Header().Get("Location"))
			}
		})
	}
}

func TestLocalPasswords(t *testing.T) {
	v := newEnv(t)
	off := func(s map[string]any) map[string]string {
		t.Helper()
		b, _ := json.Marshal(s)
		rec := v.do("PUT", "/api/admin/sso", string(b))
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("PUT %s = %d %s; want 422", b, rec.Code, rec.Body)
		}
		var env struct {
			Error struct {
				Fields []struct{ Field, Message string } `json:"fields"`
			} `json:"error"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &env)
		out := map[string]string{}
		for _, f := range env.Error.Fields {
			out[f.Field] = f.Message
		}
		return out
	}
	for name, s := range map[string]map[string]any{
		"sign-in off":      {"enabled": false, "localPasswords": false, "rules": []any{rule("group", "ops", "admin")}},
		"no rule":          {"enabled": true, "localPasswords": false},
		"only viewer rule": {"enabled": true, "localPasswords": false, "rules": []any{rule("group", "ops", "viewer")}},
	} {
		if f := off(s); !strings.Contains(f["localPasswords"], "admin role") {
			t.Errorf("%s: fields %v", name, f)
		}
	}
	if f := off(map[string]any{"enabled": true, "localPasswords": true,
		"rules": []any{rule("phone", "1", "admin"), rule("group", " ", "owner")}}); f["rules[0].claim"] == "" ||
		f["rules[1].value"] == "" || f["rules[1].role"] == "" {
		t.Errorf("rule fields %v", f)
	}

	v.settings(map[string]any{"enabled": true, "localPasswords": false, "rules": []any{rule("group", "ops", "admin")}})
	rec := v.do("POST", "/api/admin/login", `{"username":"`+ownerName+`","password":"`+ownerPass+`"}`)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "local-passwords on") {
		t.Fatalf("password login while passwords are off: %d %s", rec.Code, rec.Body)
	}
	rec = v.do("GET", "/api/system", "")
	if !strings.Contains(rec.Body.String(), `"adminSso":true`) || !strings.Contains(rec.Body.String(), `"localPasswords":false`) {
		t.Fatalf("system: %s", rec.Body)
	}

	// The command line's way back.
	if err := NewService(Deps{DB: v.db}).EnableLocalPasswords(t.Context()); err != nil {
		t.Fatal(err)
	}
	if rec := v.do("POST", "/api/admin/login", `{"username":"`+ownerName+`","password":"`+ownerPass+`"}`); rec.Code != http.StatusOK {
		t.Fatalf("password login after local-passwords on: %d %s", rec.Code, rec.Body)
	}
}

func TestSettings(t *testing.T) {
	v := newEnv(t)
	rec := v.must(http.StatusOK, "GET", "/api/admin/sso", nil)
	var got Response
	_ = json.Unmarshal(rec.Body.Bytes(), &got)
	if got.Enabled || !got.LocalPasswords || !got.ProviderConfigured || got.RedirectURL != testPanel+CallbackPath || got.Rules == nil {
		t.Fatalf("defaults %+v", got)
	}
	// No provider: sign-in cannot be switched on.
	v.must(http.StatusOK, "PUT", "/api/sso", map[string]any{"enabled": false, "issuer": v.m.Issuer(), "clientId": "x"})
	rec = v.do("PUT", "/api/admin/sso", `{"enabled":true,"localPasswords":true}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"enabled"`) {
		t.Fatalf("enabled without a provider: %d %s", rec.Code, rec.Body)
	}

	// A viewer reads and changes nothing here.
	v.db.Model(&store.Person{}).Where("username = ?", ownerName).Update("panel_role", "viewer")
	for _, m := range []string{"GET", "PUT"} {
		if rec := v.do(m, "/api/admin/sso", `{"enabled":false,"localPasswords":true}`); rec.Code != http.StatusForbidden {
			t.Errorf("viewer %s: %d %s", m, rec.Code, rec.Body)
		}
	}
}
