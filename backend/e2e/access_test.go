//go:build e2e

package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// browser is a non-redirecting client with a cookie jar that reaches every
// *.access.test host through Traefik's web entrypoint, like a browser whose
// DNS points those names at the proxy.
func browser(t *testing.T, tr *harness.Traefik) *http.Client {
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
				if h, _, _ := net.SplitHostPort(addr); strings.HasSuffix(h, ".access.test") {
					addr = web.Host
				}
				return d.DialContext(ctx, network, addr)
			}},
	}
}

type answer struct {
	code     int
	location string
	body     string
	reply    harness.BackendReply
}

func fetch(t *testing.T, c *http.Client, rawURL string, hdr map[string]string) answer {
	t.Helper()
	return visit(t, c, http.MethodGet, rawURL, hdr)
}

// press is a browser pressing the button of a shared link's page: a POST
// to the link's own address with the page's origin.
func press(t *testing.T, c *http.Client, link string) answer {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return visit(t, c, http.MethodPost, link, map[string]string{"Origin": u.Scheme + "://" + u.Host,
		"Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded"})
}

func visit(t *testing.T, c *http.Client, method, rawURL string, hdr map[string]string) answer {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{body: err.Error()}
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	a := answer{code: resp.StatusCode, location: resp.Header.Get("Location"), body: string(b)}
	_ = json.Unmarshal(b, &a.reply)
	return a
}

// accessService creates a service on host (web entrypoint) with one protection.
func accessService(t *testing.T, p *harness.Panel, be *harness.Backend, host string, protection map[string]any) string {
	t.Helper()
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
	}, &svc)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs", protection, nil)
	return svc.ID
}

func TestAccessThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "protected")
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	t.Run("basic auth", func(t *testing.T) {
		var set struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
			"name": "e2e", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
		accessService(t, p, be, "basic.access.test", map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
		c := browser(t, tr)
		harness.Eventually(t, 30*time.Second, func() bool {
			return fetch(t, c, "http://basic.access.test/", nil).code == http.StatusUnauthorized
		}, "basic.access.test never asked for credentials")
		creds := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
		a := fetch(t, c, "http://basic.access.test/x", map[string]string{"Authorization": creds, "Remote-User": "mallory"})
		if a.code != http.StatusOK || a.reply.Backend != "protected" || a.reply.Headers["Remote-User"] != "alice" {
			t.Fatalf("with credentials: %d %+v", a.code, a.reply)
		}
		wrong := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:wrong"))
		if a := fetch(t, c, "http://basic.access.test/", map[string]string{"Authorization": wrong}); a.code != http.StatusUnauthorized {
			t.Fatalf("wrong password: %d", a.code)
		}
	})

	t.Run("shared link", func(t *testing.T) {
		id := accessService(t, p, be, "link.access.test", map[string]any{"type": "shared_links"})
		var link struct{ URL string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+id+"/shared-links",
			map[string]any{"lifetimeSeconds": 600, "sessionSeconds": 600, "note": "e2e"}, &link)
		if !strings.HasPrefix(link.URL, "http://link.access.test/?gh_link=") {
			t.Fatalf("link %q", link.URL)
		}
		probe := browser(t, tr)
		harness.Eventually(t, 30*time.Second, func() bool {
			return fetch(t, probe, "http://link.access.test/", nil).code == http.StatusUnauthorized
		}, "link.access.test never became protected")

		// Link-preview robots of chat and mail fetch the link first, any
		// number of times: they get the link's page and use nothing.
		robot := browser(t, tr)
		for _, m := range []string{http.MethodHead, http.MethodGet, http.MethodHead, http.MethodGet} {
			for _, hdr := range []map[string]string{
				{"User-Agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Accept": "*/*"},
				{"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Outlook-SafeLinks"},
			} {
				a := visit(t, robot, m, link.URL, hdr)
				if a.code != http.StatusUnauthorized || a.location != "" || (m == http.MethodGet && hdr["Accept"] == "" && !strings.Contains(a.body, "<form")) {
					t.Fatalf("robot %s %s: %d %q %s", m, hdr["User-Agent"], a.code, a.location, a.body)
				}
			}
		}
		u, _ := url.Parse("http://link.access.test/")
		if len(robot.Jar.Cookies(u)) != 0 {
			t.Fatal("a robot got a session cookie")
		}

		// The person sees the page, presses its button, and is in.
		c := browser(t, tr)
		if a := fetch(t, c, link.URL, nil); a.code != http.StatusUnauthorized || !strings.Contains(a.body, `<form method="post"`) {
			t.Fatalf("the person's first visit: %d %s", a.code, a.body)
		}
		a := press(t, c, link.URL)
		if a.code != http.StatusSeeOther || a.location != "http://link.access.test/" {
			t.Fatalf("pressing the button: %d %q %s", a.code, a.location, a.body)
		}
		if len(c.Jar.Cookies(u)) == 0 {
			t.Fatal("no session cookie reached the browser")
		}
		if a := fetch(t, c, a.location, nil); a.code != http.StatusOK || a.reply.Backend != "protected" {
			t.Fatalf("with cookie: %d %s", a.code, a.body)
		}
		fresh := browser(t, tr)
		if a := press(t, fresh, link.URL); a.code != http.StatusUnauthorized || !strings.Contains(a.body, "already used") {
			t.Fatalf("second press from a fresh client: %d %s", a.code, a.body)
		}
		if a := fetch(t, fresh, link.URL, nil); a.code != http.StatusUnauthorized || !strings.Contains(a.body, "already used") {
			t.Fatalf("second visit from a fresh client: %d %s", a.code, a.body)
		}
	})

	t.Run("single sign-on", func(t *testing.T) {
		startProvider(t, p, "openid", "email", "profile", "groups")
		accessService(t, p, be, "sso.access.test", map[string]any{"type": "sso", "groups": []string{"engineering"}})

		c := browser(t, tr)
		var a answer
		harness.Eventually(t, 30*time.Second, func() bool {
			a = fetch(t, c, "http://sso.access.test/dash?x=1", nil)
			return a.code == http.StatusFound
		}, "sso.access.test never redirected to sign-in")
		if !strings.HasPrefix(a.location, p.URL+"/api/auth/sso/start?") {
			t.Fatalf("sign-in redirect %q", a.location)
		}
		steps := []string{"panel start", "provider", "panel callback", "exchange on the service host"}
		for _, step := range steps {
			a = fetch(t, c, a.location, nil)
			if a.code != http.StatusFound {
				t.Fatalf("%s: %d %s", step, a.code, a.body)
			}
		}
		if a.location != "http://sso.access.test/dash?x=1" {
			t.Fatalf("after sign-in: %q", a.location)
		}
		a = fetch(t, c, a.location, nil)
		if a.code != http.StatusOK || a.reply.Headers["Remote-User"] != "jane.doe" ||
			!strings.Contains(a.reply.Headers["Remote-Groups"], "engineering") {
			t.Fatalf("upstream: %d %+v", a.code, a.reply)
		}
	})
}
