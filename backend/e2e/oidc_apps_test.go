//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// appSignIn is a person's browser signing in to the app through
// oauth2-proxy with the panel as its provider: it opens target, signs in on
// the portal with a password when the provider sends it there, consents
// when asked, and answers where it ended (the upstream's answer, or the
// page it stopped at) and the portal pages it was shown on the way.
type appSignIn struct {
	last  answer
	at    string   // the address of last
	pages []string // portal pages shown (/login, /apps/consent, /apps/refused)
	// consent is what the consent page read (nil when none was asked).
	consent *requestInfo
	refused *requestInfo
}

// requestInfo is GET /api/portal/oidc/requests/{id}: what the consent and
// refusal pages show.
type requestInfo struct {
	App struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"app"`
	Scopes  []string `json:"scopes"`
	Refused bool     `json:"refused"`
}

// signInToApp drives c from target to the app's answer, acting as the
// portal's pages act: /login posts the person's password to the portal's
// sign-in and goes to rd; /apps/consent reads the request and approves it;
// /apps/refused reads the request and stops there.
func (s *appStack) signInToApp(t *testing.T, c *http.Client, target, username, password string) appSignIn {
	t.Helper()
	var out appSignIn
	onPortalPage := func(u *url.URL) bool {
		return "http://"+u.Host == s.issuer && !strings.HasPrefix(u.Path, "/oidc/")
	}
	next := target
	for range 6 {
		a, at, _ := walk(t, c, next, onPortalPage)
		if a.code != http.StatusFound {
			out.last, out.at = a, at
			return out
		}
		base, _ := url.Parse(at)
		page, _ := base.Parse(a.location)
		out.pages = append(out.pages, page.Path)
		// The browser loads the portal's page (the single-page app).
		if shown := fetch(t, c, page.String(), nil); shown.code != http.StatusOK || !strings.Contains(strings.ToLower(shown.body), "<html") {
			t.Fatalf("portal page %s: %d %.200s", page, shown.code, shown.body)
		}
		switch page.Path {
		case "/login":
			code, body := portalJSON(t, c, s.issuer, http.MethodPost, "/api/admin/login",
				map[string]string{"username": username, "password": password})
			if code != http.StatusOK {
				out.last, out.at = answer{code: code, body: body}, s.issuer+"/api/admin/login"
				return out
			}
			next = page.Query().Get("rd")
			if rd, err := url.Parse(next); err != nil || "http://"+rd.Host != s.issuer {
				t.Fatalf("the sign-in page's rd %q is not on the portal", next)
			}
		case "/apps/consent", "/apps/refused":
			id := page.Query().Get("id")
			info := s.requestInfo(t, c, id)
			if page.Path == "/apps/refused" {
				out.refused = &info
				out.last, out.at = fetch(t, c, page.String(), nil), page.String()
				return out
			}
			out.consent = &info
			code, body := portalJSON(t, c, s.issuer, http.MethodPost, "/api/portal/oidc/requests/"+url.PathEscape(id)+"/consent",
				map[string]bool{"approve": true})
			var n struct{ Redirect string }
			if err := json.Unmarshal([]byte(body), &n); code != http.StatusOK || err != nil || n.Redirect == "" {
				t.Fatalf("%s consents: %d %s", username, code, body)
			}
			to, err := page.Parse(n.Redirect)
			if err != nil {
				t.Fatalf("consent's redirect %q: %v", n.Redirect, err)
			}
			next = to.String()
		default:
			t.Fatalf("the provider sent %s to an unknown portal page %s", username, page)
		}
	}
	t.Fatalf("%s never reached the app from %s: pages %v", username, target, out.pages)
	return out
}

// requestInfo reads an app's pending sign-in as the consent and refusal
// pages do.
func (s *appStack) requestInfo(t *testing.T, c *http.Client, id string) requestInfo {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.issuer+"/api/portal/oidc/requests/"+url.PathEscape(id), nil)
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var info requestInfo
	if err := json.NewDecoder(resp.Body).Decode(&info); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("GET /api/portal/oidc/requests/%s: %d %v", id, resp.StatusCode, err)
	}
	return info
}

// TestOIDCAppThroughOAuth2Proxy: the panel as the OpenID provider of a real
// third-party relying party. oauth2-proxy v7 (provider oidc, PKCE S256,
// confidential client registered through POST /api/oidc/clients) guards an
// upstream behind a real Traefik. ann (family, the client's allowed group)
// opens the app, is sent to the portal, signs in with her password,
// consents once, and the upstream receives oauth2-proxy's identity headers
// with her id, username, e-mail and groups; a second app session needs no
// sign-in and no consent; once she signs out everywhere on the portal,
// oauth2-proxy's next refresh ends her app session. bob (guests) is refused with the portal's
// readable page and never reaches the upstream; cat, signed in to the app
// and then disabled, loses her app session at oauth2-proxy's next refresh
// (the provider refuses her refresh token) and cannot sign in again.
//
// It runs on SQLite and, when `make e2e` provides a server, on PostgreSQL.
func TestOIDCAppThroughOAuth2Proxy(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { appThroughOAuth2Proxy(t, nil) })
	t.Run("postgres", func(t *testing.T) {
		harness.TraefikBin(t)
		harness.OAuth2ProxyBin(t)
		appThroughOAuth2Proxy(t, map[string]string{"PANEL_DATABASE_URL": harness.PostgresDatabase(t)})
	})
}

func appThroughOAuth2Proxy(t *testing.T, env map[string]string) {
	const annPassword, bobPassword, catPassword = "ann-app-password", "bob-app-password", "cat-app-password"
	var ann, bob, cat struct{ ID string }
	began := time.Now()
	s := startAppStack(t, env, func(p *harness.Panel) appClient {
		var family, guests struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "family"}, &family)
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "guests"}, &guests)
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
			"username": "ann", "email": "ann@example.test", "displayName": "Ann", "panelRole": "none",
			"password": annPassword, "groups": []string{family.ID, guests.ID}}, &ann)
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
			"username": "bob", "email": "bob@example.test", "panelRole": "none",
			"password": bobPassword, "groups": []string{guests.ID}}, &bob)
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
			"username": "cat", "email": "cat@example.test", "panelRole": "none",
			"password": catPassword, "groups": []string{family.ID}}, &cat)
		return appClient{allowedGroups: []string{family.ID}}
	})
	t.Logf("panel, Traefik, oauth2-proxy and upstream up in %v", time.Since(began))

	// ann: portal sign-in with her password, consent, the upstream.
	c := appBrowser(t)
	target := s.app + "/wiki/page?id=7"
	began = time.Now()
	in := s.signInToApp(t, c, target, "ann", annPassword)
	took := time.Since(began)
	if in.last.code != http.StatusOK || in.last.reply.Backend != "app" || in.at != target || in.last.reply.Path != "/wiki/page" {
		t.Fatalf("ann at %s: %d %+v %.300s (pages %v)", in.at, in.last.code, in.last.reply, in.last.body, in.pages)
	}
	if strings.Join(in.pages, " ") != "/login /apps/consent" {
		t.Errorf("ann was shown %v, want the sign-in page then the consent page", in.pages)
	}
	if in.consent == nil || in.consent.App.ID != s.clientID || in.consent.App.Name != "Wiki (oauth2-proxy)" || in.consent.Refused {
		t.Errorf("ann's consent page read %+v", in.consent)
	}
	h := in.last.reply.Headers
	want := map[string]string{
		"X-Forwarded-User":               ann.ID, // sub: the person's stable id
		"X-Forwarded-Preferred-Username": "ann",
		"X-Forwarded-Email":              "ann@example.test",
	}
	for k, v := range want {
		if h[k] != v {
			t.Errorf("the upstream got %s %q, want %q (headers %v)", k, h[k], v, h)
		}
	}
	if groups := strings.Split(h["X-Forwarded-Groups"], ","); !slices.Equal(sorted(groups...), []string{"family", "guests"}) {
		t.Errorf("the upstream got X-Forwarded-Groups %q, want family and guests", h["X-Forwarded-Groups"])
	}
	t.Logf("ann: from opening the app to the upstream's answer (portal sign-in with a password, consent, code exchange) in %v", took)

	// The app's session holds: the next request goes straight through,
	// and identity headers the browser sends are replaced, never passed on.
	forged := map[string]string{"X-Forwarded-User": "mallory", "X-Forwarded-Preferred-Username": "mallory",
		"X-Forwarded-Email": "mallory@example.test", "X-Forwarded-Groups": "admins"}
	if a := fetch(t, c, s.app+"/other", forged); a.code != http.StatusOK || a.reply.Headers["X-Forwarded-Preferred-Username"] != "ann" ||
		a.reply.Headers["X-Forwarded-User"] != ann.ID || a.reply.Headers["X-Forwarded-Email"] != "ann@example.test" ||
		strings.Contains(a.reply.Headers["X-Forwarded-Groups"], "admins") {
		t.Fatalf("ann's next request, with forged identity headers: %d %+v", a.code, a.reply)
	}
	// A new app session (oauth2-proxy's cookie gone) while her portal
	// session lasts: no sign-in page and no consent page again.
	appURL, _ := url.Parse(s.app)
	for _, ck := range c.Jar.Cookies(appURL) {
		c.Jar.SetCookies(appURL, []*http.Cookie{{Name: ck.Name, Value: "", Path: "/", MaxAge: -1,
			Secure: true, HttpOnly: true, SameSite: http.SameSiteLaxMode}})
	}
	began = time.Now()
	in = s.signInToApp(t, c, s.app+"/", "ann", annPassword)
	if in.last.code != http.StatusOK || in.last.reply.Headers["X-Forwarded-Preferred-Username"] != "ann" || len(in.pages) != 0 {
		t.Fatalf("ann's second app session: %d %+v via pages %v", in.last.code, in.last.reply, in.pages)
	}
	t.Logf("ann: a new app session on her portal session (redirects only) in %v", time.Since(began))

	// ann signs out everywhere on the portal: the provider revokes the
	// tokens of her portal sessions, and oauth2-proxy's next refresh ends
	// her app session (oauth2-proxy has no back-channel logout); the app
	// sends her to sign in again.
	if code, body := portalJSON(t, c, s.issuer, http.MethodPost, "/api/admin/logout?everywhere=1", nil); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("ann signs out everywhere: %d %s", code, body)
	}
	time.Sleep(appCookieRefresh + refreshSlop)
	if a := fetch(t, c, s.app+"/", nil); a.code != http.StatusFound || !strings.HasPrefix(a.location, s.issuer+"/oidc/authorize?") {
		t.Fatalf("ann's app session after she signed out of the portal: %d %q %+v", a.code, a.location, a.reply)
	}

	// bob is outside the client's groups: the portal's refusal page, never
	// the upstream.
	cb := appBrowser(t)
	in = s.signInToApp(t, cb, s.app+"/", "bob", bobPassword)
	if in.refused == nil || !in.refused.Refused || in.refused.App.Name != "Wiki (oauth2-proxy)" {
		t.Fatalf("bob: %d at %s, pages %v, refusal %+v", in.last.code, in.at, in.pages, in.refused)
	}
	if in.last.code != http.StatusOK || !strings.Contains(strings.ToLower(in.last.body), "<html") || in.last.reply.Backend != "" {
		t.Fatalf("bob's refusal page: %d %.300s", in.last.code, in.last.body)
	}
	if a := fetch(t, cb, s.app+"/", nil); a.code == http.StatusOK || a.reply.Backend != "" {
		t.Fatalf("bob reached the upstream after his refusal: %d %+v", a.code, a.reply)
	}

	// cat signs in to the app, then is disabled: at oauth2-proxy's next
	// session refresh (--cookie-refresh) the provider refuses her refresh
	// token, oauth2-proxy drops her session, and signing in again is
	// refused by the portal.
	cc := appBrowser(t)
	in = s.signInToApp(t, cc, s.app+"/", "cat", catPassword)
	if in.last.code != http.StatusOK || in.last.reply.Headers["X-Forwarded-Preferred-Username"] != "cat" {
		t.Fatalf("cat before she is disabled: %d %+v via pages %v", in.last.code, in.last.reply, in.pages)
	}
	// Past the refresh period, while she is still enabled: the refresh
	// token rotates and the app session goes on.
	time.Sleep(appCookieRefresh + refreshSlop)
	if a := fetch(t, cc, s.app+"/", nil); a.code != http.StatusOK || a.reply.Headers["X-Forwarded-Preferred-Username"] != "cat" {
		t.Fatalf("cat's app session after a refresh: %d %q %+v", a.code, a.location, a.reply)
	}
	s.p.MustJSON(t, http.StatusOK, http.MethodPatch, "/api/people/"+cat.ID, map[string]any{"enabled": false}, nil)
	disabled := time.Now()
	time.Sleep(appCookieRefresh + refreshSlop)
	if a := fetch(t, cc, s.app+"/", nil); a.code == http.StatusOK || a.reply.Backend != "" {
		t.Fatalf("cat, disabled, still reaches the upstream after oauth2-proxy's refresh: %d %+v", a.code, a.reply)
	}
	t.Logf("cat, disabled: her app session ended at oauth2-proxy's first refresh, %v after (refresh period %v)", time.Since(disabled), appCookieRefresh)
	in = s.signInToApp(t, cc, s.app+"/", "cat", catPassword)
	if in.last.code == http.StatusOK && in.last.reply.Backend != "" {
		t.Fatalf("cat, disabled, reached the upstream via pages %v", in.pages)
	}
	// Refused either by the portal's sign-in (her session ended with her
	// account) or by the provider's refusal page.
	if in.refused == nil && in.last.code != http.StatusUnauthorized && in.last.code != http.StatusForbidden {
		t.Fatalf("cat, disabled: %d at %s (pages %v): %.300s", in.last.code, in.at, in.pages, in.last.body)
	}
	t.Logf("cat, disabled: refused at %s with %d (pages %v)", in.at, in.last.code, in.pages)
}
