//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestBenchVerify measures GET /api/auth/verify through the panel's real
// HTTP stack (every middleware, access rules, machine tokens and the access
// log as app.go wires them, the real SQLite store) against a bare Echo
// handler answering 200 with the same identity headers, in the same run, at
// 8 and 64 connections: a cached session cookie and cached basic auth on
// services without rules, then a session cookie and a machine token on a
// service with 50 rules where only the last matches (fiftyRules). Queries
// are counted with a GORM callback over each load run.
func TestBenchVerify(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	vp := startVerifyPanel(ctx, t)
	panel := vp.url

	// A shared-link session and a basic-auth service.
	linkSvc := mkService(t, vp.svcs, "link.bench.test")
	cookie := linkSession(t, panel, linkSvc, "link.bench.test")

	basicSvc := mkService(t, vp.svcs, "basic.bench.test")
	var set struct{ ID string }
	call(t, panel, http.MethodPost, "/api/credential-sets", map[string]any{"name": "bench",
		"users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	call(t, panel, http.MethodPost, "/api/services/"+basicSvc+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)
	creds := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))

	// A service with 50 rules that takes shared links and machine tokens.
	rulesSvc := mkService(t, vp.svcs, "rules.bench.test")
	call(t, panel, http.MethodPut, "/api/services/"+rulesSvc+"/access", map[string]any{"rules": fiftyRules()}, nil)
	// Adding a protection ends the service's sessions: tokens first.
	call(t, panel, http.MethodPost, "/api/services/"+rulesSvc+"/security-configs", map[string]any{"type": "tokens"}, nil)
	rulesCookie := linkSession(t, panel, rulesSvc, "rules.bench.test")
	var tok struct{ Value string }
	call(t, panel, http.MethodPost, "/api/machine-tokens", map[string]any{"name": "bench", "serviceIds": []string{rulesSvc}}, &tok)

	// The baseline: a bare Echo handler with the same identity headers.
	bare := echo.New()
	bare.HideBanner, bare.HidePort = true, true
	bare.GET("/api/auth/verify", func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Remote-User", "alice")
		h.Set("Remote-Email", "")
		h.Set("Remote-Name", "")
		h.Set("Remote-Groups", "")
		return c.NoContent(http.StatusOK)
	})
	baseline := serve(t, bare)

	fwdHeaders := func(host string) []string {
		return []string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: " + host,
			"X-Forwarded-Uri: /dashboard?tab=1", "X-Forwarded-For: 203.0.113.7",
			"Accept: text/html,application/xhtml+xml", "User-Agent: Mozilla/5.0 (bench)"}
	}
	cases := []struct {
		name    string
		url     string
		headers []string
		user    string // the Remote-User verify must answer; "" for any
	}{
		{"session cookie", panel + "/api/auth/verify?service=" + linkSvc,
			append(fwdHeaders("link.bench.test"), "Cookie: theme=dark; "+forwardauth.SessionCookie+"="+cookie), ""},
		{"basic auth (cached)", panel + "/api/auth/verify?service=" + basicSvc,
			append(fwdHeaders("basic.bench.test"), "Authorization: "+creds), "alice"},
		{"session cookie, 50 rules", panel + "/api/auth/verify?service=" + rulesSvc,
			append(fwdHeaders("rules.bench.test"), "Cookie: theme=dark; "+forwardauth.SessionCookie+"="+rulesCookie), ""},
		{"machine token, 50 rules", panel + "/api/auth/verify?service=" + rulesSvc,
			append(fwdHeaders("rules.bench.test"), "Authorization: Bearer "+tok.Value), "token:bench"},
	}
	// Prove each case is allowed with an identity (and warm the caches)
	// before measuring.
	for _, c := range cases {
		code, user := probe(t, c.url, c.headers)
		if code != http.StatusOK || user == "" || c.user != "" && user != c.user {
			t.Fatalf("%s: verify answered %d with Remote-User %q, want 200 with %q", c.name, code, user, c.user)
		}
	}

	fmt.Printf("\nforward-auth verify vs bare Echo (wrk -t2, same machine, same run; access log on;\n")
	fmt.Printf("50 rules: 49 that miss, then the authenticate rule that matches)\n")
	fmt.Printf("(%d rounds of %s on each, bare and verify in turn, the first of a round alternating; medians,\n", pairRounds, pairDuration)
	fmt.Printf("and the ratio is the median of the rounds' ratios: load from other processes drifts between runs)\n")
	fmt.Printf("(served CPU: this process's CPU time per request under the same wrk load, verify and bare; its ratio,\n")
	fmt.Printf("bare over verify, is the throughput ratio of a machine with nothing else to run, where the server is CPU-bound)\n")
	fmt.Printf("(in-process: one request at a time, process CPU time and heap allocations per request, bare in brackets)\n")
	fmt.Printf("%-25s %5s %12s %12s %7s %10s %10s %9s %12s %19s %9s %15s %11s\n", "case", "conns", "verify rps", "bare rps", "ratio",
		"verify p99", "bare p99", "p99 ratio", "queries/req", "served CPU/req", "CPU ratio", "CPU/req", "allocs/req")
	for _, c := range cases {
		cpu, allocs := handlerCost(vp.handler, strings.TrimPrefix(c.url, panel), c.headers)
		bareCPU, bareAllocs := handlerCost(bare, "/api/auth/verify", c.headers)
		inProcess := fmt.Sprintf("%6.1fµs (%4.1fµs) %4.0f (%.0f)", us(cpu), us(bareCPU), allocs, bareAllocs)
		for _, conns := range []int{8, 64} {
			vp.queries.Store(0)
			r := paired(t, baseline+"/api/auth/verify", c.url, conns, c.headers)
			q := float64(vp.queries.Load()) / float64(max(r.requests, 1))
			fmt.Printf("%-25s %5d %12.0f %12.0f %6.2fx %8.2fms %8.2fms %8.2fx %12.4f %6.1fµs (%5.1fµs) %8.2fx %s\n", c.name, conns,
				r.verify.rps, r.bare.rps, r.ratio, ms(r.verify.p99), ms(r.bare.p99), float64(r.verify.p99)/float64(r.bare.p99), q,
				us(r.verify.cpu), us(r.bare.cpu), float64(r.bare.cpu)/float64(r.verify.cpu), inProcess)
		}
	}
	fmt.Println("goals: throughput >= 0.80x (ratio, and CPU ratio where the machine is shared), p99 <= 1.50x, 0 queries per cached request")
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func mkService(t *testing.T, svcs *services.Service, host string) string {
	t.Helper()
	r, err := svcs.Create(context.Background(), services.Request{
		Name: host, Hostnames: []store.Hostname{{Type: store.HostCustom, Value: host}},
		Targets: []store.Target{{Scheme: "http", Host: "10.0.0.1", Port: 80}}, Entrypoints: []string{"websecure"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

func call(t *testing.T, base, method, path string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// linkSession creates a shared link to the service on host, redeems it the
// way Traefik would and returns the session cookie.
func linkSession(t *testing.T, base, serviceID, host string) string {
	t.Helper()
	call(t, base, http.MethodPost, "/api/services/"+serviceID+"/security-configs", map[string]any{"type": "shared_links"}, nil)
	var link struct{ URL string }
	call(t, base, http.MethodPost, "/api/services/"+serviceID+"/shared-links", map[string]any{"sessionSeconds": 86400}, &link)
	return redeemLink(t, base, serviceID, host, link.URL)
}

// redeemLink redeems the shared link at the panel's verify (base) the way
// Traefik would and returns the session cookie.
func redeemLink(t *testing.T, base, serviceID, host, link string) string {
	t.Helper()
	lu, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/api/auth/verify?service="+serviceID, nil)
	req.Header.Set("X-Forwarded-Method", "POST") // the link page's button
	req.Header.Set("X-Forwarded-Proto", "https")
	req.Header.Set("X-Forwarded-Host", host)
	req.Header.Set("X-Forwarded-Uri", lu.RequestURI())
	req.Header.Set("Origin", "https://"+host)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == forwardauth.SessionCookie {
			return ck.Value
		}
	}
	t.Fatalf("shared link gave no session cookie (status %d)", resp.StatusCode)
	return ""
}

// probe sends one request and returns its status and Remote-User.
func probe(t *testing.T, u string, headers []string) (code int, user string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Remote-User")
}

type wrkResult struct {
	rps      float64
	p99      time.Duration
	requests int64
	cpu      time.Duration // the serving process's CPU time per request, where measured
}

var (
	rpsRE  = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	p99RE  = regexp.MustCompile(`\n\s+99%\s+([\d.]+)(us|ms|s)`)
	reqsRE = regexp.MustCompile(`(\d+) requests in`)
	non2RE = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
)

func wrk(t *testing.T, u string, conns int, headers []string) wrkResult {
	t.Helper()
	return wrkFor(t, u, conns, headers, 5*time.Second)
}

// Paired runs: rounds of each, and how long each run lasts.
const (
	pairRounds   = 3
	pairDuration = 3 * time.Second
)

// pairResult is paired's answer: the median throughput and p99 of each
// side, the median of the rounds' throughput ratios (verify over bare), and
// every verify request sent.
type pairResult struct {
	bare, verify wrkResult
	ratio        float64
	requests     int64
}

// paired loads bareURL and verifyURL in turn, pairRounds times, the side
// that goes first alternating, so that load from other processes, which
// drifts over seconds, falls on both sides alike.
func paired(t *testing.T, bareURL, verifyURL string, conns int, headers []string) pairResult {
	t.Helper()
	var bare, verify []wrkResult
	var ratios []float64
	var out pairResult
	run := func(u string) wrkResult {
		start := cpuTime()
		r := wrkFor(t, u, conns, headers, pairDuration)
		r.cpu = (cpuTime() - start) / time.Duration(max(r.requests, 1))
		return r
	}
	for i := range pairRounds {
		var b, v wrkResult
		if i%2 == 0 {
			b, v = run(bareURL), run(verifyURL)
		} else {
			v = run(verifyURL)
			b = run(bareURL)
		}
		bare, verify = append(bare, b), append(verify, v)
		ratios = append(ratios, v.rps/b.rps)
		out.requests += v.requests
	}
	out.bare, out.verify = medianRun(bare), medianRun(verify)
	slices.Sort(ratios)
	out.ratio = ratios[len(ratios)/2]
	return out
}

// medianRun is the median throughput, p99 and CPU time per request of runs.
func medianRun(runs []wrkResult) wrkResult {
	rps := make([]float64, len(runs))
	p99 := make([]time.Duration, len(runs))
	cpu := make([]time.Duration, len(runs))
	for i, r := range runs {
		rps[i], p99[i], cpu[i] = r.rps, r.p99, r.cpu
	}
	slices.Sort(rps)
	slices.Sort(p99)
	slices.Sort(cpu)
	return wrkResult{rps: rps[len(rps)/2], p99: p99[len(p99)/2], cpu: cpu[len(cpu)/2]}
}

func wrkFor(t *testing.T, u string, conns int, headers []string, d time.Duration) wrkResult {
	t.Helper()
	args := []string{"-t2", "-c" + strconv.Itoa(conns), "-d" + strconv.Itoa(int(d/time.Second)) + "s", "--latency"}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	return parseWrk(t, u, args)
}

// parseWrk runs wrk with args against u and reads its figures.
func parseWrk(t *testing.T, u string, args []string) wrkResult {
	t.Helper()
	out, err := exec.Command("wrk", append(args, u)...).CombinedOutput() //nolint:gosec // wrk with the benchmark's own arguments
	if err != nil {
		t.Fatalf("wrk: %v\n%s", err, out)
	}
	s := string(out)
	if m := non2RE.FindStringSubmatch(s); m != nil {
		t.Fatalf("wrk saw %s non-2xx answers from %s:\n%s", m[1], u, s)
	}
	m, p, r := rpsRE.FindStringSubmatch(s), p99RE.FindStringSubmatch(s), reqsRE.FindStringSubmatch(s)
	if m == nil || p == nil || r == nil {
		t.Fatalf("cannot parse wrk output:\n%s", s)
	}
	rps, _ := strconv.ParseFloat(m[1], 64)
	v, _ := strconv.ParseFloat(p[1], 64)
	unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[p[2]]
	n, _ := strconv.ParseInt(r[1], 10, 64)
	return wrkResult{rps: rps, p99: time.Duration(v * float64(unit)), requests: n}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
