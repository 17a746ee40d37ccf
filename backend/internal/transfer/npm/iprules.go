package npm

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// ipRules translates an access list's client rules into access rules that
// decide as NPM v2.12's nginx configuration did. NPM writes the rules in id
// order as "allow|deny <address>;" (leaving out a row without directive or
// address), then "deny all;" and "satisfy any|all;" (templates/_access.conf),
// and nginx's access module stops at the first rule that matches. With
// basic-auth users, satisfy any lets a client in when its address is allowed
// or its password is right, satisfy all needs both; without users only the
// address counts, whatever the flag says. So:
//
//	               allow X        deny X         end of the list (deny all)
//	no users       allow          deny           deny
//	users, any     allow          authenticate   authenticate
//	users, all     authenticate   deny           deny
//
// An "all" rule ends the list and gives the default action. Consecutive
// rules with the same action become one rule with several sources, which
// first-match evaluation reads the same way. why says what stops an exact
// translation; acc is nil then.
func ipRules(l *accessList, withUsers bool) (acc *document.ServiceAccess, why string) {
	note := fmt.Sprintf("from NPM access list #%d", l.id)
	def := verdict(false, withUsers, l.satisfyAny)
	list := []rules.Rule{}
	for _, cl := range l.clients {
		dir, addr := strings.TrimSpace(cl.directive), strings.TrimSpace(cl.address)
		if dir == "" || addr == "" {
			continue
		}
		if dir != "allow" && dir != "deny" {
			return nil, fmt.Sprintf("%q is neither allow nor deny", clip(dir, 10))
		}
		act := verdict(dir == "allow", withUsers, l.satisfyAny)
		if addr == "all" {
			def = act
			break
		}
		if w := badAddress(addr); w != "" {
			return nil, fmt.Sprintf("%q %s", clip(addr, 50), w)
		}
		if n := len(list); n > 0 && list[n-1].Action == act && len(list[n-1].Sources) < rules.MaxConditions {
			list[n-1].Sources = append(list[n-1].Sources, addr)
			continue
		}
		list = append(list, rules.Rule{Action: act, Note: note, Sources: []string{addr}})
	}
	var c apperr.Collector
	rules.Normalize(list, "rules", rules.Options{}, &c)
	if len(list) > rules.MaxRules {
		return nil, fmt.Sprintf("they make more than %d access rules", rules.MaxRules)
	}
	if err := c.Err(); err != nil {
		return nil, "Gatehouse refuses them (" + err.Error() + ")"
	}
	return &document.ServiceAccess{DefaultAction: string(def), Rules: list}, ""
}

// verdict is what an allow (or deny) rule of a list decides in Gatehouse's
// terms; allow=false also gives the list's closing "deny all".
func verdict(allow, withUsers, satisfyAny bool) rules.Action {
	switch {
	case !withUsers && allow, withUsers && satisfyAny && allow:
		return rules.Allow
	case withUsers && allow, withUsers && satisfyAny:
		return rules.Authenticate
	default:
		return rules.Deny
	}
}

// badAddress says why nginx's reading of an allow/deny address could differ
// from an access rule's source, or "". nginx compares an IPv4-mapped IPv6
// rule with IPv6 clients only, where a source matches the IPv4 client too;
// "unix:" and names have no source at all.
func badAddress(addr string) string {
	if strings.Contains(addr, "/") {
		p, err := netip.ParsePrefix(addr)
		switch {
		case err != nil || p.Addr().Zone() != "":
			return "is not an IP address or a CIDR"
		case p.Addr().Is4In6():
			return "is an IPv4-mapped IPv6 range"
		}
		return ""
	}
	a, err := netip.ParseAddr(addr)
	switch {
	case err != nil || a.Zone() != "":
		return "is not an IP address or a CIDR"
	case a.Is4In6():
		return "is an IPv4-mapped IPv6 address"
	}
	return ""
}

// describeAccess is acc in a line: its rules in order, then the default.
func describeAccess(acc *document.ServiceAccess) string {
	parts := make([]string, 0, len(acc.Rules)+1)
	for i, r := range acc.Rules {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(acc.Rules)-10))
			break
		}
		parts = append(parts, fmt.Sprintf("%s from %s", r.Action, clip(strings.Join(r.Sources, " or "), 120)))
	}
	return strings.Join(append(parts, "otherwise "+acc.DefaultAction), ", ")
}
