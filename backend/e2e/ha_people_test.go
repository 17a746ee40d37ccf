//go:build e2e

package e2e

import (
	"context"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
)

// haPortalHost is the sign-in portal's name in the replica scenarios
// (PANEL_PORTAL_URL of both replicas); requests for it go to replica A.
const haPortalHost = "auth.ha.access.test"

// personDisabledOnARefusedByB: a person signs in on the portal on A, the
// exchange for a people service's session happens on B, both replicas
// admit the session; the administrator disables the person on A, and both
// replicas refuse the very next request (B within a second).
func (s *haSetup) personDisabledOnARefusedByB(t *testing.T) {
	const host, password = "people.ha.access.test", "pat-portal-password"
	var portal map[string]any
	s.a.MustJSON(t, http.StatusOK, http.MethodGet, "/api/config/portal", nil, &portal)
	portal["host"] = haPortalHost
	s.a.MustJSON(t, http.StatusOK, http.MethodPut, "/api/config/portal", portal, nil)
	var family, pat struct{ ID string }
	s.a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/groups", map[string]any{"name": "family"}, &family)
	s.a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/people", map[string]any{
		"username": "pat", "panelRole": "none", "password": password, "groups": []string{family.ID}}, &pat)
	svc := accessService(t, s.a.Panel, s.be, host, map[string]any{"type": "people", "groups": []string{family.ID}})

	// B learns the service, the portal and pat from A's change events: an
	// anonymous browser on B is sent to the portal's continue hop.
	original := "http://" + host + "/inbox"
	page := map[string]string{"Accept": "text/html"}
	var code int
	if waitFor(5*time.Second, 10*time.Millisecond, func() bool {
		code, _ = verifyAtWith(t, s.b.URL, svc, host, "/inbox", page)
		return code == http.StatusFound
	}) < 0 {
		t.Fatalf("B never sent an anonymous visitor of the people service to the portal: %d", code)
	}

	// The portal on A: pat signs in, and the continue hop hands out a
	// one-time exchange token for the service's host.
	jar, _ := cookiejar.New(nil)
	aAddr := strings.TrimPrefix(s.a.URL, "http://")
	d := &net.Dialer{Timeout: 5 * time.Second}
	c := &http.Client{
		Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				if h, _, _ := net.SplitHostPort(addr); h == haPortalHost {
					addr = aAddr
				}
				return d.DialContext(ctx, network, addr)
			}},
	}
	login := portalPostTo(t, c, haPortalHost, "/api/admin/login", map[string]string{"username": "pat", "password": password})
	if login.code != http.StatusOK {
		t.Fatalf("pat signs in on the portal on A: %d %s", login.code, login.body)
	}
	hop := fetch(t, c, "http://"+haPortalHost+forwardauth.PortalContinuePath+"?rd="+url.QueryEscape(original), nil)
	back, err := url.Parse(hop.location)
	if hop.code != http.StatusFound || err != nil || back.Host != host || back.Query().Get(forwardauth.ExchangeParam) == "" {
		t.Fatalf("continue hop on A: %d %q %.200s", hop.code, hop.location, hop.body)
	}

	// The exchange on B (Traefik's forward-auth may reach either replica).
	code, cookie := verifyAtWith(t, s.b.URL, svc, host, back.RequestURI(), page)
	if code != http.StatusFound || cookie == "" {
		t.Fatalf("exchange on B: %d, cookie %t", code, cookie != "")
	}
	for name, base := range map[string]string{"A": s.a.URL, "B": s.b.URL} {
		if code, _ := verifyAt(t, base, svc, host, "/inbox", cookie); code != http.StatusOK {
			t.Fatalf("%s refused pat's session before she was disabled: %d", name, code)
		}
	}

	// Timed from A's answer: the change is committed then.
	s.a.MustJSON(t, http.StatusOK, http.MethodPatch, "/api/people/"+pat.ID, map[string]any{"enabled": false}, nil)
	if code, _ := verifyAt(t, s.a.URL, svc, host, "/inbox", cookie); code == http.StatusOK {
		t.Fatal("A admitted pat's next request after disabling her")
	}
	refused := waitFor(5*time.Second, 5*time.Millisecond, func() bool {
		code, _ := verifyAt(t, s.b.URL, svc, host, "/inbox", cookie)
		return code != http.StatusOK
	})
	t.Logf("ha people: disabled_on_a_refused_by_b=%s", ms(refused))
	if refused < 0 {
		t.Fatal("B still admitted pat 5 s after A disabled her")
	}
	if refused > time.Second {
		t.Errorf("B refused the disabled person after %s, want within 1 s", ms(refused))
	}
}
