package rules

import (
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"
)

// TestAddrSetMatchesContains: a compiled set matches exactly the addresses
// one of its prefixes Contains after Unmap, for random prefixes of every
// length and addresses near them, of both families, mapped and zoned.
func TestAddrSetMatchesContains(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3)) //nolint:gosec // seeded: the test is reproducible
	addr := func(v6 bool) netip.Addr {
		if v6 {
			var b [16]byte
			binary.BigEndian.PutUint64(b[:8], rng.Uint64())
			binary.BigEndian.PutUint64(b[8:], rng.Uint64())
			if rng.IntN(4) == 0 {
				b[0], b[1] = 0xfe, 0x80
			}
			return netip.AddrFrom16(b)
		}
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], rng.Uint32())
		return netip.AddrFrom4(b)
	}
	near := func(p netip.Prefix) netip.Addr {
		b := p.Addr().AsSlice()
		for i := range b {
			if rng.IntN(len(b)) == 0 {
				b[i] ^= byte(1 << rng.IntN(8))
			}
		}
		a, _ := netip.AddrFromSlice(b)
		return a
	}
	for range 2000 {
		var ps []netip.Prefix
		for range 1 + rng.IntN(4) {
			a := addr(rng.IntN(2) == 0)
			ps = append(ps, netip.PrefixFrom(a, rng.IntN(a.BitLen()+1)).Masked())
		}
		if rng.IntN(10) == 0 {
			ps = append(ps, netip.Prefix{})
		}
		set := newAddrSet(ps)
		for range 50 {
			var a netip.Addr
			switch rng.IntN(5) {
			case 0:
				a = addr(rng.IntN(2) == 0)
			case 1:
				a4 := addr(false).As4()
				a = netip.AddrFrom16(netip.AddrFrom4(a4).As16()) // mapped
			case 2:
				a = near(ps[rng.IntN(len(ps))])
				if !a.IsValid() {
					continue
				}
				a = netip.AddrFrom16(a.As16())
			case 3:
				a = near(ps[rng.IntN(len(ps))]).WithZone("eth0")
			default:
				a = near(ps[rng.IntN(len(ps))])
			}
			if got, want := set.contains(a), matchAddr(ps, a); got != want {
				t.Fatalf("%v in %v: compiled %v, Contains %v", a, ps, got, want)
			}
		}
	}
	if empty := newAddrSet(nil); empty.contains(netip.MustParseAddr("10.0.0.1")) || (&addrSet{}).contains(netip.Addr{}) {
		t.Fatal("an empty set matched")
	}
	for _, src := range []string{SourcePrivate, SourceLoopback, "0.0.0.0/0", "::/0", "10.1.2.3", "2001:db8::/32"} {
		ps, err := parseSource(src)
		if err != nil {
			t.Fatal(err)
		}
		set := newAddrSet(ps)
		for _, a := range []string{"10.1.2.3", "172.20.0.1", "192.168.1.1", "127.0.0.1", "::1", "fe80::1", "fd00::1",
			"2001:db8::1", "203.0.113.7", "::ffff:10.1.2.3", "8.8.8.8", "2606:4700::1"} {
			ad := netip.MustParseAddr(a)
			if got, want := set.contains(ad), matchAddr(ps, ad); got != want {
				t.Errorf("%s in %s: compiled %v, Contains %v", a, src, got, want)
			}
		}
	}
}
