package forwardauth

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/internal/oidc"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// floodStarts is more than the former global cap of pending sign-ins (10,000).
const floodStarts = 10_001

// TestSSOStartFloodDeniesNoOne: starting sign-ins writes nothing shared, so
// a flood of starts from one address, then from many, leaves a real
// sign-in working and the database as it was.
func TestSSOStartFloodDeniesNoOne(t *testing.T) {
	if testing.Short() {
		t.Skip("floods the start endpoint")
	}
	v := newEnv(t)
	m := provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso"})
	start := "/api/auth/sso/start?service=" + id + "&rd=" + url.QueryEscape("https://app.example.com/")
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
			for i := range floodStarts {
				req := httptest.NewRequest(http.MethodGet, start, nil)
				req.RemoteAddr = tt.addr(i)
				if rec := testutil.Serve(v.e, req); rec.Code != http.StatusFound {
					t.Fatalf("start %d: %d %s", i, rec.Code, rec.Body)
				}
			}
			var n int64
			if err := v.db.Model(&store.SSOPending{}).Count(&n).Error; err != nil || n != before {
				t.Fatalf("%d shared rows written by %d starts (%v), want none", n-before, floodStarts, err)
			}
			if _, tok := signIn(t, v, m, id, "app.example.com", nil); tok == "" {
				t.Fatal("a real sign-in after the flood failed")
			}
		})
	}
}

// TestSSOSignInCookieBinding: the sealed sign-in opens only with its own
// state and flow, unaltered, on a panel with the same age identity, and
// only until it expires.
func TestSSOSignInCookieBinding(t *testing.T) {
	v := newEnv(t)
	provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso"})

	seal := func(state string) *http.Cookie {
		val, err := v.acc.SignIns().Seal(oidc.FlowService, state, &login{ServiceID: id, RD: "https://app.example.com/", Nonce: "n", Verifier: "v"})
		if err != nil {
			t.Fatal(err)
		}
		return &http.Cookie{Name: stateCookie, Value: val, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode}
	}
	var l login
	good := seal("state-a")
	tests := []struct {
		name, flow, state, value string
		ok                       bool
	}{
		{"own state", oidc.FlowService, "state-a", good.Value, true},
		{"another state", oidc.FlowService, "state-b", good.Value, false},
		{"the panel's own flow", oidc.FlowAdmin, "state-a", good.Value, false},
		{"the bare state (the former cookie)", oidc.FlowService, "state-a", "state-a", false},
		{"altered", oidc.FlowService, "state-a", good.Value[:len(good.Value)-2] + "AA", false},
	}
	for _, tt := range tests {
		if got := v.acc.SignIns().Open(tt.flow, tt.state, tt.value, &l); got != tt.ok {
			t.Errorf("%s: opened %v, want %v", tt.name, got, tt.ok)
		}
	}
	// Sealed by a panel with another age identity: refused.
	other := newEnv(t)
	if other.acc.SignIns().Open(oidc.FlowService, "state-a", good.Value, &l) {
		t.Error("a cookie sealed by another panel opened")
	}
	// Expired after SignInTTL.
	v.clock.Add(oidc.SignInTTL)
	if v.acc.SignIns().Open(oidc.FlowService, "state-a", good.Value, &l) {
		t.Error("an expired cookie opened")
	}
	if rec := v.get("/api/auth/sso/callback?state=state-a&code=x", []*http.Cookie{good}); rec.Code != http.StatusBadRequest {
		t.Fatalf("callback with an expired cookie: %d", rec.Code)
	}
}

// TestSSOCallbackReplayRefused: the callback URL and cookie of a completed
// sign-in, sent again (here to another replica), are refused.
func TestSSOCallbackReplayRefused(t *testing.T) {
	a := newEnv(t)
	m := provider(t, a)
	id := a.service("app.example.com")
	protect(t, a, id, map[string]any{"type": "sso"})
	b := a.replica()

	rec := a.get("/api/auth/sso/start?service="+id+"&rd="+url.QueryEscape("https://app.example.com/"), nil)
	auth, _ := url.Parse(rec.Header().Get("Location"))
	cookies := rec.Result().Cookies()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(auth.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	cb, _ := url.Parse(resp.Header.Get("Location"))
	if rec := a.get(cb.RequestURI(), cookies); rec.Code != http.StatusFound {
		t.Fatalf("callback: %d %s", rec.Code, rec.Body)
	}
	// Let the provider redeem the same code again, as a lax one might: the
	// recorded state is what stops the replay.
	sess, err := m.SessionStore.GetSessionByID(cb.Query().Get("code"))
	if err != nil {
		t.Fatal(err)
	}
	sess.Granted = false
	if rec := b.get(cb.RequestURI(), cookies); rec.Code != http.StatusBadRequest {
		t.Fatalf("replayed callback on another replica: %d %s", rec.Code, rec.Body)
	}
}

// TestSSOUnverifiedEmail: an e-mail address the provider has not verified
// neither matches an allow-list entry nor reaches the service as
// Remote-Email or Remote-User.
func TestSSOUnverifiedEmail(t *testing.T) {
	v := newEnv(t)
	m := provider(t, v)
	id := v.service("app.example.com")
	mallory := func(preferred string) *mockoidc.MockUser {
		return &mockoidc.MockUser{Subject: "666", Email: "alice@corp.example", EmailVerified: false,
			PreferredUsername: preferred, Groups: []string{}}
	}

	protect(t, v, id, map[string]any{"type": "sso", "users": []string{"alice@corp.example"}})
	if rec, _ := signIn(t, v, m, id, "app.example.com", mallory("mallory")); rec.Code != http.StatusForbidden {
		t.Fatalf("unverified alice@corp.example let in: %d", rec.Code)
	}
	if rec, _ := signIn(t, v, m, id, "app.example.com", mallory("")); rec.Code != http.StatusForbidden {
		t.Fatalf("unverified alice@corp.example without a username let in: %d", rec.Code)
	}
	alice := &mockoidc.MockUser{Subject: "1", Email: "alice@corp.example", EmailVerified: true, PreferredUsername: "alice", Groups: []string{}}
	if _, tok := signIn(t, v, m, id, "app.example.com", alice); tok == "" {
		t.Fatal("verified alice@corp.example refused")
	}

	// Open to every signed-in user: mallory gets in, as herself.
	protect(t, v, id, map[string]any{"type": "sso"})
	for _, tt := range []struct{ preferred, wantUser string }{{"mallory", "mallory"}, {"", "666"}} {
		_, tok := signIn(t, v, m, id, "app.example.com", mallory(tt.preferred))
		rec := v.verify(fwd{service: id, host: "app.example.com", cookie: tok})
		if rec.Code != 200 || rec.Header().Get("Remote-Email") != "" || rec.Header().Get("Remote-User") != tt.wantUser {
			t.Fatalf("headers for an unverified address: %d %q %q", rec.Code,
				rec.Header().Get("Remote-User"), rec.Header().Get("Remote-Email"))
		}
	}
}

// TestSSOAllowListClaims: each kind of entry is compared with its own claim.
func TestSSOAllowListClaims(t *testing.T) {
	v := newEnv(t)
	m := provider(t, v)
	id := v.service("app.example.com")
	user := func(sub, preferred, email string, verified bool) *mockoidc.MockUser {
		return &mockoidc.MockUser{Subject: sub, PreferredUsername: preferred, Email: email, EmailVerified: verified, Groups: []string{}}
	}
	tests := []struct {
		name  string
		users []string
		who   *mockoidc.MockUser
		ok    bool
	}{
		{"sub: entry, its subject", []string{"sub:u-42"}, user("u-42", "whoever", "", false), true},
		{"sub: entry, another subject", []string{"sub:u-42"}, user("u-43", "u-42", "", false), false},
		{"sub: entry, a username spelling it", []string{"sub:u-42"}, user("u-44", "sub:u-42", "", false), false},
		{"sub: entry is case-sensitive", []string{"sub:u-42"}, user("U-42", "", "", false), false},
		{"username entry, preferred_username", []string{"Jane"}, user("7", "jane", "", false), true},
		{"username entry, subject (as before)", []string{"u-9"}, user("u-9", "", "", false), true},
		{"e-mail entry, verified", []string{"jane@example.com"}, user("8", "x", "Jane@Example.com", true), true},
		{"e-mail entry, unverified", []string{"jane@example.com"}, user("8", "x", "jane@example.com", false), false},
		{"e-mail entry, a username spelling it", []string{"jane@example.com"}, user("8", "jane@example.com", "", false), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			protect(t, v, id, map[string]any{"type": "sso", "users": tt.users})
			rec, tok := signIn(t, v, m, id, "app.example.com", tt.who)
			if (tok != "") != tt.ok {
				t.Fatalf("signed in %v (%d), want %v", tok != "", rec.Code, tt.ok)
			}
		})
	}
	// A sub: entry without a subject is refused on its field.
	rec := v.do(http.MethodPost, "/api/services/"+id+"/security-configs", map[string]any{"type": "sso", "users": []string{"a", "sub:"}}, nil)
	if rec.Code != http.StatusUnprocessableEntity || !contains(rec.Body.String(), `"field":"users[1]"`) {
		t.Fatalf("empty sub: entry: %d %s", rec.Code, rec.Body)
	}
}

// TestSSOSubjectEntryBoundToIssuer: sub: entries name subjects of the
// provider configured when they were saved; another provider's user with
// the same subject is refused.
func TestSSOSubjectEntryBoundToIssuer(t *testing.T) {
	v := newEnv(t)
	provider(t, v)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso", "users": []string{"sub:u-42"}})
	other := provider(t, v) // the administrator points the panel at another provider
	rec, tok := signIn(t, v, other, id, "app.example.com", &mockoidc.MockUser{Subject: "u-42", Groups: []string{}})
	if tok != "" || rec.Code != http.StatusForbidden {
		t.Fatalf("another provider's u-42: %d", rec.Code)
	}
	// Saved again under the new provider, the entry names its u-42.
	protect(t, v, id, map[string]any{"type": "sso", "users": []string{"sub:u-42"}})
	if _, tok := signIn(t, v, other, id, "app.example.com", &mockoidc.MockUser{Subject: "u-42", Groups: []string{}}); tok == "" {
		t.Fatal("u-42 refused after the list was saved for this provider")
	}
}

// TestSSOReturnURLSchemeAndPort: the exchange token goes back only over the
// scheme the service is served on, to that scheme's default port.
func TestSSOReturnURLSchemeAndPort(t *testing.T) {
	v := newEnv(t)
	provider(t, v)
	id := v.service("app.example.com") // on websecure: https
	protect(t, v, id, map[string]any{"type": "sso"})
	web, err := v.svcs.Create(t.Context(), services.Request{
		Name: "Plain", Hostnames: []store.Hostname{{Type: store.HostCustom, Value: "plain.example.com"}},
		Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80}}, Entrypoints: []string{"web"},
	})
	if err != nil {
		t.Fatal(err)
	}
	protect(t, v, web.ID, map[string]any{"type": "sso"})
	tests := []struct {
		service, rd string
		want        string // where the token will be sent; "" when refused
	}{
		{id, "https://app.example.com/x", "https://app.example.com/x"},
		{id, "https://app.example.com:443/x", "https://app.example.com/x"},
		{id, "https://APP.example.com/x?a=1#frag", "https://app.example.com/x?a=1"},
		{id, "http://app.example.com/x", "https://app.example.com/x"}, // upgraded, never sent in clear
		{id, "http://app.example.com:8080/x", "https://app.example.com/x"},
		{id, "https://app.example.com:8443/x", ""},
		{id, "https://app.example.com:80/x", ""},
		{id, "ftp://app.example.com/x", ""},
		{id, "https://app.example.com/" + strings.Repeat("a", 2100), ""},
		{web.ID, "http://plain.example.com/", "http://plain.example.com/"},
		{web.ID, "http://plain.example.com:80/", "http://plain.example.com/"},
		{web.ID, "http://plain.example.com:8080/", ""},
		{web.ID, "https://plain.example.com/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.rd[:min(len(tt.rd), 40)], func(t *testing.T) {
			rec := v.get("/api/auth/sso/start?service="+tt.service+"&rd="+url.QueryEscape(tt.rd), nil)
			if tt.want == "" {
				if rec.Code != http.StatusBadRequest {
					t.Fatalf("%d, want 400", rec.Code)
				}
				return
			}
			if rec.Code != http.StatusFound {
				t.Fatalf("%d, want 302", rec.Code)
			}
			auth, _ := url.Parse(rec.Header().Get("Location"))
			var l login
			for _, ck := range rec.Result().Cookies() {
				if ck.Name == stateCookie && !v.acc.SignIns().Open(oidc.FlowService, auth.Query().Get("state"), ck.Value, &l) {
					t.Fatal("the sign-in cookie does not open")
				}
			}
			if l.RD != tt.want {
				t.Fatalf("return address %q, want %q", l.RD, tt.want)
			}
		})
	}
}
