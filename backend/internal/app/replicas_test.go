package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// newReplicas builds two replicas of the panel on one PostgreSQL database
// (and one data directory, for the same age identity), both listening for
// the other's changes, with A's administrator signed in on both.
func newReplicas(t *testing.T) (a, b *testApp) {
	t.Helper()
	if !testutil.OnPostgres() {
		t.Skip("replicas share a PostgreSQL database (" + testutil.PostgresEnv + ")")
	}
	env := map[string]string{"PANEL_DATA_DIR": t.TempDir()}
	a = newTestApp(t, env)
	b = newTestApp(t, env)
	for _, r := range []*testApp{a, b} {
		select {
		case <-r.c.cluster.Listening():
		case <-time.After(5 * time.Second):
			t.Fatal("a replica does not listen")
		}
	}
	a.signIn()
	b.cookie = a.cookie // administrator sessions live in the database
	return a, b
}

// within polls f until it holds, failing after d; it returns how long it took.
func within(t *testing.T, d time.Duration, what string, f func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !f() {
		if time.Since(start) > d {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

func TestReplicasSessionRevokedOnAIsRefusedByB(t *testing.T) {
	a, b := newReplicas(t)
	rec := a.do("POST", "/api/services", `{"name":"app","hostnames":[{"type":"custom","value":"app.test"}],"targets":[{"host":"10.0.0.1","port":80}]}`)
	svc := decode[struct{ ID string }](t, rec).ID
	if rec := a.do("POST", "/api/services/"+svc+"/security-configs", `{"type":"shared_links"}`); rec.Code != http.StatusCreated {
		t.Fatalf("protect: %d %s", rec.Code, rec.Body)
	}
	link := decode[struct{ URL string }](t, a.do("POST", "/api/services/"+svc+"/shared-links", `{}`)).URL
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(r *testApp, uri, cookie string) *httptest.ResponseRecorder {
		h := []string{"X-Forwarded-Method", "GET", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "app.test",
			"X-Forwarded-Uri", uri, "Accept", "application/json"}
		if cookie != "" {
			h = append(h, "Cookie", forwardauth.SessionCookie+"="+cookie)
		}
		return testutil.Request(r.handler, "GET", "/api/auth/verify?service="+svc, "", h...)
	}
	var cookie string
	res := testutil.Request(a.handler, "GET", "/api/auth/verify?service="+svc, "", "X-Forwarded-Method", "POST",
		"X-Forwarded-Proto", "https", "X-Forwarded-Host", "app.test", "X-Forwarded-Uri", u.RequestURI(),
		"Origin", "https://app.test").Result() // the link page's button
	_ = res.Body.Close()
	for _, ck := range res.Cookies() {
		if ck.Name == forwardauth.SessionCookie {
			cookie = ck.Value
		}
	}
	if cookie == "" {
		t.Fatal("the link opened no session")
	}
	for range 2 { // B reads the session once, then answers from its cache
		if rec := verify(b, "/", cookie); rec.Code != http.StatusOK {
			t.Fatalf("B before the revocation: %d", rec.Code)
		}
	}
	sessions := decode[struct{ Items []struct{ ID string } }](t, a.do("GET", "/api/sessions", ""))
	if len(sessions.Items) != 1 {
		t.Fatalf("sessions: %+v", sessions.Items)
	}
	if rec := a.do("DELETE", "/api/sessions/"+sessions.Items[0].ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("revoke on A: %d %s", rec.Code, rec.Body)
	}
	took := within(t, time.Second, "B refuses the revoked session", func() bool {
		return verify(b, "/", cookie).Code != http.StatusOK
	})
	t.Logf("B refused the session %v after A revoked it", took.Round(time.Microsecond))
}

func TestReplicasServiceCreatedOnAIsServedByB(t *testing.T) {
	a, b := newReplicas(t)
	config := func() string { return b.do("GET", "/api/proxy/config", "").Body.String() }
	if strings.Contains(config(), "created-on-a.test") {
		t.Fatal("B serves the service before it exists")
	}
	rec := a.do("POST", "/api/services", `{"name":"app","hostnames":[{"type":"custom","value":"created-on-a.test"}],"targets":[{"host":"10.0.0.1","port":80}]}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create on A: %d %s", rec.Code, rec.Body)
	}
	took := within(t, time.Second, "B serves the service created on A", func() bool {
		return strings.Contains(config(), "created-on-a.test")
	})
	t.Logf("B served the service %v after A created it", took.Round(time.Microsecond))
	// Traefik polled B: A's status page and stall check hear of it too.
	within(t, time.Second, "A records B's polls", func() bool { _, ok := a.c.polls.LastPoll(); return ok })
}

// leaderOf names the replica whose connection holds the background jobs'
// advisory lock ("" when none does).
func leaderOf(t *testing.T, a *testApp) string {
	t.Helper()
	var names []string
	err := a.c.db.Raw(`SELECT s.application_name FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted AND s.application_name LIKE 'gatehouse leader background %'`).
		Scan(&names).Error
	if err != nil {
		t.Fatal(err)
	}
	if len(names) > 1 {
		t.Fatalf("two leaders: %v", names)
	}
	if len(names) == 0 {
		return ""
	}
	return names[0][strings.LastIndexByte(names[0], ' ')+1:]
}

// TestReplicasOneLeads: of two replicas running their loops, one runs the
// background jobs; when it stops, the other takes over.
func TestReplicasOneLeads(t *testing.T) {
	a, b := newReplicas(t)
	stops := map[string]func(){}
	for _, r := range []*testApp{a, b} {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		for _, l := range r.c.loops {
			wg.Go(func() { l(ctx) })
		}
		stop := func() { cancel(); wg.Wait() }
		t.Cleanup(stop)
		stops[r.c.cluster.ID()] = stop
	}
	var first string
	within(t, 5*time.Second, "a replica leads", func() bool { first = leaderOf(t, a); return first != "" })
	if stops[first] == nil {
		t.Fatalf("leader %q is neither replica", first)
	}
	stops[first]()
	var next string
	took := within(t, 3*cluster.LeaderRetry, "the other replica takes over", func() bool {
		next = leaderOf(t, a)
		return next != "" && next != first
	})
	t.Logf("the other replica led %v after the leader stopped", took.Round(time.Millisecond))
}
