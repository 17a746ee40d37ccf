//go:build bench

package bench

import (
	"database/sql"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// TestBenchVerifyPostgres is TestBenchVerify's cases on two replicas of the
// real binary on one PostgreSQL database (GATEHOUSE_E2E_DATABASE_URL; `make
// bench` starts a throwaway server): GET /api/auth/verify sent to replica A
// directly against a bare net/http handler answering 200 with the same
// identity headers, then through a real Traefik entrypoint that balances
// over both replicas (health check, retries: harness.ReplicaBalancer)
// against the same entrypoint balancing over two bare handlers. Database
// work is counted as PostgreSQL's committed transactions on the database
// (pg_stat_database) over each load run, background jobs included.
func TestBenchVerifyPostgres(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	harness.TraefikBin(t) // skips without one
	dbURL := harness.PostgresDatabase(t)
	bin := harness.BuildGatehouse(t)
	lb := harness.ReplicaBalancer{Port: harness.FreePort(t)}
	env := map[string]string{"PANEL_DATABASE_URL": dbURL, "PANEL_AGE_IDENTITY": harness.AgeIdentity(t),
		"PANEL_INTERNAL_URL": lb.URL(), "PANEL_LOG_LEVEL": "warn"}
	a := harness.StartReplica(t, bin, "a", env)
	cases := verifyCases(t, a)
	b := harness.StartReplica(t, bin, "b", env)

	bareHandler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set(contract.HeaderUser, "alice")
		h.Set(contract.HeaderEmail, "")
		h.Set(contract.HeaderName, "")
		h.Set(contract.HeaderGroups, "")
		w.WriteHeader(http.StatusOK)
	})
	bare1, bare2 := serve(t, bareHandler), serve(t, bareHandler)
	fileDir := t.TempDir()
	lb.Write(t, fileDir, a.URL, b.URL)
	writeBareBalancer(t, fileDir, bare1, bare2)
	harness.StartTraefik(t, harness.TraefikOptions{FileDir: fileDir, Static: lb.Static()})
	harness.Eventually(t, 30*time.Second, func() bool {
		req, _ := http.NewRequest(http.MethodGet, lb.URL()+"/api/auth/verify", nil)
		req.Host = bareLBHost
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		_ = resp.Body.Close()
		return harness.Healthy(lb.URL()) && resp.StatusCode == http.StatusOK
	}, "the balancing entrypoint never answered for the replicas and the bare handlers")

	stats, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stats.Close() }()
	xacts := func() int64 {
		// Backends report their counts at most once a second.
		time.Sleep(1500 * time.Millisecond)
		var n int64
		if err := stats.QueryRow(`SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	for _, base := range []string{a.URL, b.URL, lb.URL()} {
		for _, c := range cases {
			if code, user := probe(t, base+c.path, c.headers); code != http.StatusOK || user == "" || c.user != "" && user != c.user {
				t.Fatalf("%s at %s: verify answered %d with Remote-User %q, want 200 with %q", c.name, base, code, user, c.user)
			}
		}
	}

	fmt.Printf("\nforward-auth verify on PostgreSQL: two replicas of the binary on one database vs a bare net/http handler\n")
	fmt.Printf("(wrk -t2 -d5s, same machine, same run; direct: replica A vs one bare handler; balanced: Traefik's entrypoint over\n")
	fmt.Printf("both replicas vs the same entrypoint over two bare handlers; xacts/req: PostgreSQL transactions per request)\n")
	fmt.Printf("%-25s %-9s %5s %12s %12s %7s %10s %10s %9s %10s\n", "case", "path", "conns", "verify rps", "bare rps", "ratio",
		"verify p99", "bare p99", "p99 ratio", "xacts/req")
	for _, c := range cases {
		for _, run := range []struct {
			path, verify, bare string
			bareHost           []string
			conns              []int
		}{
			{"direct", a.URL, bare1, nil, []int{8, 64}},
			{"balanced", lb.URL(), lb.URL(), []string{"Host: " + bareLBHost}, []int{64}},
		} {
			for _, conns := range run.conns {
				bw := wrk(t, run.bare+"/api/auth/verify", conns, append(run.bareHost, c.headers...))
				before := xacts()
				v := wrk(t, run.verify+c.path, conns, c.headers)
				q := float64(xacts()-before) / float64(max(v.requests, 1))
				fmt.Printf("%-25s %-9s %5d %12.0f %12.0f %6.2fx %8.2fms %8.2fms %8.2fx %10.4f\n", c.name, run.path, conns, v.rps, bw.rps,
					v.rps/bw.rps, ms(v.p99), ms(bw.p99), float64(v.p99)/float64(bw.p99), q)
			}
		}
	}
	fmt.Println("goals: throughput >= 0.80x, p99 <= 1.50x, 0 queries per cached request (the SQLite figure's)")
}

// bareLBHost is the Host the balancing entrypoint sends to the bare handlers.
const bareLBHost = "bare.bench.test"

// verifyCase is one forward-auth request: the verify path with its service
// and the headers Traefik would send.
type verifyCase struct {
	name, path string
	headers    []string
	user       string // the Remote-User verify must answer; "" for any
}

// verifyCases writes TestBenchVerify's services on the replica through the
// admin API and returns its cases: a session cookie and cached basic auth
// on services without rules, a session cookie and a machine token on a
// service with 50 rules.
func verifyCases(t *testing.T, p *harness.Replica) []verifyCase {
	t.Helper()
	service := func(host string, protections ...map[string]any) string {
		var svc struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
			"targets": []map[string]any{{"host": "10.0.0.1", "port": 80}}, "entrypoints": []string{"websecure"},
		}, &svc)
		for _, pr := range protections {
			p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs", pr, nil)
		}
		return svc.ID
	}
	session := func(id, host string) string {
		var link struct{ URL string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+id+"/shared-links", map[string]any{"sessionSeconds": 86400}, &link)
		return redeemLink(t, p.URL, id, host, link.URL)
	}
	fwd := func(host string, more ...string) []string {
		return append([]string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: " + host,
			"X-Forwarded-Uri: /dashboard?tab=1", "X-Forwarded-For: 203.0.113.7",
			"Accept: text/html,application/xhtml+xml", "User-Agent: Mozilla/5.0 (bench)"}, more...)
	}

	linkSvc := service("link.bench.test", map[string]any{"type": "shared_links"})
	cookie := session(linkSvc, "link.bench.test")
	var set struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "bench",
		"users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	basicSvc := service("basic.bench.test", map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	creds := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))
	rulesSvc := service("rules.bench.test")
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+rulesSvc+"/access", map[string]any{"rules": fiftyRules()}, nil)
	// Adding a protection ends the service's sessions: tokens first.
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+rulesSvc+"/security-configs", map[string]any{"type": "tokens"}, nil)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+rulesSvc+"/security-configs", map[string]any{"type": "shared_links"}, nil)
	rulesCookie := session(rulesSvc, "rules.bench.test")
	var tok struct{ Value string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/machine-tokens", map[string]any{"name": "bench", "serviceIds": []string{rulesSvc}}, &tok)

	v := "/api/auth/verify?service="
	return []verifyCase{
		{"session cookie", v + linkSvc, fwd("link.bench.test", "Cookie: theme=dark; "+contract.SessionCookie+"="+cookie), ""},
		{"basic auth (cached)", v + basicSvc, fwd("basic.bench.test", "Authorization: "+creds), "alice"},
		{"session cookie, 50 rules", v + rulesSvc, fwd("rules.bench.test", "Cookie: theme=dark; "+contract.SessionCookie+"="+rulesCookie), ""},
		{"machine token, 50 rules", v + rulesSvc, fwd("rules.bench.test", "Authorization: Bearer "+tok.Value), "token:bench"},
	}
}

// writeBareBalancer adds to the file provider a router on the balancing
// entrypoint for bareLBHost, with the same retry, over two bare handlers.
func writeBareBalancer(t *testing.T, dir string, servers ...string) {
	t.Helper()
	cfg := fmt.Sprintf(`http:
  routers:
    bare:
      entryPoints: [gatehouse]
      rule: %q
      middlewares: [gatehouse-retry]
      service: bare
  services:
    bare:
      loadBalancer:
        servers: [{url: %q}, {url: %q}]
        healthCheck: {path: /api/auth/verify, interval: 1s, timeout: 1s}
`, "Host(`"+bareLBHost+"`)", servers[0], servers[1])
	if err := os.WriteFile(filepath.Join(dir, "bare.yml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}
