//go:build bench

package bench

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
)

// TestBenchMemory measures the panel's memory at rest, then, started again
// on 10,000 services, once it has built what it keeps for them, then with
// 5,000 shared-link sessions on top (links created over the API and
// redeemed at the verify endpoint, as a browser behind Traefik would), then
// after a verify load on one of those sessions. It runs the scenario twice:
// on the built binary, whose resident set (VmRSS; VmHWM, the peak) is the
// figure an operator sees, and with app.Run in this process, where the Go
// heap in use after a forced GC is read and a heap profile explains it
// (which feature holds it, and the top allocation sites). BENCH_PANEL_ENV
// adds to the binary's environment (for example
// BENCH_PANEL_ENV="PANEL_MEMORY_LIMIT=off" to compare limits).
func TestBenchMemory(t *testing.T) {
	const services, sessions = 10000, 5000
	fmt.Printf("\nmemory of the panel (SQLite): idle, %d services, %d shared-link sessions on top, after verify load\n",
		services, sessions)
	t.Run("binary", func(t *testing.T) {
		bin := harness.BuildGatehouse(t)
		fmt.Printf("built binary: resident set (VmRSS: the binary's mapped pages and the process's own memory, RssAnon)\n")
		fmt.Printf("and its peak so far (VmHWM); no GC forced; CPU: the process's user+system time so far\n")
		fmt.Printf("%-34s %10s %10s %10s %10s\n", "phase", "RSS", "anon", "peak RSS", "CPU")
		memoryScenario(t, services, sessions, func(dir string) memoryPanel {
			env := map[string]string{"PANEL_DATA_DIR": dir}
			for _, kv := range strings.Fields(os.Getenv("BENCH_PANEL_ENV")) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			r := harness.StartReplica(t, bin, "memory", env)
			pid := r.PID()
			return memoryPanel{p: r.Panel, stop: r.Kill, sample: func(phase string) {
				m := procMemory(t, pid)
				fmt.Printf("%-34s %8.1fMB %8.1fMB %8.1fMB %9.1fs\n", phase, mb(m.rss), mb(m.anon), mb(m.hwm), procCPU(t, pid))
			}}
		})
	})
	t.Run("in-process", func(t *testing.T) {
		fmt.Printf("\napp.Run in this process: Go heap after runtime.GC (live: reachable objects; in use: their spans),\n")
		fmt.Printf("the heap size the GC lets it reach before collecting again (GOGC=100: about twice what was live),\n")
		fmt.Printf("what the Go runtime holds from the OS (Sys less what it released), and this test process's resident set\n")
		fmt.Printf("%-34s %10s %10s %10s %10s %10s %10s\n", "phase", "heap live", "heap inuse", "GC goal", "Go held", "RSS", "anon")
		// A finer sampling than the default 512 KiB, so that small sites
		// show; the profiles of every phase are kept for go tool pprof.
		runtime.MemProfileRate = 4 << 10
		profiles, err := os.MkdirTemp("", "gatehouse-bench-heap-")
		if err != nil {
			t.Fatal(err)
		}
		var last string
		n := 0
		sample := func(phase string) {
			var m runtime.MemStats
			runtime.GC()
			runtime.GC() // the second frees what sync.Pools dropped in the first
			runtime.ReadMemStats(&m)
			pm := procMemory(t, os.Getpid())
			fmt.Printf("%-34s %8.1fMB %8.1fMB %8.1fMB %8.1fMB %8.1fMB %8.1fMB\n", phase, mb(m.HeapAlloc), mb(m.HeapInuse),
				mb(m.NextGC), mb(m.Sys-m.HeapReleased), mb(pm.rss), mb(pm.anon))
			n++
			last = filepath.Join(profiles, fmt.Sprintf("heap-%d.pprof", n))
			writeHeapProfile(t, last)
		}
		memoryScenario(t, services, sessions, func(dir string) memoryPanel {
			p := harness.StartPanel(t, map[string]string{"PANEL_LOG_LEVEL": "warn", "PANEL_DATA_DIR": dir})
			return memoryPanel{p: p, stop: p.Stop, sample: sample}
		})
		printHeapBy(t, last)
		printHeapTop(t, last, 15)
		fmt.Printf("heap profiles of each phase: %s\n", profiles)
	})
	fmt.Println("goal: 10,000 services and 5,000 sessions together under 64 MB")
}

// memoryPanel is a panel memoryScenario drives, how to stop it and how to
// print its figures after a phase.
type memoryPanel struct {
	p      *harness.Panel
	stop   func()
	sample func(phase string)
}

// memoryScenario starts a panel on a new data directory (start), samples
// it idle and stops it, seeds services into its database, starts it again
// and drives it through the other phases, sampling after each.
func memoryScenario(t *testing.T, services, sessions int, start func(dir string) memoryPanel) {
	t.Helper()
	dir := t.TempDir()
	mp := start(dir)
	mp.sample("idle")
	mp.stop()

	// The seed publishes no events: the panel started on it reads it all.
	_, ids := seedServices(t, filepath.Join(dir, "gatehouse.db"), services)
	mp = start(dir)
	defer mp.stop()
	p := mp.p
	// What a running panel holds for its services: Traefik's configuration
	// (polled), the services list (the UI's first page) and the verify
	// policy (built on the first verify).
	getConfig(t, p)
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services", nil, nil)
	if code, _ := probe(t, p.URL+"/api/auth/verify?service="+ids[1], []string{"X-Forwarded-Method: GET",
		"X-Forwarded-Proto: https", "X-Forwarded-Host: app1.bench.test", "X-Forwarded-Uri: /"}); code != http.StatusOK {
		t.Fatalf("verify of an open service answered %d", code)
	}
	mp.sample(fmt.Sprintf("%d services", services))

	// seedServices protects every third service with shared links: spread
	// the links over them, at most two per service. A worker that fails
	// the test leaves its goroutine (t.FailNow), so the work is queued
	// up front.
	cookies := make([]string, sessions)
	var wg sync.WaitGroup
	work := make(chan int, sessions)
	for i := range sessions {
		work <- i
	}
	close(work)
	linked := (len(ids) + 2) / 3
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				k := 3 * (i % linked)
				var link struct{ URL string }
				p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+ids[k]+"/shared-links",
					map[string]any{"sessionSeconds": 86400}, &link)
				cookies[i] = redeemLink(t, p.URL, ids[k], fmt.Sprintf("app%d.bench.test", k), link.URL)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	mp.sample(fmt.Sprintf("+ %d sessions", sessions))

	headers := []string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: app0.bench.test",
		"X-Forwarded-Uri: /", "X-Forwarded-For: 203.0.113.7", "Cookie: " + forwardauth.SessionCookie + "=" + cookies[0]}
	wrk(t, p.URL+"/api/auth/verify?service="+ids[0], 64, headers)
	mp.sample("+ verify load (64 conns, 5s)")
}

// memory is a process's resident set, the part of it that is the
// process's own memory (not mapped files), and its peak, in bytes.
type memory struct{ rss, anon, hwm uint64 }

// procMemory reads a process's memory from /proc.
func procMemory(t *testing.T, pid int) (m memory) {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			m.rss = kb << 10
		case "RssAnon":
			m.anon = kb << 10
		case "VmHWM":
			m.hwm = kb << 10
		}
	}
	return m
}

// procCPU reads the user and system time a process has taken so far, in
// seconds (utime and stime of /proc/<pid>/stat, in clock ticks of 1/100 s).
func procCPU(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The command name, in parentheses, may hold spaces: fields count from after it.
	_, rest, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		t.Fatalf("/proc/%d/stat: %q", pid, b)
	}
	utime, _ := strconv.ParseUint(f[11], 10, 64)
	stime, _ := strconv.ParseUint(f[12], 10, 64)
	return float64(utime+stime) / 100
}

// writeHeapProfile writes this process's heap profile (as of the last GC) to file.
func writeHeapProfile(t *testing.T, file string) {
	t.Helper()
	f, err := os.Create(file) //nolint:gosec // the benchmark's own temporary file
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
}

// pprofTop runs go tool pprof -top on a heap profile's bytes in use.
func pprofTop(t *testing.T, file string, args ...string) string {
	t.Helper()
	args = append(append([]string{"tool", "pprof", "-top", "-sample_index=inuse_space"}, args...), file)
	out, err := exec.CommandContext(context.Background(), "go", args...).CombinedOutput() //nolint:gosec // the profile just written
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	return string(out)
}

// printHeapBy prints how much of the heap each holder holds: the
// allocations made under its functions (a go tool pprof -focus expression),
// less those of the holders above it (a rebuild of the configuration that
// a health round asked for is the configuration's).
func printHeapBy(t *testing.T, file string) {
	t.Helper()
	owners := []struct{ name, focus string }{
		{"dynamic configuration (rows, fragments, body)", `dynconf\.`},
		{"forward-auth policy snapshot", `forwardauth\.\(\*Service\)\.loadPolicy`},
		{"forward-auth sessions", `forwardauth\.\(\*sessionStore\)|forwardauth\.newSession`},
		{"access log", `access/log\.`},
		{"backend health round (notify watcher)", `runtime\.\(\*Service\)\.Health|notify\.`},
	}
	total := regexp.MustCompile(`Showing nodes accounting for ([^,]+), [^ ]+ of ([^ ]+) total`)
	fmt.Printf("\nheap in use by holder (go tool pprof -focus, each less the holders above it):\n")
	var above []string
	for _, o := range owners {
		args := []string{"-unit=MB", "-focus=" + o.focus, "-nodefraction=0", "-nodecount=100000"}
		if len(above) > 0 {
			args = append(args, "-ignore="+strings.Join(above, "|"))
		}
		above = append(above, o.focus)
		m := total.FindStringSubmatch(pprofTop(t, file, args...))
		if m == nil {
			m = []string{"", "0MB", "?"}
		}
		fmt.Printf("  %-48s %10s of %s\n", o.name, m[1], m[2])
	}
}

// printHeapTop prints the n functions of a heap profile holding the most
// bytes in use (go tool pprof -top).
func printHeapTop(t *testing.T, file string, n int) {
	t.Helper()
	out := pprofTop(t, file, "-nodecount="+strconv.Itoa(n))
	fmt.Printf("\nheap in use by allocation site (go tool pprof -top -sample_index=inuse_space), flat = allocated there:\n")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "File:") || strings.HasPrefix(l, "Type:") || strings.HasPrefix(l, "Time:") ||
			strings.HasPrefix(l, "Build ID:") {
			continue
		}
		fmt.Println(l)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
