package rules

import (
	"encoding/binary"
	"net/netip"
)

// addrSet is a rule's sources compiled for matching: each prefix as its
// masked bits and its mask, per address family, so that a match is a few
// integer operations per prefix rather than netip.Prefix.Contains. It
// matches exactly the addresses one of its prefixes Contains (after the
// Unmap matchAddr does).
type addrSet struct {
	v4 []addrRange4
	v6 []addrRange6
}

type addrRange4 struct{ base, mask uint32 }

type addrRange6 struct{ hi, lo, mhi, mlo uint64 }

func newAddrSet(ps []netip.Prefix) addrSet {
	var s addrSet
	for _, p := range ps {
		if !p.IsValid() {
			continue // Contains is false for every address
		}
		p = p.Masked()
		if p.Addr().Is4() {
			b := p.Addr().As4()
			mask := uint32(0)
			if p.Bits() > 0 {
				mask = ^uint32(0) << (32 - p.Bits())
			}
			s.v4 = append(s.v4, addrRange4{base: binary.BigEndian.Uint32(b[:]), mask: mask})
			continue
		}
		b := p.Addr().As16()
		mhi, mlo := mask128(p.Bits())
		s.v6 = append(s.v6, addrRange6{hi: binary.BigEndian.Uint64(b[:8]), lo: binary.BigEndian.Uint64(b[8:]), mhi: mhi, mlo: mlo})
	}
	return s
}

// mask128 is the 128-bit mask of a prefix length, as two halves.
func mask128(bits int) (hi, lo uint64) {
	switch {
	case bits <= 0:
		return 0, 0
	case bits < 64:
		return ^uint64(0) << (64 - bits), 0
	case bits == 64:
		return ^uint64(0), 0
	case bits < 128:
		return ^uint64(0), ^uint64(0) << (128 - bits)
	}
	return ^uint64(0), ^uint64(0)
}

func (s *addrSet) empty() bool { return len(s.v4) == 0 && len(s.v6) == 0 }

// contains reports whether a, unmapped, is in one of the prefixes. A zoned
// or invalid address is in none, as with netip.Prefix.Contains.
func (s *addrSet) contains(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.Zone() != "" {
		return false
	}
	if a.Is4() {
		b := a.As4()
		v := binary.BigEndian.Uint32(b[:])
		for _, r := range s.v4 {
			if v&r.mask == r.base {
				return true
			}
		}
		return false
	}
	b := a.As16()
	hi, lo := binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	for _, r := range s.v6 {
		if hi&r.mhi == r.hi && lo&r.mlo == r.lo {
			return true
		}
	}
	return false
}
