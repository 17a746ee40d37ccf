//go:build bench

package bench

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// dynconfSnapshot is n services spread over n/10 domains, every third one
// protected, each with headers, two extra rules, its own middleware, two
// targets and two entrypoints (one TLS).
func dynconfSnapshot(n int) dynconf.Snapshot {
	s := dynconf.Snapshot{
		DefaultEntrypoints: []string{"websecure"}, GlobalMiddlewares: []string{"secure-headers@file"},
		EntrypointTLS: map[string]bool{"web": false, "websecure": true}, AuthBase: "http://gatehouse:8080",
	}
	nd := n/10 + 1
	for i := 0; i < nd; i++ {
		s.Domains = append(s.Domains, dynconf.DomainSpec{ID: fmt.Sprint("d", i), Domain: fmt.Sprintf("d%d.example.com", i),
			CertResolver: "le", Wildcard: i%2 == 0})
	}
	for i := 0; i < n; i++ {
		d := &s.Domains[i%nd]
		s.Services = append(s.Services, dynconf.ServiceSpec{
			ID: fmt.Sprint("s", i), Name: fmt.Sprintf("Service %d", i%(n/2+1)),
			Hosts: []string{fmt.Sprintf("app%d.%s", i, d.Domain)}, Domain: d,
			Targets:        []store.Target{{Host: "10.0.0.1", Port: 8000 + i%1000}, {Host: "fd00::2", Port: 80}},
			PassHostHeader: true, Entrypoints: []string{"web", "websecure"},
			Rules:       []store.Rule{{Type: "pathPrefix", Value: "/api"}, {Type: "method", Value: "GET"}},
			Middlewares: []string{"compress@file"}, Headers: map[string]string{"X-Service": fmt.Sprint(i)},
			Protected: i%3 == 0,
		})
	}
	return s
}

// TestBenchDynconf prints the builder's time for 100, 1,000 and 10,000
// services, and the served throughput of the cached GET /api/proxy/config
// against a bare net/http handler writing the same bytes from memory.
func TestBenchDynconf(t *testing.T) {
	fmt.Printf("\nDynamic configuration builder (dynconf.Build, and Build+Encode; wall time per op,\n")
	fmt.Printf("and process CPU time per op, which stays meaningful on a loaded machine)\n")
	fmt.Printf("%10s  %12s  %12s  %12s  %12s  %10s\n", "services", "build", "build CPU", "build+encode", "per service", "bytes")
	for _, n := range []int{100, 1000, 10000} {
		snap := dynconfSnapshot(n)
		var cpu time.Duration
		build := testing.Benchmark(func(b *testing.B) {
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				_ = dynconf.Build(snap)
			}
			cpu = (cpuTime() - start) / time.Duration(b.N)
		})
		var size int
		enc := testing.Benchmark(func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				body, err := dynconf.Encode(dynconf.Build(snap))
				if err != nil {
					b.Fatal(err)
				}
				size = len(body)
			}
		})
		per := time.Duration(enc.NsPerOp() / int64(n))
		fmt.Printf("%10d  %12s  %12s  %12s  %12s  %10d\n", n, time.Duration(build.NsPerOp()).Round(time.Microsecond),
			cpu.Round(time.Microsecond), time.Duration(enc.NsPerOp()).Round(time.Microsecond), per, size)
	}

	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk): served throughput not measured")
	}
	const services = 200
	p := harness.StartPanel(t, map[string]string{"PANEL_LOG_LEVEL": "warn"})
	var dom struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "bench.test", "certResolver": "le"}, &dom)
	for i := 0; i < services; i++ {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
			"name": fmt.Sprint("svc ", i), "domainId": dom.ID,
			"hostnames":   []map[string]string{{"type": "subdomain", "value": fmt.Sprint("app", i)}},
			"targets":     []map[string]any{{"host": "10.0.0.1", "port": 8000 + i}},
			"entrypoints": []string{"web", "websecure"},
			"rules":       []map[string]string{{"type": "pathPrefix", "value": "/api"}},
			"headers":     map[string]string{"X-Service": fmt.Sprint(i)},
		}, nil)
	}
	resp, err := http.Get(p.URL + "/api/proxy/config")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/proxy/config: %v %v", resp, err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	etag := resp.Header.Get("ETag")
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", etag)
		_, _ = w.Write(body)
	}))
	defer bare.Close()

	panelRPS := dcWrk(t, p.URL+"/api/proxy/config", nil)
	bareRPS := dcWrk(t, bare.URL+"/", nil)
	notModRPS := dcWrk(t, p.URL+"/api/proxy/config", []string{"If-None-Match: " + etag})
	fmt.Printf("\nServed GET /api/proxy/config (%d services, %d bytes; wrk -t2 -c32 -d5s, same run)\n", services, len(body))
	fmt.Printf("%-34s  %12s  %8s\n", "handler", "requests/s", "ratio")
	fmt.Printf("%-34s  %12.0f  %8s\n", "bare net/http, bytes from memory", bareRPS, "1.00")
	fmt.Printf("%-34s  %12.0f  %8.2f\n", "panel, cached (200)", panelRPS, panelRPS/bareRPS)
	fmt.Printf("%-34s  %12.0f  %8.2f\n", "panel, If-None-Match (304)", notModRPS, notModRPS/bareRPS)
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var dcRPS = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)

func dcWrk(t *testing.T, u string, headers []string) float64 {
	t.Helper()
	args := []string{"-t2", "-c32", "-d5s"}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	out, err := exec.Command("wrk", append(args, u)...).CombinedOutput() //nolint:gosec // wrk with the benchmark's own arguments
	if err != nil {
		t.Fatalf("wrk: %v\n%s", err, out)
	}
	if regexp.MustCompile(`Non-2xx or 3xx responses`).Match(out) {
		t.Fatalf("wrk saw error answers from %s:\n%s", u, out)
	}
	m := dcRPS.FindSubmatch(out)
	if m == nil {
		t.Fatalf("cannot parse wrk output:\n%s", out)
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}
