package forwardauth

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
)

// ruleEnv is env with access rules, machine tokens and the access log.
type ruleEnv struct {
	*env
	rules  *access.Service
	tokens *machinetokens.Service
	log    *accesslog.Log
}

// self forwards to the env's access service once it exists.
type self struct{ v **env }

func (s self) AccessInfo(ctx context.Context, id string) (access.Info, bool, error) {
	return (*s.v).acc.AccessInfo(ctx, id)
}
func (s self) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	return (*s.v).acc.ServiceNames(ctx, ids)
}
func (s self) AcceptsTokens(ctx context.Context, id string) (bool, error) {
	return (*s.v).acc.AcceptsTokens(ctx, id)
}

func newRuleEnv(t testing.TB, trusted ...string) *ruleEnv {
	t.Helper()
	var v *env
	r := &ruleEnv{log: accesslog.New()}
	v = newEnv(t, func(o *Deps) {
		r.rules = access.NewService(access.Deps{DB: o.DB, Bus: o.Bus, Now: o.Now, Info: self{&v}})
		r.tokens = machinetokens.NewService(machinetokens.Deps{DB: o.DB, Bus: o.Bus, Now: o.Now, Directory: self{&v}})
		o.Rules, o.Tokens, o.Log = r.rules, r.tokens, r.log
		for _, p := range trusted {
			o.TrustedProxies = append(o.TrustedProxies, netip.MustParsePrefix(p))
		}
	})
	r.env = v
	return r
}

func (r *ruleEnv) setRules(id string, def rules.Action, rules ...rules.Rule) {
	r.t.Helper()
	if _, err := r.rules.Put(context.Background(), id, access.PutServiceAccess{DefaultAction: def, Rules: rules, ConfirmPublic: true}); err != nil {
		r.t.Fatalf("set rules: %v", err)
	}
}

func basicAuth(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func TestRulesLANBypassAndForgedForwardedFor(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("cloud.example.com")
	var set struct{ ID string }
	r.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "s", "users": []map[string]string{{"username": "u", "password": "password-1"}}}, &set)
	protect(t, r.env, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	r.setRules(id, "", rules.Rule{Action: rules.Allow, Note: "LAN", Sources: []string{"private", "loopback"}})
	tests := []struct {
		name string
		xff  string
		want int
	}{
		{"home", "192.168.1.20", http.StatusOK},
		{"this host", "127.0.0.1", http.StatusOK},
		{"stranger", "203.0.113.9", http.StatusUnauthorized},
		{"stranger claiming the LAN", "10.0.0.5, 203.0.113.9", http.StatusUnauthorized},
		{"garbage", "not-an-address", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		rec := r.verify(fwd{service: id, host: "cloud.example.com", ip: tt.xff})
		if rec.Code != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, rec.Code, tt.want)
		}
		if tt.want == http.StatusOK && rec.Header().Get("Remote-User") != "" {
			t.Errorf("%s: an allow rule sent an identity", tt.name)
		}
		if tt.want == http.StatusUnauthorized && !strings.HasPrefix(rec.Header().Get("Www-Authenticate"), "Basic") {
			t.Errorf("%s: no basic challenge", tt.name)
		}
	}
}

func TestRulesTrustedProxies(t *testing.T) {
	r := newRuleEnv(t, "203.0.113.0/24")
	id := r.service("app.example.com")
	r.setRules(id, rules.Deny, rules.Rule{Action: rules.Allow, Sources: []string{"192.168.0.0/16"}})
	if rec := r.verify(fwd{service: id, host: "app.example.com", ip: "192.168.1.5, 203.0.113.7"}); rec.Code != http.StatusOK {
		t.Fatalf("through the trusted proxy: %d", rec.Code)
	}
	if rec := r.verify(fwd{service: id, host: "app.example.com", ip: "192.168.1.5, 198.51.100.7"}); rec.Code != http.StatusForbidden {
		t.Fatalf("through an untrusted proxy: %d", rec.Code)
	}
	if rec := r.verify(fwd{service: id, host: "app.example.com", ip: "192.168.1.5, 198.51.100.7, 203.0.113.7"}); rec.Code != http.StatusForbidden {
		t.Fatalf("a forged entry left of the client: %d", rec.Code)
	}
}

func TestRulesDenyAndEncodedPaths(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("app.example.com")
	protect(t, r.env, id, map[string]any{"type": "shared_links"})
	r.setRules(id, "",
		rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}},
		rules.Rule{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/public"}}})
	for uri, want := range map[string]int{
		"/public/app.css":          http.StatusOK,
		"/admin/users":             http.StatusForbidden,
		"/ADMIN":                   http.StatusForbidden,
		"/public/../admin":         http.StatusForbidden,
		"/public/%2e%2e/admin":     http.StatusForbidden,
		"/public/%2e%2e/secret":    http.StatusUnauthorized,
		"//public/x":               http.StatusUnauthorized,
		"/PUBLIC/x":                http.StatusUnauthorized,
		"/public;a=b/../secret":    http.StatusUnauthorized,
		"/public%2f..%2fsecret":    http.StatusUnauthorized,
		"/secret?next=/public/abc": http.StatusUnauthorized,
	} {
		if rec := r.verify(fwd{service: id, host: "app.example.com", uri: uri, ip: "203.0.113.9"}); rec.Code != want {
			t.Errorf("%s: %d, want %d", uri, rec.Code, want)
		}
	}
	got := r.log.Query(accesslog.Filter{ServiceID: id, Decision: accesslog.Denied, Limit: 10})
	if len(got) != 4 || got[0].By() != "service rule 1" || got[0].Addr.String() != "203.0.113.9" {
		t.Fatalf("access log: %+v", got)
	}
	for _, e := range got {
		if strings.Contains(e.Path, "?") {
			t.Fatalf("a query string reached the access log: %q", e.Path)
		}
	}
}

func TestRulesRestrictAnUnprotectedService(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("lan.example.com")
	r.setRules(id, rules.Deny, rules.Rule{Action: rules.Allow, Sources: []string{"loopback"}})
	if rec := r.verify(fwd{service: id, host: "lan.example.com", ip: "127.0.0.1"}); rec.Code != http.StatusOK {
		t.Fatalf("loopback: %d", rec.Code)
	}
	if rec := r.verify(fwd{service: id, host: "lan.example.com", ip: "203.0.113.9"}); rec.Code != http.StatusForbidden {
		t.Fatalf("stranger: %d", rec.Code)
	}
	// authenticate on a service without any protection cannot succeed.
	r.setRules(id, rules.Authenticate)
	rec := r.verify(fwd{service: id, host: "lan.example.com", ip: "127.0.0.1", browser: true})
	if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "does not offer") {
		t.Fatalf("authenticate without protections: %d %s", rec.Code, rec.Body.String())
	}
}

func TestMachineTokens(t *testing.T) {
	r := newRuleEnv(t)
	ctx := context.Background()
	id := r.service("cloud.example.com")
	other := r.service("other.example.com")
	protect(t, r.env, id, map[string]any{"type": "tokens", "header": "x-api-key"})
	protect(t, r.env, other, map[string]any{"type": "tokens"})
	created, err := r.tokens.Create(ctx, machinetokens.CreateRequest{Name: "phone", ServiceIDs: []string{id},
		Scope: machinetokens.Scope{PathPrefix: "/remote.php/dav"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(created.Warnings) != 0 {
		t.Fatalf("warnings %v", created.Warnings)
	}
	tok := created.Value
	dav := "/remote.php/dav/files/a.txt"
	tests := []struct {
		name string
		f    fwd
		want int
	}{
		{"bearer", fwd{auth: "Bearer " + tok, uri: dav}, http.StatusOK},
		{"basic password, any user", fwd{auth: basicAuth("anything", tok), uri: dav}, http.StatusOK},
		{"own header", fwd{hdr: map[string]string{"X-Api-Key": tok}, uri: dav}, http.StatusOK},
		{"outside the scope", fwd{auth: "Bearer " + tok, uri: "/index.php"}, http.StatusForbidden},
		{"scope escape", fwd{auth: "Bearer " + tok, uri: "/remote.php/dav/../../index.php"}, http.StatusForbidden},
		{"in the query string", fwd{uri: dav + "?access_token=" + tok}, http.StatusUnauthorized},
		{"wrong token", fwd{auth: "Bearer ght_wrong", uri: dav}, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		f := tt.f
		f.service, f.host, f.ip = id, "cloud.example.com", "203.0.113.9"
		rec := r.verify(f)
		if rec.Code != tt.want {
			t.Errorf("%s: %d, want %d: %s", tt.name, rec.Code, tt.want, rec.Body.String())
		}
		if tt.want == http.StatusOK && rec.Header().Get("Remote-User") != "token:phone" {
			t.Errorf("%s: Remote-User %q", tt.name, rec.Header().Get("Remote-User"))
		}
	}
	if rec := r.verify(fwd{service: other, host: "other.example.com", auth: "Bearer " + tok, ip: "203.0.113.9"}); rec.Code != http.StatusForbidden {
		t.Fatalf("a service the token is not for: %d", rec.Code)
	}

	// Cached requests cost no database query.
	r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer " + tok, uri: dav, ip: "203.0.113.9"})
	before := r.queries.Load()
	for i := 0; i < 20; i++ {
		r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer " + tok, uri: dav, ip: "203.0.113.9"})
	}
	if n := r.queries.Load() - before; n != 0 {
		t.Fatalf("%d queries for 20 token requests", n)
	}

	// Revocation takes effect on the next request.
	if _, err := r.tokens.Revoke(ctx, created.Token.ID); err != nil {
		t.Fatal(err)
	}
	if rec := r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer " + tok, uri: dav, ip: "198.51.100.1"}); rec.Code != http.StatusUnauthorized {
		t.Fatalf("revoked: %d", rec.Code)
	}

	// Expiry is checked per request.
	exp := r.clock.Now().Add(time.Minute)
	short, err := r.tokens.Create(ctx, machinetokens.CreateRequest{Name: "short", ServiceIDs: []string{id}, ExpiresAt: &exp})
	if err != nil {
		t.Fatal(err)
	}
	if rec := r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer " + short.Value, ip: "198.51.100.1"}); rec.Code != http.StatusOK {
		t.Fatalf("before expiry: %d", rec.Code)
	}
	r.clock.Add(2 * time.Minute)
	if rec := r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer " + short.Value, ip: "198.51.100.1"}); rec.Code != http.StatusUnauthorized {
		t.Fatalf("after expiry: %d", rec.Code)
	}
}

func TestWrongTokensAreRateLimited(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("cloud.example.com")
	protect(t, r.env, id, map[string]any{"type": "tokens"})
	var last int
	for i := 0; i <= MaxFailures; i++ {
		last = r.verify(fwd{service: id, host: "cloud.example.com", auth: "Bearer ght_guess", ip: "203.0.113.66"}).Code
	}
	if last != http.StatusTooManyRequests {
		t.Fatalf("after %d wrong tokens: %d", MaxFailures+1, last)
	}
	if got := r.log.Query(accesslog.Filter{Decision: accesslog.RateLimited}); len(got) != 1 || got[0].By() != "machine token" {
		t.Fatalf("access log: %+v", got)
	}
}

func TestTokenHeaderValidation(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("cloud.example.com")
	for _, h := range []string{"Authorization", "cookie", "X-Forwarded-Uri", "Remote-User", "bad header"} {
		rec := r.do(http.MethodPost, "/api/services/"+id+"/security-configs", map[string]any{"type": "tokens", "header": h}, nil)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"header"`) {
			t.Errorf("%s: %d %s", h, rec.Code, rec.Body.String())
		}
	}
}

// A session on a service with fifty rules, the deciding one last, is
// answered from memory.
func TestRulesCachedSessionCostsNoQuery(t *testing.T) {
	r := newRuleEnv(t)
	id := linkService(t, r.env, "app.example.com")
	var list []rules.Rule
	for i := 0; i < 49; i++ {
		list = append(list, rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/never" + strings.Repeat("x", i)}}})
	}
	list = append(list, rules.Rule{Action: rules.Authenticate, Paths: []rules.PathMatch{{Type: "prefix", Value: "/docs"}}})
	r.setRules(id, rules.Deny, list...)
	_, uri := newLink(t, r.env, id, nil)
	f := press(id, "app.example.com", "/docs"+uri[1:])
	f.ip = "203.0.113.9"
	rec := r.verify(f)
	ck := sessionCookie(t, rec)
	if ck == nil {
		t.Fatalf("no session from the link: %d %s", rec.Code, rec.Body.String())
	}
	r.verify(fwd{service: id, host: "app.example.com", uri: "/docs/a", cookie: ck.Value, ip: "203.0.113.9"})
	before := r.queries.Load()
	for i := 0; i < 20; i++ {
		if rec := r.verify(fwd{service: id, host: "app.example.com", uri: "/docs/a", cookie: ck.Value, ip: "203.0.113.9"}); rec.Code != http.StatusOK {
			t.Fatalf("with the session: %d", rec.Code)
		}
	}
	if n := r.queries.Load() - before; n != 0 {
		t.Fatalf("%d queries for 20 requests", n)
	}
	if rec := r.verify(fwd{service: id, host: "app.example.com", uri: "/other", cookie: ck.Value, ip: "203.0.113.9"}); rec.Code != http.StatusForbidden {
		t.Fatalf("the default action with a session: %d", rec.Code)
	}
	got := r.log.Query(accesslog.Filter{ServiceID: id, Decision: accesslog.Authenticated, Limit: 1})
	if len(got) != 1 || got[0].By() != "shared-link session" {
		t.Fatalf("access log: %+v", got)
	}
}

// TestRulesIdentityRefusesProtectionsWithoutPerson: a rule naming a group
// can never be satisfied by basic auth, which names no person, even with
// valid credentials; the rest of the service still opens with them.
func TestRulesIdentityRefusesProtectionsWithoutPerson(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("cloud.example.com")
	var set struct{ ID string }
	r.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "s", "users": []map[string]string{{"username": "u", "password": "password-1"}}}, &set)
	protect(t, r.env, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	r.setRules(id, "",
		rules.Rule{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}, Groups: []string{"admins"}},
		rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}})
	for uri, want := range map[string]int{"/admin/users": http.StatusForbidden, "/ADMIN": http.StatusForbidden, "/photos": http.StatusOK} {
		rec := r.verify(fwd{service: id, host: "cloud.example.com", uri: uri, auth: basicAuth("u", "password-1")})
		if rec.Code != want {
			t.Errorf("%s with basic auth: %d, want %d", uri, rec.Code, want)
		}
	}
}
