// Package harness starts the real pieces end-to-end tests need: the panel
// (app.Run in-process), a real Traefik binary and small upstream backends.
// It has no build tag so it compiles with every `go build ./...`; the tests
// that use it carry the e2e tag.
package harness

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Eventually polls cond every 100 ms until it holds or timeout passes, then
// fails the test with msg. Use generous timeouts: this never asserts speed.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", timeout, msg)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	for range 100 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("find a free port: %v", err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		_ = ln.Close()
		if handedOut.claim(port) {
			return port
		}
	}
	t.Fatal("find a free port: the kernel kept offering ports handed out already")
	return 0
}

// handedOut remembers the ports FreePort gave in this test process. A port
// is free only until someone listens on it: between two calls the kernel
// may offer the same one again (seen on a busy machine: a Traefik
// entrypoint and its API on one port), so a port is never handed out twice.
var handedOut = &portSet{ports: map[int]bool{}}

type portSet struct {
	mu    sync.Mutex
	ports map[int]bool
}

func (s *portSet) claim(port int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ports[port] {
		return false
	}
	s.ports[port] = true
	return true
}

func loopback(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }

// NoRedirectClient is an HTTP client with a short timeout that neither
// follows redirects nor verifies TLS certificates (Traefik's default
// certificate is self-signed).
func NoRedirectClient() *http.Client {
	return &http.Client{
		Timeout:       10 * time.Second,
		Transport:     insecureTransport(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
