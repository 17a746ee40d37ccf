package transfer

import (
	"fmt"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// baseDomain is a base domain the panel will have once the plan is applied.
type baseDomain struct{ host, resolver string }

// resolverNotes makes a reader's "certificate resolver not imported" notes
// true of this panel: Gatehouse asks a resolver for the host names under a
// base domain (custom host names included), so a router's resolver is lost
// only when its hosts do not all sit under a base domain asking the same
// resolver. Covered: the note goes (nothing is lost). Under a domain with
// another resolver, or none: it says which. Under none: the reader's note.
func (p *planner) resolverNotes(skipped []document.Skipped) []document.Skipped {
	var domains []baseDomain
	deleted := map[string]bool{}
	for _, it := range p.items {
		if it.Kind == KindDomain && it.Action == ActionDelete {
			deleted[it.Name] = true
		}
	}
	for _, d := range p.st.domainRows {
		if !deleted[d.Domain] {
			domains = append(domains, baseDomain{d.Domain, d.CertResolver})
		}
	}
	for _, d := range p.doc.Domains {
		domains = append(domains, baseDomain{d.Domain, d.CertResolver})
	}
	out := skipped[:0:0]
	for _, sk := range skipped {
		if sk.CertResolver == "" || len(sk.Hosts) == 0 {
			out = append(out, sk)
			continue
		}
		d, ok := coveringDomain(domains, sk.Hosts)
		switch {
		case !ok:
			// The reader's note stands: no one base domain holds every host.
		case strings.EqualFold(d.resolver, sk.CertResolver):
			continue
		case d.resolver == "":
			sk.Reason = fmt.Sprintf("tls.certResolver %q is not imported: the hosts fall under base domain %s, which asks no resolver, so Traefik serves its default certificate for them; "+
				"set resolver %q on domain %s to keep certificates coming", sk.CertResolver, d.host, sk.CertResolver, d.host)
		default:
			sk.Reason = fmt.Sprintf("tls.certResolver %q is not imported: the hosts fall under base domain %s, whose certificates come from resolver %q instead",
				sk.CertResolver, d.host, d.resolver)
		}
		out = append(out, sk)
	}
	return out
}

// coveringDomain is the base domain every host sits under (the longest
// match for each, as the dynamic configuration picks it), if one does.
func coveringDomain(domains []baseDomain, hosts []string) (baseDomain, bool) {
	var found baseDomain
	for i, h := range hosts {
		h = strings.ToLower(h)
		var best baseDomain
		for _, d := range domains {
			dd := strings.ToLower(d.host)
			if (h == dd || strings.HasSuffix(h, "."+dd)) && len(dd) > len(best.host) {
				best = d
			}
		}
		if best.host == "" || i > 0 && !strings.EqualFold(best.host, found.host) {
			return baseDomain{}, false
		}
		found = best
	}
	return found, found.host != ""
}
