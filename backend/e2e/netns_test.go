//go:build e2e

package e2e

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// The outside host reaches a listener on the link, and arrives from its own address.
func TestOutsideHost(t *testing.T) {
	o := harness.StartOutside(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(o.HostAddr, "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, host) //nolint:gosec // the peer's IP address as plain text, read by this test, never a browser
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	c := o.Client(func(addr string) string { return addr })
	resp, err := c.Get("http://" + ln.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != o.Addr {
		t.Fatalf("server saw %q, want %q", b, o.Addr)
	}
	// Loopback inside the namespace is its own: this host's loopback is out of reach.
	if _, err := o.DialContext(t.Context(), "tcp", "127.0.0.1:1"); err == nil {
		t.Fatal("reached this host's loopback from outside")
	}
}
