package traefikfile

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// candidate is one router that Gatehouse can express on its own.
type candidate struct {
	router  string
	hosts   []string
	rules   []store.Rule
	key     string   // what the router matches, canonical
	eps     []string // nil: Traefik's default entrypoints
	service string   // the Traefik service (this file's name)
	eff     effects
	up      *upstream // nil for a redirect
	notes   []string
	// resolver is the router's tls.certResolver, kept apart from the notes:
	// whether it is lost depends on the base domains the panel will have,
	// which the import's plan knows (document.Skipped.CertResolver).
	resolver string
}

// maxNameLen is the longest Gatehouse service name.
const maxNameLen = 100

// convert turns every router into a service or a skipped entry.
func (f *file) convert() ([]document.Service, []document.CredentialSet, []document.Skipped) {
	var skipped []document.Skipped
	groups := map[string][]*candidate{}
	var order []string
	for _, name := range sortedKeys(f.routers) {
		c, err := f.router(name)
		if err != nil {
			skipped = append(skipped, document.Skipped{Source: "router " + name, Reason: err.Error()})
			continue
		}
		if groups[c.key] == nil {
			order = append(order, c.key)
		}
		groups[c.key] = append(groups[c.key], c)
	}

	// Routers that match the same requests on different entrypoints (the
	// usual plain-HTTP router that redirects, next to the TLS router that
	// serves) are one Gatehouse service.
	type merged struct {
		svc     document.Service
		members []*candidate
	}
	var all []merged
	for _, k := range order {
		g := groups[k]
		svc, err := merge(g)
		if err != nil {
			for _, c := range g {
				skipped = append(skipped, document.Skipped{Source: "router " + c.router, Reason: err.Error()})
			}
			continue
		}
		all = append(all, merged{svc, g})
	}

	// A Gatehouse service owns its host names: routers that share a host but
	// match different requests (Host(a) next to Host(a) && PathPrefix(/api))
	// cannot all come over, and bringing one alone would change where the
	// others' requests go.
	owners := map[string][]int{}
	for i, m := range all {
		for _, h := range m.members[0].hosts {
			owners[h] = append(owners[h], i)
		}
	}
	clash := map[int][]string{}
	for h, idx := range owners {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			clash[i] = append(clash[i], h)
		}
	}
	var services []document.Service
	sets := map[string]document.CredentialSet{}
	for i, m := range all {
		if hs := clash[i]; len(hs) > 0 {
			sort.Strings(hs)
			var others []string
			for _, h := range hs {
				for _, j := range owners[h] {
					if j == i {
						continue
					}
					for _, c := range all[j].members {
						if !slices.Contains(others, c.router) {
							others = append(others, c.router)
						}
					}
				}
			}
			sort.Strings(others)
			for _, c := range m.members {
				skipped = append(skipped, document.Skipped{Source: "router " + c.router, Reason: fmt.Sprintf(
					"host %s is also routed by %s with a different rule; a Gatehouse service owns its host names, so routers sharing a host are imported only when they match the same requests",
					strings.Join(hs, ", "), strings.Join(others, ", "))})
			}
			continue
		}
		services = append(services, m.svc)
		for _, c := range m.members {
			if c.eff.creds != nil {
				sets[c.eff.creds.Name] = *c.eff.creds
			}
			for _, n := range c.notes {
				skipped = append(skipped, document.Skipped{Source: "router " + c.router, Reason: n})
			}
			if c.resolver != "" {
				skipped = append(skipped, document.Skipped{Source: "router " + c.router, Reason: ResolverReason(c.resolver),
					CertResolver: c.resolver, Hosts: c.hosts})
			}
		}
	}
	sort.Slice(services, func(i, j int) bool { return services[i].Name < services[j].Name })
	out := make([]document.CredentialSet, 0, len(sets))
	for _, k := range sortedSetNames(sets) {
		out = append(out, sets[k])
	}
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Source < skipped[j].Source })
	return services, out, skipped
}

func sortedSetNames(m map[string]document.CredentialSet) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// router reads one router; the error says why it cannot come over.
func (f *file) router(name string) (*candidate, error) {
	at := path("http", "routers", name)
	m, err := asObj(f.routers[name], at)
	if err != nil {
		return nil, err
	}
	get := func(k string) (any, bool, error) {
		v, ok, err := field(m, k)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", at, err)
		}
		return v, ok, nil
	}
	c := &candidate{router: name}

	if v, ok, err := get("ruleSyntax"); err != nil {
		return nil, err
	} else if ok {
		s, err := asString(v, path(at, "ruleSyntax"))
		if err != nil {
			return nil, err
		}
		if !strings.EqualFold(s, "v3") && s != "" {
			return nil, fmt.Errorf("its rule is written in Traefik %s syntax (ruleSyntax); Gatehouse reads v3 rules: rewrite it in v3 syntax and import again", s)
		}
	}
	rv, ok, err := get("rule")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("it has no rule")
	}
	rule, err := asString(rv, path(at, "rule"))
	if err != nil {
		return nil, err
	}
	e, err := parseRule(rule)
	if err != nil {
		return nil, fmt.Errorf("its rule %s is one Traefik refuses: %w", clip(rule), err)
	}
	if c.hosts, c.rules, err = represent(e); err != nil {
		return nil, fmt.Errorf("its rule %s has no Gatehouse equivalent: %w", clip(rule), err)
	}
	c.key = matchKey(c.hosts, c.rules)
	if v, ok, err := get("priority"); err != nil {
		return nil, err
	} else if ok {
		p, err := asInt(v, path(at, "priority"))
		if err != nil {
			return nil, err
		}
		if p != 0 {
			return nil, fmt.Errorf("it sets priority %d; Gatehouse orders routers by Traefik's default (the rule's length) and cannot keep an explicit priority", p)
		}
	}

	if v, ok, err := get("entryPoints"); err != nil {
		return nil, err
	} else if ok {
		if c.eps, err = asStringList(v, path(at, "entryPoints")); err != nil {
			return nil, err
		}
		for _, ep := range c.eps {
			if !validate.Entrypoint(ep) {
				return nil, fmt.Errorf("entrypoint %q is not a name Gatehouse accepts", ep)
			}
		}
		if len(c.eps) == 0 {
			c.eps = nil
		}
	}
	var mws []string
	if v, ok, err := get("middlewares"); err != nil {
		return nil, err
	} else if ok {
		if mws, err = asStringList(v, path(at, "middlewares")); err != nil {
			return nil, err
		}
	}
	if c.eff, err = f.effectsOf(mws); err != nil {
		return nil, err
	}
	c.notes = append(c.notes, c.eff.notes...)

	sv, ok, err := get("service")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("it names no service")
	}
	if c.service, err = asString(sv, path(at, "service")); err != nil {
		return nil, err
	}
	if c.eff.redirect == nil {
		// A router that redirects to https may still serve its requests
		// that arrive over TLS (Traefik does not redirect a request already
		// on https): its upstream matters only when no other router serves
		// the same requests.
		local, provider, _ := strings.Cut(c.service, "@")
		switch {
		case provider != "" && provider != "file":
			err = fmt.Errorf("its service %q belongs to the %s provider, not this file; Gatehouse needs the upstream's address: create the service in Gatehouse with it", c.service, provider)
		default:
			c.service = local
			c.up, err = f.upstreamOf(local)
		}
		if err != nil && !c.eff.httpsRedirect {
			return nil, err
		}
	}
	if err := c.tls(get); err != nil {
		return nil, err
	}
	return c, nil
}

// tls notes what the router's tls block asked for that Gatehouse takes
// from elsewhere.
func (c *candidate) tls(get func(string) (any, bool, error)) error {
	v, ok, err := get("tls")
	if err != nil {
		return err
	}
	if !ok || v == false {
		c.plainHTTP()
		return nil
	}
	for _, ep := range c.eps {
		if !dynconf.IsTLSByName(ep) {
			c.notes = append(c.notes, fmt.Sprintf("the router terminates TLS on entrypoint %q: Gatehouse adds TLS to the entrypoints Traefik's API or managed mode reports as TLS "+
				"(or, failing those, whose names say so), so check that %q is one", ep, ep))
		}
	}
	m, isObj := v.(obj)
	if !isObj {
		return nil // tls: true or an empty value: TLS with the default certificate
	}
	for _, k := range sortedKeys(m) {
		s, _ := asString(m[k], "")
		switch strings.ToLower(k) {
		case "certresolver":
			c.resolver = s
		case "domains":
			c.notes = append(c.notes, "tls.domains is not imported: Gatehouse requests certificates per base domain (wildcard or extra certificate configs on the domain)")
		case "options":
			c.notes = append(c.notes, fmt.Sprintf("tls.options %q is not imported: Traefik's default TLS options apply", s))
		}
	}
	return nil
}

// ResolverReason is what a skipped entry says when no base domain of the
// panel covers the router's hosts with its resolver.
func ResolverReason(resolver string) string {
	return fmt.Sprintf("tls.certResolver %q is not imported: Gatehouse asks a resolver for the host names of a base domain; "+
		"add the domain with resolver %q and the service's hosts fall under it, or Traefik serves its default certificate for these hosts", resolver, resolver)
}

// PlainEntrypoint is the entrypoint a router without TLS and without
// entrypoints of its own is imported on: the plain-HTTP entrypoint of
// Traefik's documentation, of the panel's setup guide and of managed mode.
const PlainEntrypoint = "web"

// plainHTTP keeps a router without a tls section on plain HTTP, as Traefik
// serves it. Without entrypoints Traefik answers it on every default
// entrypoint, without TLS; Gatehouse's default entrypoints terminate TLS,
// so it is imported on the plain entrypoint instead. On an entrypoint
// Gatehouse serves with TLS it gets TLS, which Traefik gives it only when
// that entrypoint turns TLS on for all its routers: said per router.
func (c *candidate) plainHTTP() {
	if c.eff.redirect == nil && c.eff.httpsRedirect {
		return // a router that only sends clients to https
	}
	if c.eps == nil {
		c.eps = []string{PlainEntrypoint}
		c.notes = append(c.notes, fmt.Sprintf("it has no tls section and no entrypoints, so Traefik serves it over plain HTTP: "+
			"imported on the plain entrypoint %q, not on the default (HTTPS) entrypoints; add a TLS entrypoint to the service to serve it over HTTPS", PlainEntrypoint))
		return
	}
	for _, ep := range c.eps {
		if dynconf.IsTLSByName(ep) {
			c.notes = append(c.notes, fmt.Sprintf("it has no tls section but listens on entrypoint %q: Traefik serves it over HTTPS there only if the entrypoint turns TLS on "+
				"for every router (entryPoints.%s.http.tls); Gatehouse will serve it over HTTPS on %q", ep, ep, ep))
		}
	}
}

// clip quotes a rule for a message, shortened when long.
func clip(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return fmt.Sprintf("%q", s)
}
