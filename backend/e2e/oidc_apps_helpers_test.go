//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// appStack is the panel as an OpenID provider for a real third-party app:
// the portal (the issuer) at http://localhost:<panel port>, a real Traefik
// routing the app's host (HTTPS, Traefik's default certificate) to
// oauth2-proxy (a service of the panel, as a
// self-hoster would add it), and oauth2-proxy, a relying party of the
// panel, in front of an upstream that answers with the headers it got.
type appStack struct {
	p        *harness.Panel
	tr       *harness.Traefik
	o2p      *harness.OAuth2Proxy
	upstream *harness.Backend
	issuer   string // http://localhost:<panel port>
	app      string // https://app.localhost:<Traefik's websecure port>
	clientID string
}

// appCookieRefresh is oauth2-proxy's --cookie-refresh in the Go scenario:
// past it, a request makes oauth2-proxy redeem its refresh token.
const appCookieRefresh = 2 * time.Second

// refreshSlop is how long past appCookieRefresh a scenario waits:
// oauth2-proxy counts a session's age in whole seconds.
const refreshSlop = 1500 * time.Millisecond

// appClient describes the OpenID client the stack registers for oauth2-proxy.
type appClient struct {
	allowedGroups []string // group ids; none lets every active person in
}

// startAppStack starts the panel with its portal on localhost, Traefik,
// the upstream and oauth2-proxy, registers oauth2-proxy as a confidential
// client and routes the app's host to it; it returns once a request for the
// app is sent to the provider. env is added to the panel's environment (a
// database); groups runs after the panel starts and before the client is
// made (groups and people), answering the client.
func startAppStack(t *testing.T, env map[string]string, groups func(p *harness.Panel) appClient) *appStack {
	t.Helper()
	harness.TraefikBin(t)
	bin := harness.OAuth2ProxyBin(t)
	port := harness.FreePort(t)
	// localhost: the name Go resolves without DNS (oauth2-proxy reads the
	// discovery document, the keys and the token endpoint from it), which
	// browsers also treat as a secure context.
	issuer := "http://localhost:" + strconv.Itoa(port)
	vars := map[string]string{"PANEL_LISTEN": "127.0.0.1:" + strconv.Itoa(port), "PANEL_PORTAL_URL": issuer}
	for k, v := range env {
		vars[k] = v
	}
	p := harness.StartPanel(t, vars)
	var portal map[string]any
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"] = "localhost"
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)
	spec := groups(p)

	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})
	websecure, err := url.Parse(tr.WebsecureURL)
	if err != nil {
		t.Fatal(err)
	}
	// https: the clients' administration takes http redirect URIs only
	// for localhost and loopback addresses, and an app is served over TLS.
	s := &appStack{p: p, tr: tr, issuer: issuer, app: "https://app.localhost:" + websecure.Port(),
		upstream: harness.StartBackend(t, "app")}
	o2pPort := harness.FreePort(t)
	clientID, secret := registerAppClient(t, p, s.app+"/oauth2/callback", spec)
	s.clientID = clientID

	harness.Eventually(t, 30*time.Second, func() bool {
		resp, err := http.Get(issuer + "/.well-known/openid-configuration")
		if err != nil {
			return false
		}
		_ = resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, "the provider's discovery document never answered on the portal's host")
	s.o2p = harness.StartOAuth2Proxy(t, harness.OAuth2ProxyOptions{
		Bin: bin, Issuer: issuer, ClientID: s.clientID, ClientSecret: secret,
		RedirectURL: s.app + "/oauth2/callback", Upstream: s.upstream.URL, Port: o2pPort,
		// offline_access: a refresh token, redeemed once the session is
		// older than --cookie-refresh; a disabled person's is refused.
		Scopes:    []string{"openid", "profile", "email", "groups", "offline_access"},
		ExtraArgs: []string{"--cookie-refresh=" + appCookieRefresh.String()},
	})
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "app", "hostnames": []map[string]string{{"type": "custom", "value": "app.localhost"}},
		"targets": []map[string]any{{"host": "127.0.0.1", "port": o2pPort}}, "entrypoints": []string{"websecure"},
	}, nil)
	c := appBrowser(t)
	harness.Eventually(t, 30*time.Second, func() bool {
		a := fetch(t, c, s.app+"/", nil)
		return a.code == http.StatusFound && strings.HasPrefix(a.location, issuer+"/oidc/authorize?")
	}, "the app's host never sent browsers to the provider through Traefik and oauth2-proxy")
	return s
}

// registerAppClient registers oauth2-proxy as a confidential client
// through the panel's API (POST /api/oidc/clients), as an administrator
// would, and answers its client id and the secret shown once.
func registerAppClient(t *testing.T, p *harness.Panel, redirectURI string, spec appClient) (id, secret string) {
	t.Helper()
	var out struct {
		Client struct{ ID string }
		Secret string
	}
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/oidc/clients", map[string]any{
		"name": "Wiki (oauth2-proxy)", "redirectUris": []string{redirectURI},
		"allowedGroupIds": spec.allowedGroups,
		"scopes":          []string{"openid", "profile", "email", "groups", "offline_access"},
		"grantTypes":      []string{"authorization_code", "refresh_token"},
	}, &out)
	if out.Client.ID == "" || out.Secret == "" {
		t.Fatalf("the new client has no id or no secret: %+v", out)
	}
	return out.Client.ID, out.Secret
}

// appBrowser is a browser for the *.localhost names: a cookie jar, no
// automatic redirects, every *.localhost name dialled on the loopback (as
// browsers resolve them) at the URL's port, and Traefik's self-signed
// default certificate accepted.
func appBrowser(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{
		Jar: jar, Timeout: 15 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{DisableKeepAlives: true,
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // Traefik's default certificate is self-signed
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if h, port, err := net.SplitHostPort(addr); err == nil && strings.HasSuffix(h, ".localhost") {
					addr = net.JoinHostPort("127.0.0.1", port)
				}
				return d.DialContext(ctx, network, addr)
			}},
	}
}

// walk fetches rawURL and follows redirects (at most 12), resolving
// relative addresses as a browser does, until an answer is not a redirect
// or stop says so for the address it is about to visit. It returns the
// last answer, the address it came from and every address visited after the
// first.
func walk(t *testing.T, c *http.Client, rawURL string, stop func(next *url.URL) bool) (answer, string, []string) {
	t.Helper()
	at := rawURL
	var hops []string
	a := fetch(t, c, at, nil)
	for range 12 {
		if a.code != http.StatusFound && a.code != http.StatusSeeOther && a.code != http.StatusMovedPermanently &&
			a.code != http.StatusTemporaryRedirect {
			return a, at, hops
		}
		base, _ := url.Parse(at)
		next, err := base.Parse(a.location)
		if err != nil {
			t.Fatalf("redirect from %s to %q: %v", at, a.location, err)
		}
		if stop != nil && stop(next) {
			return a, at, hops
		}
		at = next.String()
		hops = append(hops, at)
		a = fetch(t, c, at, nil)
	}
	t.Fatalf("more than 12 redirects from %s: %v", rawURL, hops)
	return a, at, hops
}

// portalJSON is the portal's page calling its API on the issuer's host:
// JSON, same origin; it answers the status and the body.
func portalJSON(t *testing.T, c *http.Client, issuer, method, path string, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, issuer+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", issuer)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
