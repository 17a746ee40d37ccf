package deploy

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const wrapperToken = "deploy-test-wrapper-token"

// fakePanel serves the wrapper's endpoints with hash-marked documents and
// records the reports it gets.
type fakePanel struct {
	*httptest.Server
	mu      sync.Mutex
	hits    map[string]int
	reports []string
}

func hashed(kind, body string) string {
	sum := sha256.Sum256([]byte(body))
	return "# generated\n# gatehouse-" + kind + "-hash: " + hex.EncodeToString(sum[:]) + "\n" + body
}

func newFakePanel(t *testing.T, replicas string) *fakePanel {
	t.Helper()
	p := &fakePanel{hits: map[string]int{}}
	docs := map[string]string{
		"/api/proxy/static-config":       hashed("config", "entryPoints: {}\n"),
		"/api/proxy/managed/secrets-env": hashed("secrets", "export CF_DNS_API_TOKEN='x'\n"),
		"/api/proxy/managed/replicas":    hashed("replicas", replicas),
	}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.hits[r.URL.Path]++
		p.mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+wrapperToken && r.URL.Path != "/api/proxy/static-config" {
			http.Error(w, "token", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost && r.URL.Path == "/api/proxy/managed/wrapper-report" {
			b, _ := io.ReadAll(r.Body)
			p.mu.Lock()
			p.reports = append(p.reports, string(b))
			p.mu.Unlock()
			return
		}
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, doc)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *fakePanel) counts() (hits map[string]int, reports int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	hits = map[string]int{}
	for k, v := range p.hits {
		hits[k] = v
	}
	return hits, len(p.reports)
}

// deadURL is an address nothing listens on.
func deadURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// fakeTraefik is a "Traefik" that stays up until signalled.
func fakeTraefik(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "traefik")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\ntrap 'exit 0' TERM INT\nwhile :; do sleep 1; done\n"), 0o700); err != nil { //nolint:gosec // a test script that must be executable
		t.Fatal(err)
	}
	return bin
}

func wrapperShells() [][]string {
	shells := [][]string{{"sh"}}
	if p, err := exec.LookPath("busybox"); err == nil {
		shells = append(shells, []string{p, "sh"})
	}
	return shells
}

// TestWrapperTriesEveryPanelURL runs the wrapper with a dead first URL: it
// fetches the three files from the second, reports there, and writes the
// replicas' load balancer next to the static configuration.
func TestWrapperTriesEveryPanelURL(t *testing.T) {
	for _, sh := range wrapperShells() {
		t.Run(filepath.Base(sh[0]), func(t *testing.T) {
			replicas := "http:\n  services: {}\n"
			live := newFakePanel(t, replicas)
			dir := t.TempDir()
			out := runWrapper(t, sh, dir, deadURL(t)+" "+live.URL+"/")
			var hits map[string]int
			deadline := time.Now().Add(20 * time.Second)
			for {
				var reports int
				hits, reports = live.counts()
				if reports > 0 && hits["/api/proxy/managed/replicas"] > 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the wrapper did not fetch and report through the second URL: %v\n%s", hits, out())
				}
				time.Sleep(100 * time.Millisecond)
			}
			b, err := os.ReadFile(filepath.Join(dir, "replicas.yml")) //nolint:gosec // the test's own temporary directory
			if err != nil || !strings.HasSuffix(string(b), replicas) || !strings.Contains(string(b), "# gatehouse-replicas-hash: ") {
				t.Fatalf("replicas.yml = %q, %v", b, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "traefik.yml")); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out(), "minimal") {
				t.Fatalf("the wrapper fell back although the second URL answered:\n%s", out())
			}
		})
	}
}

// TestWrapperFallbackUsesTheFirstURL: with no panel answering, the boot
// configuration's HTTP provider names the first URL.
func TestWrapperFallbackUsesTheFirstURL(t *testing.T) {
	first, second := deadURL(t), deadURL(t)
	dir := t.TempDir()
	out := runWrapper(t, []string{"sh"}, dir, first+"  "+second)
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "traefik.yml")) //nolint:gosec // the test's own temporary directory
		if strings.Contains(string(b), `endpoint: "`+first+`/api/proxy/config"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no fallback on the first URL: %q\n%s", b, out())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestWrapperRefusesAURLWithoutScheme(t *testing.T) {
	cmd := exec.Command("sh", "traefik-wrapper.sh")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GATEHOUSE_URL=http://gatehouse-a:8080 gatehouse-b:8080",
		"GATEHOUSE_CONFIG_DIR=" + t.TempDir(), "TRAEFIK_BIN=/bin/false"}
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "GATEHOUSE_URL: gatehouse-b:8080 is not an http:// or https:// URL") {
		t.Fatalf("wrapper = %v\n%s", err, out)
	}
}

// runWrapper starts the wrapper polling every second with a fake Traefik;
// it is stopped when the test ends. out returns what it logged so far.
func runWrapper(t *testing.T, sh []string, dir, urls string) (out func() string) {
	t.Helper()
	cmd := exec.Command(sh[0], append(sh[1:], "traefik-wrapper.sh")...) //nolint:gosec // the shells the test looked up itself
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "GATEHOUSE_URL=" + urls, "GATEHOUSE_WRAPPER_TOKEN=" + wrapperToken,
		"GATEHOUSE_POLL_INTERVAL=1", "GATEHOUSE_CONFIG_DIR=" + dir, "TRAEFIK_BIN=" + fakeTraefik(t),
	}
	var mu sync.Mutex
	var buf strings.Builder
	w := writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(b) })
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return func() string { mu.Lock(); defer mu.Unlock(); return buf.String() }
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
