//go:build bench

package bench

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

const (
	benchPortalURL    = "https://auth.bench.test"
	benchPortalCookie = "bench_portal"
)

// benchPortal stands for the portal's sessions (admin.Service in the
// panel): the cookie bench_portal=<portal session id> is the person's
// sign-in, with a second factor, made now.
type benchPortal struct{ people map[string]string } // portal session id -> person id

func (p benchPortal) PortalSignIn(_ context.Context, r *http.Request) (forwardauth.PortalSignIn, bool, error) {
	ck, _ := r.Cookie(benchPortalCookie) // none: not signed in
	if ck == nil {
		return forwardauth.PortalSignIn{}, false, nil
	}
	person, ok := p.people[ck.Value]
	if !ok {
		return forwardauth.PortalSignIn{}, false, nil
	}
	return forwardauth.PortalSignIn{PersonID: person, SessionID: ck.Value, SecondFactor: true, At: time.Now()}, true, nil
}

// startPeopleVerifyPanel is startVerifyPanel with a sign-in portal: the
// people protection's hop and exchange answer as in the panel.
func startPeopleVerifyPanel(ctx context.Context, t *testing.T, portal benchPortal) (*verifyPanel, *gorm.DB) {
	t.Helper()
	db, bus := benchStore(ctx, t)
	var queries atomic.Int64
	count := func(*gorm.DB) { queries.Add(1) }
	cb := db.Callback()
	_ = cb.Query().Before("gorm:query").Register("bench:count", count)
	_ = cb.Create().Before("gorm:create").Register("bench:count", count)
	_ = cb.Update().Before("gorm:update").Register("bench:count", count)
	_ = cb.Delete().Before("gorm:delete").Register("bench:count", count)
	_ = cb.Row().Before("gorm:row").Register("bench:count", count)
	_ = cb.Raw().Before("gorm:raw").Register("bench:count", count)

	fwd := &forwardauth.Ref{}
	policySvc := access.NewService(access.Deps{DB: db, Bus: bus, Now: store.Now, Info: fwd})
	tokenSvc := machinetokens.NewService(machinetokens.Deps{DB: db, Bus: bus, Now: store.Now, Directory: fwd})
	decisions := accesslog.New()
	acc := forwardauth.NewService(forwardauth.Deps{DB: db, Bus: bus, Now: store.Now,
		PanelURL:  func(context.Context) (string, error) { return "https://panel.bench.test", nil },
		PortalURL: func(context.Context) (string, error) { return benchPortalURL, nil },
		Portal:    portal, Rules: policySvc, Tokens: tokenSvc, Log: decisions})
	fwd.Set(acc)
	for _, l := range append(acc.Loops(), tokenSvc.Loops()...) {
		go l.Run(ctx)
	}
	svcs := services.NewService(services.Deps{DB: db, Bus: bus, Now: store.Now,
		Protections: forwardauth.ServiceProtections, EndSessions: forwardauth.EndServiceSessions})
	e := benchAPI(slog.LevelInfo, forwardauth.NewHandler(acc), access.NewHandler(policySvc),
		machinetokens.NewHandler(tokenSvc), accesslog.NewHandler(decisions))
	h := acc.FastVerify(e)
	return &verifyPanel{url: serve(t, h), handler: h, svcs: svcs, bus: bus, queries: &queries}, db
}

// peopleSession walks the people protection's browser flow for the person
// signed in on the portal session ps: verify sends the browser to the
// portal's continue hop, the hop back with a one-time exchange, the
// exchange opens the service session. It returns the session's cookie.
func peopleSession(t *testing.T, panel, serviceID, host, ps string) string {
	t.Helper()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	type answer struct {
		StatusCode int
		Header     http.Header
		cookies    []*http.Cookie
	}
	get := func(u string, headers map[string]string) answer {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return answer{StatusCode: resp.StatusCode, Header: resp.Header, cookies: resp.Cookies()}
	}
	fwd := func(uri string) map[string]string {
		return map[string]string{"X-Forwarded-Method": "GET", "X-Forwarded-Proto": "https", "X-Forwarded-Host": host,
			"X-Forwarded-Uri": uri, "Accept": "text/html"}
	}
	resp := get(panel+"/api/auth/verify?service="+serviceID, fwd("/"))
	hop, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(hop.String(), benchPortalURL+forwardauth.PortalContinuePath) {
		t.Fatalf("verify without a session: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = get(panel+hop.RequestURI(), map[string]string{"Accept": "text/html", "Cookie": benchPortalCookie + "=" + ps})
	back, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || back.Host != host {
		t.Fatalf("continue hop: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp = get(panel+"/api/auth/verify?service="+serviceID, fwd(back.RequestURI()))
	for _, ck := range resp.cookies {
		if ck.Name == forwardauth.SessionCookie && ck.Value != "" {
			return ck.Value
		}
	}
	t.Fatalf("the exchange opened no session (%d)", resp.StatusCode)
	return ""
}

// TestBenchVerifyPeople measures verify with a portal-derived session (the
// people protection: a person of the directory, admitted as a member of a
// group, identity headers from the directory snapshot) through the panel's
// HTTP stack against bare Echo answering the same four headers, in the same
// run, at 8 and 64 connections, as TestBenchVerify does for its cases.
// Queries are counted over each load run: the goal is none.
func TestBenchVerifyPeople(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	portal := benchPortal{people: map[string]string{}}
	vp, db := startPeopleVerifyPanel(ctx, t, portal)
	now := store.Now()
	ann := store.Person{ID: store.NewID(), Username: "ann", Email: "ann@example.com", DisplayName: "Ann",
		PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
	family := store.Group{ID: store.NewID(), Name: "family", CreatedAt: now, UpdatedAt: now}
	for _, row := range []any{&ann, &family, &store.GroupMember{GroupID: family.ID, PersonID: ann.ID, CreatedAt: now}} {
		if err := db.Create(row).Error; err != nil {
			t.Fatal(err)
		}
	}
	portal.people["ps-ann"] = ann.ID
	svc := mkService(t, vp.svcs, "people.bench.test")
	call(t, vp.url, http.MethodPut, "/api/services/"+svc+"/protection",
		map[string]any{"people": map[string]any{"enabled": true, "groups": []string{family.ID}}}, nil)
	cookie := peopleSession(t, vp.url, svc, "people.bench.test", "ps-ann")

	bare := echo.New()
	bare.HideBanner, bare.HidePort = true, true
	bare.GET("/api/auth/verify", func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Remote-User", "ann")
		h.Set("Remote-Email", "ann@example.com")
		h.Set("Remote-Name", "Ann")
		h.Set("Remote-Groups", "family")
		return c.NoContent(http.StatusOK)
	})
	baseline := serve(t, bare)
	verifyURL := vp.url + "/api/auth/verify?service=" + svc
	headers := []string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: people.bench.test",
		"X-Forwarded-Uri: /inbox?tab=1", "X-Forwarded-For: 203.0.113.7", "Accept: text/html,application/xhtml+xml",
		"User-Agent: Mozilla/5.0 (bench)", "Cookie: theme=dark; " + forwardauth.SessionCookie + "=" + cookie}
	if code, user := probe(t, verifyURL, headers); code != http.StatusOK || user != "ann" {
		t.Fatalf("verify answered %d with Remote-User %q, want 200 with ann", code, user)
	}

	fmt.Printf("\nforward-auth verify with a portal-derived session (people protection, a group member) vs bare Echo\n")
	fmt.Printf("(wrk -t2, same machine, same run; %d rounds of %s on each, medians; access log on)\n", pairRounds, pairDuration)
	fmt.Printf("%-25s %5s %12s %12s %7s %10s %10s %9s %12s %19s %9s %15s %11s\n", "case", "conns", "verify rps", "bare rps", "ratio",
		"verify p99", "bare p99", "p99 ratio", "queries/req", "served CPU/req", "CPU ratio", "CPU/req", "allocs/req")
	cpu, allocs := handlerCost(vp.handler, strings.TrimPrefix(verifyURL, vp.url), headers)
	bareCPU, bareAllocs := handlerCost(bare, "/api/auth/verify", headers)
	inProcess := fmt.Sprintf("%6.1fµs (%4.1fµs) %4.0f (%.0f)", us(cpu), us(bareCPU), allocs, bareAllocs)
	for _, conns := range []int{8, 64} {
		vp.queries.Store(0)
		r := paired(t, baseline+"/api/auth/verify", verifyURL, conns, headers)
		q := float64(vp.queries.Load()) / float64(max(r.requests, 1))
		fmt.Printf("%-25s %5d %12.0f %12.0f %6.2fx %8.2fms %8.2fms %8.2fx %12.4f %6.1fµs (%5.1fµs) %8.2fx %s\n", "people session (portal)", conns,
			r.verify.rps, r.bare.rps, r.ratio, ms(r.verify.p99), ms(r.bare.p99), float64(r.verify.p99)/float64(r.bare.p99), q,
			us(r.verify.cpu), us(r.bare.cpu), float64(r.bare.cpu)/float64(r.verify.cpu), inProcess)
	}
	fmt.Println("goals: throughput >= 0.80x (ratio, and CPU ratio where the machine is shared), 0 queries per request")
}
