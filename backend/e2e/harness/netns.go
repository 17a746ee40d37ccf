package harness

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Outside is a host somewhere on the internet: a network namespace joined
// to this one by a veth pair on a /30 of the benchmarking range
// (198.18.0.0/15). A listener bound to HostAddr (or to all addresses) is
// reachable from it; its requests arrive from Addr, an address that is
// neither loopback nor private.
type Outside struct {
	Name     string
	HostAddr string // this host's end of the link
	Addr     string // the namespace's address: the stranger's
	fd       int
}

// StartOutside creates the namespace (root and iproute2 needed: both are
// there in CI) and removes it when the test ends.
func StartOutside(t testing.TB) *Outside {
	t.Helper()
	var b [2]byte
	_, _ = rand.Read(b[:])
	id := fmt.Sprintf("%02x%02x", b[0], b[1])
	o := &Outside{Name: "gh-out-" + id, HostAddr: fmt.Sprintf("198.18.%d.%d", b[0], (b[1]%63)*4+1)}
	o.Addr = fmt.Sprintf("198.18.%d.%d", b[0], (b[1]%63)*4+2)
	host, peer := "gho"+id, "ghi"+id
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s (network namespaces need root and iproute2)", strings.Join(args, " "), err, out)
		}
	}
	run("netns", "add", o.Name)
	t.Cleanup(func() {
		_ = exec.Command("ip", "netns", "del", o.Name).Run()
		_ = exec.Command("ip", "link", "del", host).Run()
	})
	run("link", "add", host, "type", "veth", "peer", "name", peer)
	run("link", "set", peer, "netns", o.Name)
	run("addr", "add", o.HostAddr+"/30", "dev", host)
	run("link", "set", host, "up")
	run("-n", o.Name, "addr", "add", o.Addr+"/30", "dev", peer)
	run("-n", o.Name, "link", "set", peer, "up")
	run("-n", o.Name, "link", "set", "lo", "up")
	f, err := os.Open("/var/run/netns/" + o.Name)
	if err != nil {
		t.Fatalf("open namespace: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	o.fd = int(f.Fd())
	return o
}

// DialContext opens a connection from inside the namespace. The socket is
// created on a thread switched into the namespace; that thread is never
// switched back: its goroutine ends locked, so the runtime retires it.
func (o *Outside) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.Setns(o.fd, unix.CLONE_NEWNET); err != nil {
			ch <- result{err: fmt.Errorf("enter namespace %s: %w", o.Name, err)}
			return
		}
		c, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, addr)
		ch <- result{c, err}
	}()
	r := <-ch
	return r.c, r.err
}

// Client is a non-redirecting HTTP client whose connections start in the
// namespace; dial rewrites where each host name connects to.
func (o *Outside) Client(dial func(addr string) string) *http.Client {
	return &http.Client{
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return o.DialContext(ctx, network, dial(addr))
			}},
	}
}
