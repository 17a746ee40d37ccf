//go:build e2e

package e2e

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// haSetup is two replicas of the real binary on one PostgreSQL database
// behind a real Traefik: Traefik's HTTP provider polls replica B, and the
// forward-auth address both replicas emit is Traefik's own loopback
// entrypoint that balances over A and B.
type haSetup struct {
	a, b *harness.Replica
	lb   harness.ReplicaBalancer
	tr   *harness.Traefik
	be   *harness.Backend
	oidc *mockoidc.MockOIDC

	sessionSvc, ssoSvc, onceSvc, loadSvc string
	basicCreds                           string
}

// TestHA runs the high-availability scenarios. The protected services are
// written on A before B starts, so B reads them when it starts; what the
// scenarios change afterwards (a new service, a revoked session, a pending
// sign-in) reaches B only through the database and the replicas' change
// notifications.
func TestHA(t *testing.T) {
	harness.TraefikBin(t)
	dbURL := harness.PostgresDatabase(t)
	bin := harness.BuildGatehouse(t)
	started := time.Now()

	s := &haSetup{lb: harness.ReplicaBalancer{Port: harness.FreePort(t)}}
	env := map[string]string{
		"PANEL_DATABASE_URL": dbURL,
		"PANEL_AGE_IDENTITY": harness.AgeIdentity(t),
		"PANEL_INTERNAL_URL": s.lb.URL(),
		"PANEL_PORTAL_URL":   "http://" + haPortalHost,
	}
	s.a = harness.StartReplica(t, bin, "a", env) // migrates and creates the administrator
	s.be = harness.StartBackend(t, "ha")
	s.prepare(t)
	s.b = harness.StartReplica(t, bin, "b", env)

	fileDir := t.TempDir()
	s.lb.Write(t, fileDir, s.a.URL, s.b.URL)
	s.tr = harness.StartTraefik(t, harness.TraefikOptions{
		ProviderURL: s.b.URL + "/api/proxy/config", FileDir: fileDir,
		// Apply each polled configuration at once: the propagation figure
		// is the panel's, not Traefik's default two-second throttle.
		Static: s.lb.Static() + "providers:\n  providersThrottleDuration: 100ms\n",
	})
	harness.Eventually(t, 30*time.Second, func() bool { return harness.Healthy(s.lb.URL()) },
		"the replicas' entrypoint never answered /api/health")
	t.Logf("ha setup: two replicas, traefik and the load balancer up in %s", time.Since(started).Round(time.Millisecond))

	t.Run("service written on A routes through B", s.serviceOnARoutes)
	t.Run("session revoked on A is refused by B", s.revokedOnARefusedByB)
	t.Run("SSO started on A finishes on B", s.ssoAcrossReplicas)
	t.Run("person disabled on A is refused by B", s.personDisabledOnARefusedByB)
	t.Run("one-use link used 60 times across both", s.oneUseLinkOnce)
	t.Run("SIGKILL of a replica under load", s.killUnderLoad)
}

// prepare writes on A the protected services the later scenarios use and
// the OpenID provider settings.
func (s *haSetup) prepare(t *testing.T) {
	t.Helper()
	var err error
	if s.oidc, err = mockoidc.Run(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.oidc.Shutdown() })
	cfg := s.oidc.Config()
	s.a.MustJSON(t, http.StatusOK, http.MethodPut, "/api/sso", map[string]any{
		"enabled": true, "issuer": cfg.Issuer, "clientId": cfg.ClientID, "clientSecret": cfg.ClientSecret,
		"scopes": []string{"openid", "email", "profile", "groups"}}, nil)

	s.sessionSvc = accessService(t, s.a.Panel, s.be, "session.ha.access.test", map[string]any{"type": "shared_links"})
	s.ssoSvc = accessService(t, s.a.Panel, s.be, "sso.ha.access.test", map[string]any{"type": "sso"})
	s.onceSvc = accessService(t, s.a.Panel, s.be, "once.ha.access.test", map[string]any{"type": "shared_links"})
	var set struct{ ID string }
	s.a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "ha", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	s.loadSvc = accessService(t, s.a.Panel, s.be, "load.ha.access.test", map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	s.basicCreds = "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
}

// serviceOnARoutes: a service created on A is in B's /api/proxy/config
// within Traefik's poll interval (1 s), and Traefik, polling B, routes it.
func (s *haSetup) serviceOnARoutes(t *testing.T) {
	const host = "routed.ha.access.test"
	start := time.Now()
	s.a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": s.be.Host, "port": s.be.Port}}, "entrypoints": []string{"web"},
	}, nil)
	written := time.Since(start)
	inB := waitFor(10*time.Second, 10*time.Millisecond, func() bool {
		resp, err := http.Get(s.b.URL + "/api/proxy/config")
		if err != nil {
			return false
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), host)
	})
	routed := waitFor(15*time.Second, 20*time.Millisecond, func() bool {
		code, body := s.tr.Get(s.tr.WebURL, host, "/")
		return code == http.StatusOK && containsBackend(body, "ha")
	})
	t.Logf("ha propagation: write_on_a=%s config_on_b=%s routed_by_traefik=%s poll_interval=1s",
		ms(written), ms(inB), ms(routed))
	if inB < 0 {
		t.Fatal("the service written on A never appeared in B's /api/proxy/config (10 s)")
	}
	if inB > time.Second {
		t.Errorf("B served the service %s after the write on A, want within the 1 s poll interval", ms(inB))
	}
	if routed < 0 || routed > 3*time.Second {
		t.Errorf("Traefik routed the service %s after the write, want within a poll interval and its reload (3 s)", ms(routed))
	}
}

// revokedOnARefusedByB: B caches a shared-link session, A revokes it, and
// B refuses the cookie within a second.
func (s *haSetup) revokedOnARefusedByB(t *testing.T) {
	const host = "session.ha.access.test"
	cookie := redeemLink(t, s.a, s.sessionSvc, host)
	if code, _ := verifyAt(t, s.b.URL, s.sessionSvc, host, "/", cookie); code != http.StatusOK {
		t.Fatalf("B refused the session before the revocation: %d", code)
	}
	var list struct {
		Items []struct {
			ID        string `json:"id"`
			ServiceID string `json:"serviceId"`
		} `json:"items"`
	}
	s.a.MustJSON(t, http.StatusOK, http.MethodGet, "/api/sessions", nil, &list)
	var id string
	for _, it := range list.Items {
		if it.ServiceID == s.sessionSvc {
			id = it.ID
		}
	}
	if id == "" {
		t.Fatalf("the session is not in A's list: %+v", list.Items)
	}
	// Timed from A's answer: the revocation is committed then.
	s.a.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/sessions/"+id, nil, nil)
	refused := waitFor(5*time.Second, 5*time.Millisecond, func() bool {
		code, _ := verifyAt(t, s.b.URL, s.sessionSvc, host, "/", cookie)
		return code == http.StatusUnauthorized
	})
	t.Logf("ha revocation: revoked_on_a_refused_by_b=%s", ms(refused))
	if refused < 0 {
		t.Fatal("B still accepted the session 5 s after A revoked it")
	}
	if refused > time.Second {
		t.Errorf("B refused the revoked session after %s, want within 1 s", ms(refused))
	}
}

// ssoAcrossReplicas: a browser reaches the SSO-protected service through
// Traefik, starts the sign-in on A, signs in at the provider, and comes
// back to B's callback; the exchange on the service host then goes through
// the balanced forward-auth address (either replica).
func (s *haSetup) ssoAcrossReplicas(t *testing.T) {
	c := browser(t, s.tr)
	var a answer
	harness.Eventually(t, 15*time.Second, func() bool {
		a = fetch(t, c, "http://sso.ha.access.test/dash?x=1", nil)
		return a.code == http.StatusFound
	}, "sso.ha.access.test never redirected to sign-in")
	if !strings.HasPrefix(a.location, s.lb.URL()+"/api/auth/sso/start?") {
		t.Fatalf("sign-in redirect %q, want the panel's start through %s", a.location, s.lb.URL())
	}
	steps := []struct {
		name string
		to   string // the replica the step goes to, "" for where the redirect points
	}{{"start on A", s.a.URL}, {"provider", ""}, {"callback on B", s.b.URL}, {"exchange on the service host", ""}}
	for _, st := range steps {
		next := a.location
		if st.to != "" {
			next = strings.Replace(next, s.lb.URL(), st.to, 1)
			if next == a.location {
				t.Fatalf("%s: the redirect %q does not go to the panel", st.name, a.location)
			}
		}
		a = fetch(t, c, next, nil)
		if a.code != http.StatusFound {
			t.Fatalf("%s (%s): %d %.300s", st.name, next, a.code, a.body)
		}
	}
	if a.location != "http://sso.ha.access.test/dash?x=1" {
		t.Fatalf("after sign-in: %q", a.location)
	}
	a = fetch(t, c, a.location, nil)
	if a.code != http.StatusOK || a.reply.Headers["Remote-User"] != "jane.doe" {
		t.Fatalf("upstream: %d %+v", a.code, a.reply)
	}
}

// oneUseLinkOnce: 60 requests redeem one shared link at the same instant,
// half on A and half on B: exactly one gets a session.
func (s *haSetup) oneUseLinkOnce(t *testing.T) {
	const host, n = "once.ha.access.test", 60
	var link struct{ URL string }
	s.a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+s.onceSvc+"/shared-links",
		map[string]any{"lifetimeSeconds": 600, "sessionSeconds": 600}, &link)
	lu, err := url.Parse(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	bases := []string{s.a.URL, s.b.URL}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		won   = map[string]int{}
		codes = map[int]int{}
	)
	gate := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			code, cookie := verifyAtWith(t, bases[i%2], s.onceSvc, host, lu.RequestURI(), pressed(host))
			mu.Lock()
			defer mu.Unlock()
			codes[code]++
			if cookie != "" {
				won[[]string{"a", "b"}[i%2]]++
			}
		}()
	}
	close(gate)
	wg.Wait()
	t.Logf("ha one-use link: %d concurrent uses, sessions given a=%d b=%d, statuses %v", n, won["a"], won["b"], codes)
	if won["a"]+won["b"] != 1 {
		t.Fatalf("%d uses of a one-use link got a session, want exactly 1", won["a"]+won["b"])
	}
}

// killUnderLoad: wrk sends 64 connections' worth of basic-auth requests
// through Traefik for 10 s (every request through forward-auth, balanced
// over both replicas); after 3 s replica A gets SIGKILL. The 5xx answers
// are bounded by the connections open at that instant, and requests after
// the kill succeed.
func (s *haSetup) killUnderLoad(t *testing.T) {
	const host, conns = "load.ha.access.test", 64
	hdr := map[string]string{"Authorization": s.basicCreds}
	c := browser(t, s.tr)
	harness.Eventually(t, 15*time.Second, func() bool {
		return fetch(t, c, "http://"+host+"/", hdr).code == http.StatusOK
	}, host+" never answered through Traefik with credentials")
	// Both replicas check the password once and cache it.
	for _, base := range []string{s.a.URL, s.b.URL} {
		if code, _ := verifyAtWith(t, base, s.loadSvc, host, "/", map[string]string{"Authorization": s.basicCreds}); code != http.StatusOK {
			t.Fatalf("verify on %s: %d", base, code)
		}
	}

	type killed struct {
		at          time.Time
		established int // Traefik's connections to A at the kill
	}
	kill := make(chan killed, 1)
	go func() {
		time.Sleep(3 * time.Second)
		k := killed{at: time.Now(), established: harness.EstablishedTo(s.a.Port)}
		s.a.Kill()
		kill <- k
	}()
	res := runWrk(t, s.tr.WebURL+"/", conns, 10*time.Second, "Host: "+host, "Authorization: "+s.basicCreds)
	k := <-kill
	lastBad := "none"
	if res.lastBad != 0 {
		lastBad = fmt.Sprintf("%ds", res.lastBad-k.at.Unix())
	}
	t.Logf("ha kill: requests=%d 2xx=%d 4xx=%d 5xx=%d errors=%d connections=%d established_to_killed_replica=%d last_bad_after_kill=%s",
		res.requests, res.ok, res.client, res.server, res.socketErrors, conns, k.established, lastBad)
	if res.server > conns {
		t.Errorf("%d answers were 5xx, want at most the %d connections open at the kill", res.server, conns)
	}
	if res.client > 0 {
		t.Errorf("%d answers were 4xx: the surviving replica refused valid credentials", res.client)
	}
	if res.lastBad != 0 && res.lastBad > k.at.Unix()+3 {
		t.Errorf("a non-2xx answer came %d s after the kill, want none once the health check left A out (1 s)",
			res.lastBad-k.at.Unix())
	}
	for i := range 20 {
		if a := fetch(t, c, "http://"+host+"/", hdr); a.code != http.StatusOK {
			t.Fatalf("request %d after the load: %d %s", i, a.code, a.body)
		}
	}
}

// redeemLink creates a shared link to the service on A, redeems it on A as
// Traefik would, and returns the session cookie.
func redeemLink(t *testing.T, a *harness.Replica, serviceID, host string) string {
	t.Helper()
	var link struct{ URL string }
	a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+serviceID+"/shared-links",
		map[string]any{"lifetimeSeconds": 600, "sessionSeconds": 600}, &link)
	lu, err := url.Parse(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	code, cookie := verifyAtWith(t, a.URL, serviceID, host, lu.RequestURI(), pressed(host))
	if cookie == "" {
		t.Fatalf("redeeming the link on A gave no session cookie (status %d)", code)
	}
	return cookie
}

// verifyAt asks the replica at base what Traefik's forward-auth would,
// with the session cookie when not empty, and returns the status and the
// session cookie it set, if any.
func verifyAt(t *testing.T, base, serviceID, host, uri, cookie string) (int, string) {
	t.Helper()
	hdr := map[string]string{}
	if cookie != "" {
		hdr["Cookie"] = contract.SessionCookie + "=" + cookie
	}
	return verifyAtWith(t, base, serviceID, host, uri, hdr)
}

// pressed is what forward-auth sees when the button of a shared link's
// page is pressed: the link's address, POST, and the page's origin.
func pressed(host string) map[string]string {
	return map[string]string{"X-Forwarded-Method": "POST", "Origin": "http://" + host}
}

func verifyAtWith(t *testing.T, base, serviceID, host, uri string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/api/auth/verify?service="+serviceID, nil)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	for k, v := range map[string]string{"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "http",
		"X-Forwarded-Host": host, "X-Forwarded-Uri": uri, "X-Forwarded-For": "203.0.113.7"} {
		req.Header.Set(k, v)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		return 0, ""
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(io.Discard, resp.Body)
	for _, ck := range resp.Cookies() {
		if ck.Name == contract.SessionCookie && ck.Value != "" {
			return resp.StatusCode, ck.Value
		}
	}
	return resp.StatusCode, ""
}

// waitFor polls cond every step until it holds and returns how long that
// took, or -1 after timeout.
func waitFor(timeout, step time.Duration, cond func() bool) time.Duration {
	start := time.Now()
	for {
		if cond() {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			return -1
		}
		time.Sleep(step)
	}
}

func ms(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
}
