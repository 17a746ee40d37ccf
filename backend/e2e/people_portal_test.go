//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
)

const portalHost = "auth.example.test"

// portalBrowser is browser for the *.example.test names: a non-redirecting
// client with a cookie jar whose DNS points them at Traefik's web
// entrypoint, so each request reaches Traefik on port 80 of its name and
// carries that name as its Host.
func portalBrowser(t *testing.T, tr *harness.Traefik) *http.Client {
	t.Helper()
	web, err := url.Parse(tr.WebURL)
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{
		Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if h, _, _ := net.SplitHostPort(addr); strings.HasSuffix(h, ".example.test") {
					addr = web.Host
				}
				return d.DialContext(ctx, network, addr)
			}},
	}
}

// portalPost is the portal's page calling its API: JSON, same origin.
func portalPost(t *testing.T, c *http.Client, path string, body any) answer {
	t.Helper()
	return portalPostTo(t, c, portalHost, path, body)
}

// portalPostTo is portalPost for the portal on host.
func portalPostTo(t *testing.T, c *http.Client, host, path string, body any) answer {
	t.Helper()
	var rd io.Reader = strings.NewReader("{}")
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+host+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", "http://"+host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, location: resp.Header.Get("Location"), body: string(b)}
}

// follow fetches rawURL and follows redirects (at most 8), returning the
// last answer and every address visited after the first.
func follow(t *testing.T, c *http.Client, rawURL string) (answer, []string) {
	t.Helper()
	var hops []string
	a := fetch(t, c, rawURL, nil)
	for range 8 {
		if a.code != http.StatusFound && a.code != http.StatusSeeOther {
			return a, hops
		}
		hops = append(hops, a.location)
		a = fetch(t, c, a.location, nil)
	}
	t.Fatalf("more than 8 redirects from %s: %v", rawURL, hops)
	return a, hops
}

// signInOnPortal is a person opening service, being sent through the
// continue hop to the portal's sign-in page, signing in there with a
// password, and going back: it returns the service's answer and how long
// it took from the sign-in's answer to it.
func signInOnPortal(t *testing.T, c *http.Client, service, username, password string) (answer, time.Duration) {
	t.Helper()
	a := fetch(t, c, service, nil)
	continueURL := "http://" + portalHost + forwardauth.PortalContinuePath + "?rd=" + url.QueryEscape(service)
	if a.code != http.StatusFound || a.location != continueURL {
		t.Fatalf("%s opens %s: %d %q, want the continue hop %q", username, service, a.code, a.location, continueURL)
	}
	a = fetch(t, c, a.location, nil)
	signInURL := "http://" + portalHost + "/login?rd=" + url.QueryEscape(continueURL)
	if a.code != http.StatusFound || a.location != signInURL {
		t.Fatalf("continue hop signed out: %d %q, want the sign-in page %q", a.code, a.location, signInURL)
	}
	if a = fetch(t, c, a.location, nil); a.code != http.StatusOK || !strings.Contains(strings.ToLower(a.body), "<html") {
		t.Fatalf("portal sign-in page: %d %.200s", a.code, a.body)
	}
	u, _ := url.Parse(signInURL)
	rd := u.Query().Get("rd")
	began := time.Now()
	login := portalPost(t, c, "/api/admin/login", map[string]string{"username": username, "password": password})
	signedIn := time.Now()
	t.Logf("%s's sign-in on the portal answered in %v (password hashing included)", username, signedIn.Sub(began))
	if login.code != http.StatusOK || !strings.Contains(login.body, `"username":"`+username+`"`) {
		t.Fatalf("%s signs in on the portal: %d %s", username, login.code, login.body)
	}
	// The page goes to rd, an address on the portal (the continue hop),
	// which sends the person back with a one-time token, which the
	// service's host trades for its session cookie.
	a = fetch(t, c, rd, nil)
	back, _ := url.Parse(a.location)
	if a.code != http.StatusFound || back == nil || "http://"+back.Host+back.Path != strings.SplitN(service, "?", 2)[0] ||
		back.Query().Get(forwardauth.ExchangeParam) == "" {
		t.Fatalf("continue hop signed in: %d %q %.300s", a.code, a.location, a.body)
	}
	if a = fetch(t, c, a.location, nil); a.code != http.StatusFound || a.location != service {
		t.Fatalf("exchange on the service's host: %d %q %.300s", a.code, a.location, a.body)
	}
	a = fetch(t, c, a.location, nil)
	return a, time.Since(signedIn)
}

// TestPeoplePortalThroughTraefik: the sign-in portal, people and groups
// and the people protection together through a real Traefik. The portal's
// host reaches the panel through Traefik; ann (family) signs in once on it
// and opens both family services without signing in again, is refused the
// admins' service with a readable page, sees exactly her services on the
// launcher, and signing out everywhere sends her back to the portal; bob
// (admins) is refused from his next request once disabled; no
// administration route answers on the portal's host.
func TestPeoplePortalThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	// Browsers reach the portal on plain HTTP, port 80 of its name.
	p := harness.StartPanel(t, map[string]string{"PANEL_PORTAL_URL": "http://" + portalHost})
	files := t.TempDir()
	// An external Traefik's router for the portal's host, as docs/portal.md
	// has it: to the panel, Host header passed on.
	dyn := "http:\n  routers:\n    gatehouse-portal:\n      rule: Host(`" + portalHost + "`)\n" +
		"      entryPoints: [web]\n      service: gatehouse\n" +
		"  services:\n    gatehouse:\n      loadBalancer:\n        servers:\n          - url: \"" + p.URL + "\"\n"
	if err := os.WriteFile(filepath.Join(files, "portal.yml"), []byte(dyn), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config", FileDir: files})

	var portal map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"] = portalHost
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)

	var family, admins struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "family"}, &family)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "admins"}, &admins)
	const annPassword, bobPassword = "ann-portal-password", "bob-portal-password"
	var ann, bob struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
		"username": "ann", "email": "ann@example.test", "displayName": "Ann", "panelRole": "none",
		"password": annPassword, "groups": []string{family.ID}}, &ann)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
		"username": "bob", "panelRole": "none", "password": bobPassword, "groups": []string{admins.ID}}, &bob)

	people := func(groupID string) map[string]any {
		return map[string]any{"type": "people", "groups": []string{groupID}}
	}
	idA := accessService(t, p, harness.StartBackend(t, "a"), "a.example.test", people(family.ID))
	idA2 := accessService(t, p, harness.StartBackend(t, "a2"), "a2.example.test", people(family.ID))
	accessService(t, p, harness.StartBackend(t, "b"), "b.example.test", people(admins.ID))

	c := portalBrowser(t, tr)
	harness.Eventually(t, 30*time.Second, func() bool {
		a := fetch(t, c, "http://"+portalHost+"/api/portal", nil)
		return a.code == http.StatusOK && strings.Contains(a.body, `"portal":true`)
	}, "the portal's host never reached the panel through Traefik")
	harness.Eventually(t, 30*time.Second, func() bool {
		for _, h := range []string{"a", "a2", "b"} {
			if a := fetch(t, c, "http://"+h+".example.test/", nil); a.code != http.StatusFound {
				return false
			}
		}
		return true
	}, "the services never sent browsers to the portal")

	// ann: one sign-in on the portal, and A answers with her identity.
	a, took := signInOnPortal(t, c, "http://a.example.test/photos?album=1", "ann", annPassword)
	if a.code != http.StatusOK || a.reply.Backend != "a" || a.reply.Headers["Remote-User"] != "ann" ||
		a.reply.Headers["Remote-Groups"] != "family" || a.reply.Headers["Remote-Email"] != "ann@example.test" {
		t.Fatalf("A after the portal sign-in: %d %+v %.300s", a.code, a.reply, a.body)
	}
	t.Logf("portal sign-in to the first protected response through Traefik: %v (from the sign-in's answer to the upstream's 200: continue hop, exchange, service)", took)

	// A2: no second sign-in, only redirects (the continue hop and the exchange).
	a, hops := follow(t, c, "http://a2.example.test/")
	if a.code != http.StatusOK || a.reply.Backend != "a2" || a.reply.Headers["Remote-User"] != "ann" || len(hops) != 3 {
		t.Fatalf("A2 without signing in again: %d %+v via %v", a.code, a.reply, hops)
	}
	for _, h := range hops {
		if strings.HasPrefix(h, "http://"+portalHost+"/?") {
			t.Fatalf("A2 went through the sign-in page: %v", hops)
		}
	}

	// B is for admins: a page saying so, from the continue hop.
	a, hops = follow(t, c, "http://b.example.test/")
	if a.code != http.StatusForbidden || !strings.Contains(a.body, "You are signed in as ann") || !strings.Contains(a.body, "admins") ||
		!strings.Contains(strings.ToLower(a.body), "<html") || a.reply.Backend != "" {
		t.Fatalf("B for ann: %d via %v: %.500s", a.code, hops, a.body)
	}

	// The launcher lists exactly A and A2.
	a = fetch(t, c, "http://"+portalHost+"/api/portal/services", map[string]string{"Accept": "application/json"})
	var launcher forwardauth.LauncherResponse
	if err := json.Unmarshal([]byte(a.body), &launcher); a.code != http.StatusOK || err != nil {
		t.Fatalf("launcher: %d %s", a.code, a.body)
	}
	var ids []string
	for _, s := range launcher.Services {
		ids = append(ids, s.ID)
	}
	if slices.Sort(ids); !slices.Equal(ids, sorted(idA, idA2)) {
		t.Fatalf("ann's launcher lists %+v, want A and A2 only", launcher.Services)
	}

	// No administration route answers on the portal's host, with ann's
	// portal session or with the administrator's panel session.
	panelURL, _ := url.Parse(p.URL)
	var adminCookie []string
	for _, ck := range p.Client.Jar.Cookies(panelURL) {
		adminCookie = append(adminCookie, ck.Name+"="+ck.Value)
	}
	if len(adminCookie) == 0 {
		t.Fatal("the administrator has no session cookie")
	}
	for _, path := range []string{"/api/services", "/api/people", "/api/groups", "/api/proxy/config", "/api/config/portal", "/api/sessions"} {
		for who, hdr := range map[string]map[string]string{
			"ann":   {"Accept": "application/json"},
			"admin": {"Accept": "application/json", "Cookie": strings.Join(adminCookie, "; ")},
		} {
			hc := c
			if who == "admin" {
				hc = portalBrowser(t, tr)
			}
			if a := fetch(t, hc, "http://"+portalHost+path, hdr); a.code != http.StatusNotFound || !strings.Contains(a.body, `"error"`) {
				t.Errorf("GET %s on the portal's host as %s: %d %.200s", path, who, a.code, a.body)
			}
		}
	}
	if a := portalPost(t, c, "/api/people", map[string]any{"username": "eve", "panelRole": "admin"}); a.code != http.StatusNotFound {
		t.Errorf("POST /api/people on the portal's host: %d %.200s", a.code, a.body)
	}

	// ann's service sessions came from her portal session.
	serviceSessions := func() []string {
		var list struct{ Items []struct{ ServiceID string } }
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/people/"+ann.ID+"/service-sessions", nil, &list)
		var out []string
		for _, it := range list.Items {
			out = append(out, it.ServiceID)
		}
		slices.Sort(out)
		return out
	}
	if got := serviceSessions(); !slices.Equal(got, sorted(idA, idA2)) {
		t.Fatalf("ann's service sessions are on %v, want A and A2", got)
	}

	// Sign out everywhere: A and A2 send her to the portal again, and the
	// continue hop to its sign-in page.
	if a := portalPost(t, c, "/api/admin/logout?everywhere=1", nil); a.code != http.StatusNoContent && a.code != http.StatusOK {
		t.Fatalf("sign out everywhere: %d %s", a.code, a.body)
	}
	for _, svc := range []string{"http://a.example.test/", "http://a2.example.test/"} {
		a := fetch(t, c, svc, nil)
		if a.code != http.StatusFound || !strings.HasPrefix(a.location, "http://"+portalHost+forwardauth.PortalContinuePath+"?") {
			t.Fatalf("%s after signing out everywhere: %d %q", svc, a.code, a.location)
		}
		if a = fetch(t, c, a.location, nil); a.code != http.StatusFound || !strings.HasPrefix(a.location, "http://"+portalHost+"/login?rd=") {
			t.Fatalf("continue hop after signing out everywhere: %d %q", a.code, a.location)
		}
	}
	if got := serviceSessions(); len(got) != 0 {
		t.Fatalf("ann's service sessions after signing out everywhere: %v", got)
	}

	// bob opens B; once disabled, his next request is refused.
	cb := portalBrowser(t, tr)
	a, _ = signInOnPortal(t, cb, "http://b.example.test/", "bob", bobPassword)
	if a.code != http.StatusOK || a.reply.Backend != "b" || a.reply.Headers["Remote-User"] != "bob" || a.reply.Headers["Remote-Groups"] != "admins" {
		t.Fatalf("B for bob: %d %+v", a.code, a.reply)
	}
	if a, _ := follow(t, cb, "http://a.example.test/"); a.code != http.StatusForbidden || !strings.Contains(a.body, "You are signed in as bob") {
		t.Fatalf("A for bob: %d %.300s", a.code, a.body)
	}
	p.MustJSON(t, http.StatusOK, http.MethodPatch, "/api/people/"+bob.ID, map[string]any{"enabled": false}, nil)
	if a := fetch(t, cb, "http://b.example.test/", nil); a.code == http.StatusOK || a.reply.Backend != "" {
		t.Fatalf("B for bob once disabled: %d %+v", a.code, a.reply)
	}
	if a, hops := follow(t, cb, "http://b.example.test/"); a.code == http.StatusOK && a.reply.Backend != "" {
		t.Fatalf("B for bob once disabled, following redirects: reached the upstream via %v", hops)
	}
	if a := portalPost(t, portalBrowser(t, tr), "/api/admin/login", map[string]string{"username": "bob", "password": bobPassword}); a.code == http.StatusOK {
		t.Fatalf("bob signs in on the portal once disabled: %d %s", a.code, a.body)
	}
}

func sorted(s ...string) []string {
	slices.Sort(s)
	return s
}
