package httpapi

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func prefixes(ss ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range ss {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

// Only a configured proxy's X-Forwarded-For counts; any other peer, private
// or not, is the client itself.
func TestClientIP(t *testing.T) {
	traefik := prefixes("172.18.0.3/32")
	lo := prefixes("127.0.0.0/8", "::1/128")
	cdn := prefixes("173.245.48.0/20")
	tests := []struct {
		name    string
		proxies []netip.Prefix
		hops    []netip.Prefix
		remote  string
		xff     []string
		want    string
	}{
		{"a LAN host chooses nothing", traefik, nil, "10.0.0.5:4000", []string{"203.0.113.9"}, "10.0.0.5"},
		{"link-local chooses nothing", traefik, nil, "[fe80::1]:4000", []string{"203.0.113.9"}, "fe80::1"},
		{"loopback is not trusted unless listed", traefik, nil, "127.0.0.1:4000", []string{"203.0.113.9"}, "127.0.0.1"},
		{"Traefik's client", traefik, nil, "172.18.0.3:4000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"Traefik without the header", traefik, nil, "172.18.0.3:4000", nil, "172.18.0.3"},
		{"the client's own entries are ignored", traefik, nil, "172.18.0.3:4000", []string{"1.2.3.4, 203.0.113.9"}, "203.0.113.9"},
		{"a proxy in front of Traefik is stepped over", traefik, cdn, "172.18.0.3:4000", []string{"1.2.3.4, 203.0.113.9, 173.245.48.7"}, "203.0.113.9"},
		{"an untrusted proxy is the client", traefik, nil, "172.18.0.3:4000", []string{"203.0.113.9, 173.245.48.7"}, "173.245.48.7"},
		{"replicas: Traefik's loopback hop", traefik, lo, "172.18.0.3:4000", []string{"203.0.113.9, 127.0.0.1"}, "203.0.113.9"},
		{"default loopback proxy", lo, nil, "127.0.0.1:4000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"unreadable entry: the proxy", traefik, nil, "172.18.0.3:4000", []string{"1.2.3.4, garbage"}, "172.18.0.3"},
		{"mapped peer", traefik, nil, "[::ffff:172.18.0.3]:4000", []string{"203.0.113.9"}, "203.0.113.9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClientIP(tt.proxies, nil, tt.hops, nil)
			r := httptest.NewRequest("GET", "/api/health", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := c.Extract(r); got != tt.want {
				t.Fatalf("Extract = %q; want %q", got, tt.want)
			}
		})
	}
}

// A proxy named by host is trusted at the addresses the name resolves to,
// and keeps its last addresses while the name does not resolve.
func TestClientIPResolvesNames(t *testing.T) {
	c := NewClientIP(nil, []string{"traefik"}, nil, nil)
	c.resolved = time.Now() // no look-up in the background: the test makes each one
	answer, fail := "172.18.0.3", false
	c.lookup = func(_ context.Context, _ string) ([]netip.Addr, error) {
		if fail {
			return nil, errors.New("no such host")
		}
		return []netip.Addr{netip.MustParseAddr(answer)}, nil
	}
	from := func(remote string) string {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote + ":4000"
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		return c.Extract(r)
	}
	if got := from("172.18.0.3"); got != "172.18.0.3" {
		t.Fatalf("before the look-up = %q", got)
	}
	c.Resolve(context.Background())
	if got := from("172.18.0.3"); got != "203.0.113.9" {
		t.Fatalf("after the look-up = %q", got)
	}
	fail = true
	c.Resolve(context.Background())
	if got := from("172.18.0.3"); got != "203.0.113.9" {
		t.Fatalf("after a failed look-up = %q; want the last addresses kept", got)
	}
	fail, answer = false, "172.18.0.9"
	c.Resolve(context.Background())
	if got := from("172.18.0.3"); got != "172.18.0.3" {
		t.Fatalf("the old address still trusted: %q", got)
	}
	if got := from("172.18.0.9"); got != "203.0.113.9" {
		t.Fatalf("the new address = %q", got)
	}
}
