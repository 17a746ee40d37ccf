package harness

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// composeNet is a compose network without Docker: a bridge in this
// namespace holding the gateway address, and one network namespace per
// service joined to it by a veth pair, on a /24 of 198.19.0.0/16 (the upper
// half of the benchmarking range; Outside uses the lower half).
type composeNet struct {
	id      string // a few hex digits, unique per run
	bridge  string
	prefix  string // "198.19.<n>."
	Gateway string // this host's address on the network
	next    int
}

func newComposeNet(t testing.TB) *composeNet {
	t.Helper()
	var b [3]byte
	_, _ = rand.Read(b[:])
	// A /24 no other run on this host uses (a route to it would exist).
	for i := 0; ; i++ {
		out, err := exec.Command("ip", "-4", "route", "show", "to", "match", fmt.Sprintf("198.19.%d.1/24", b[2])).Output()
		if err == nil && !strings.Contains(string(out), "198.19.") || i == 20 {
			break
		}
		b[2]++
	}
	n := &composeNet{id: fmt.Sprintf("%02x%02x", b[0], b[1]), prefix: fmt.Sprintf("198.19.%d.", b[2]), next: 2}
	n.bridge = "ghb" + n.id
	n.Gateway = n.prefix + "1"
	ipCmd(t, "link", "add", n.bridge, "type", "bridge")
	t.Cleanup(func() { _ = exec.Command("ip", "link", "del", n.bridge).Run() })
	ipCmd(t, "addr", "add", n.Gateway+"/24", "dev", n.bridge)
	ipCmd(t, "link", "set", n.bridge, "up")
	return n
}

// addNamespace creates the namespace of one service, plugs it into the
// bridge and returns its name and address. The namespace and its
// /etc/netns directory go when the test ends.
func (n *composeNet) addNamespace(t testing.TB, service string) (ns, addr string) {
	t.Helper()
	idx := n.next
	n.next++
	ns = "gh-" + n.id + "-" + service
	addr = n.prefix + strconv.Itoa(idx)
	host, peer := fmt.Sprintf("ghv%s%d", n.id, idx), fmt.Sprintf("ghp%s%d", n.id, idx)
	ipCmd(t, "netns", "add", ns)
	t.Cleanup(func() {
		_ = exec.Command("ip", "netns", "del", ns).Run()
		_ = exec.Command("ip", "link", "del", host).Run()
		_ = os.RemoveAll(filepath.Join("/etc/netns", ns))
		_ = os.Remove("/etc/netns") // only when no other namespace has files there
	})
	ipCmd(t, "link", "add", host, "type", "veth", "peer", "name", peer)
	ipCmd(t, "link", "set", host, "master", n.bridge)
	ipCmd(t, "link", "set", host, "up")
	ipCmd(t, "link", "set", peer, "netns", ns)
	ipCmd(t, "-n", ns, "link", "set", peer, "name", "eth0")
	ipCmd(t, "-n", ns, "addr", "add", addr+"/24", "dev", "eth0")
	ipCmd(t, "-n", ns, "link", "set", "eth0", "up")
	ipCmd(t, "-n", ns, "link", "set", "lo", "up")
	ipCmd(t, "-n", ns, "route", "add", "default", "via", n.Gateway)
	return ns, addr
}

// writeHosts gives every namespace an /etc/hosts naming every service, as
// Docker's embedded DNS would: `ip netns exec` bind-mounts
// /etc/netns/<ns>/hosts over /etc/hosts.
func writeHosts(t testing.TB, names map[string]string, nss []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s\t%s\n", names[k], k)
	}
	for _, ns := range nss {
		dir := filepath.Join("/etc/netns", ns)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "hosts"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func ipCmd(t testing.TB, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v: %s (network namespaces need root and iproute2)", strings.Join(args, " "), err, out)
	}
}

// forwarder publishes a port as Docker's userland proxy does: it accepts on
// the host's address and copies each connection to the service's address.
type forwarder struct {
	ln    net.Listener
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func publish(t testing.TB, listen, target string) {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatalf("publish %s -> %s: %v", listen, target, err)
	}
	f := &forwarder{ln: ln, conns: map[net.Conn]struct{}{}}
	f.wg.Add(1)
	go f.serve(target)
	t.Cleanup(f.close)
}

func (f *forwarder) serve(target string) {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			f.pipe(c, target)
		}()
	}
}

func (f *forwarder) pipe(c net.Conn, target string) {
	up, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !f.track(c, up) {
		return
	}
	defer f.untrack(c, up)
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		if tc, ok := dst.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}
	go cp(up, c)
	go cp(c, up)
	<-done
	<-done
}

func (f *forwarder) track(cs ...net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conns == nil {
		for _, c := range cs {
			_ = c.Close()
		}
		return false
	}
	for _, c := range cs {
		f.conns[c] = struct{}{}
	}
	return true
}

func (f *forwarder) untrack(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		_ = c.Close()
		delete(f.conns, c)
	}
}

func (f *forwarder) close() {
	_ = f.ln.Close()
	f.mu.Lock()
	for c := range f.conns {
		_ = c.Close()
	}
	f.conns = nil
	f.mu.Unlock()
	f.wg.Wait()
}

// Unreachable reports whether a TCP connection to addr from the outside
// namespace fails (refused, no route, or timed out).
func (o *Outside) Unreachable(ctx context.Context, addr string) bool {
	c, err := o.DialContext(ctx, "tcp", addr)
	if err == nil {
		_ = c.Close()
		return false
	}
	return !errors.Is(err, context.Canceled)
}
