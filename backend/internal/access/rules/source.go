package rules

import (
	"fmt"
	"net/netip"
	"strings"
)

var shortcuts = map[string][]netip.Prefix{
	SourcePrivate: {
		netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("172.16.0.0/12"),
		netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("169.254.0.0/16"),
		netip.MustParsePrefix("fc00::/7"), netip.MustParsePrefix("fe80::/10"),
	},
	SourceLoopback: {netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
}

// parseSource reads one Rule.Sources entry: a shortcut, an address or a CIDR.
func parseSource(s string) ([]netip.Prefix, error) {
	if p, ok := shortcuts[s]; ok {
		return p, nil
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("not a CIDR")
		}
		if p.Addr().Zone() != "" {
			return nil, fmt.Errorf("zones are not allowed")
		}
		return []netip.Prefix{netip.PrefixFrom(p.Addr().Unmap(), unmappedBits(p)).Masked()}, nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return nil, fmt.Errorf("not an IP address")
	}
	a = a.Unmap()
	return []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}, nil
}

func unmappedBits(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		if b := p.Bits() - 96; b >= 0 {
			return b
		}
		return 0
	}
	return p.Bits()
}

// ParseTrusted reads PANEL_TRUSTED_PROXIES: CIDRs or addresses, separated
// by commas or spaces.
func ParseTrusted(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		p, err := parseSource(f)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", f, err)
		}
		out = append(out, p...)
	}
	return out, nil
}

// ClientAddr is the client's address from X-Forwarded-For as Traefik sends
// it to forwardAuth, with remote (the address Traefik connected from) as
// the fallback. Traefik appends the address it saw last, so the walk starts
// at the right: entries of trusted proxies are stepped over, and the first
// other entry is the client. Everything to its left was written by the
// client or by a proxy nobody trusts, and is ignored. An unreadable entry
// where the client should be gives the zero Addr: unknown.
func ClientAddr(xff []string, remote string, trusted []netip.Prefix) netip.Addr {
	var all string
	switch len(xff) {
	case 0:
		return parseHostAddr(remote)
	case 1:
		all = xff[0]
	default:
		all = strings.Join(xff, ",")
	}
	for {
		var entry string
		if i := strings.LastIndexByte(all, ','); i >= 0 {
			entry, all = all[i+1:], all[:i]
		} else {
			entry, all = all, ""
		}
		a := parseHostAddr(strings.TrimSpace(entry))
		if !a.IsValid() || all == "" || !matchAddr(trusted, a) {
			return a
		}
	}
}

// parseHostAddr reads "addr", "addr:port" or "[addr]:port".
func parseHostAddr(s string) netip.Addr {
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" {
			a = a.WithZone("")
		}
		return a.Unmap()
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap()
	}
	return netip.Addr{}
}
