package httpapi

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// ClientIP works out the client's address on the panel's own routes (the
// address the sign-in limits, the audit log and the sessions list see). A
// request from a peer on the proxies list is read through its
// X-Forwarded-For: entries of the hops list are stepped over from the
// right, and the first other one is the client. A request from any other
// peer is the client itself, whatever it sends: a host on the panel's
// network cannot choose its own address.
type ClientIP struct {
	static []netip.Prefix // proxies given as addresses and CIDRs
	hosts  []string       // proxies given as host names
	hops   []netip.Prefix
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	log    *slog.Logger

	cur atomic.Pointer[clientIPSets]

	mu       sync.Mutex
	resolved time.Time // last look-up of hosts (throttles look-ups on a miss)
}

type clientIPSets struct{ proxies, hops []netip.Prefix }

// NewClientIP trusts forwarded headers from proxies (addresses and CIDRs)
// and hosts (names looked up by Resolve), stepping over hops and the
// proxies themselves in X-Forwarded-For.
func NewClientIP(proxies []netip.Prefix, hosts []string, hops []netip.Prefix, log *slog.Logger) *ClientIP {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &ClientIP{static: proxies, hosts: hosts, hops: hops, log: log,
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}}
	c.set(nil)
	return c
}

// LoopbackClientIP trusts forwarded headers from loopback only: the default
// when nothing is configured.
func LoopbackClientIP() *ClientIP {
	lo := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	return NewClientIP(lo, nil, nil, nil)
}

func (c *ClientIP) set(names []netip.Prefix) {
	proxies := append(slices.Clip(c.static), names...)
	c.cur.Store(&clientIPSets{proxies: proxies, hops: append(slices.Clip(c.hops), proxies...)})
}

// Extract is the echo.IPExtractor.
func (c *ClientIP) Extract(r *http.Request) string {
	peer := peerAddr(r.RemoteAddr)
	if !peer.IsValid() {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			return r.RemoteAddr
		}
		return host
	}
	sets := c.cur.Load()
	xff := r.Header.Values(echoHeaderXFF)
	if !contains(sets.proxies, peer) {
		if len(xff) > 0 && len(c.hosts) > 0 {
			c.refresh() // the proxy's container may have a new address
		}
		return peer.String()
	}
	if len(xff) == 0 {
		return peer.String()
	}
	a := rules.ClientAddr(xff, r.RemoteAddr, sets.hops)
	if !a.IsValid() {
		return peer.String() // an unreadable entry: the proxy is all that is known
	}
	return a.String()
}

const echoHeaderXFF = "X-Forwarded-For"

// Resolve looks the proxies' host names up now. A name that does not
// resolve keeps its last addresses: a DNS hiccup must not turn every
// client into the proxy's address.
func (c *ClientIP) Resolve(ctx context.Context) {
	if len(c.hosts) == 0 {
		return
	}
	c.mu.Lock()
	c.resolved = time.Now()
	c.mu.Unlock()
	prev := map[netip.Prefix]bool{}
	for _, p := range c.cur.Load().proxies[len(c.static):] {
		prev[p] = true
	}
	var names []netip.Prefix
	failed := false
	for _, h := range c.hosts {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		addrs, err := c.lookup(ctx, h)
		cancel()
		if err != nil {
			c.log.Debug("look up a proxy address", "host", h, "err", err)
			failed = true
			continue
		}
		for _, a := range addrs {
			a = a.WithZone("").Unmap()
			names = append(names, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	if failed { // keep what the names resolved to before as well
		for p := range prev {
			if !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	c.set(names)
}

// refresh looks the names up again in the background, at most every five
// seconds, when a peer outside the list sends X-Forwarded-For.
func (c *ClientIP) refresh() {
	c.mu.Lock()
	due := time.Since(c.resolved) >= 5*time.Second
	if due {
		c.resolved = time.Now()
	}
	c.mu.Unlock()
	if due {
		go c.Resolve(context.Background())
	}
}

// Loop looks the names up at start and every interval.
func (c *ClientIP) Loop(interval time.Duration) func(ctx context.Context) {
	return func(ctx context.Context) {
		if len(c.hosts) == 0 {
			return
		}
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			c.Resolve(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}

func peerAddr(remote string) netip.Addr {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().WithZone("").Unmap()
	}
	if a, err := netip.ParseAddr(remote); err == nil {
		return a.WithZone("").Unmap()
	}
	return netip.Addr{}
}

func contains(ps []netip.Prefix, a netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
