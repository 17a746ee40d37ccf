package domains

import (
	"fmt"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// normalize trims and lower-cases the names, fills the defaults (the name
// from the domain, each certificate config's resolver from the domain's) and
// checks every field, collecting all errors.
func (r *Request) normalize() error {
	var c apperr.Collector
	r.Name = strings.TrimSpace(r.Name)
	// People paste what their browser shows (https://Example.com/): the
	// scheme and the slash go, anything else the name cannot hold is refused.
	if d, err := validate.PastedHostname(r.Domain); err != nil {
		c.Add("domain", "%v", err)
	} else if r.Domain = d; true {
		if err := validate.Hostname(r.Domain, false); err != nil {
			c.Add("domain", "%v", err)
		}
	}
	if r.Name == "" {
		r.Name = r.Domain
	}
	if len([]rune(r.Name)) > 100 {
		c.Add("name", "must be at most 100 characters")
	}
	r.CertResolver = strings.TrimSpace(r.CertResolver)
	if r.CertResolver != "" && !validate.Resolver(r.CertResolver) {
		c.Add("certResolver", "%q is not a valid resolver name", r.CertResolver)
	}
	if r.Wildcard && r.CertResolver == "" {
		c.Add("certResolver", "is required for a wildcard certificate (it needs a DNS challenge resolver)")
	}
	if len(r.CertConfigs) > 20 {
		c.Add("certConfigs", "must have at most 20 items")
	}
	if r.CertConfigs == nil {
		r.CertConfigs = []store.CertConfig{}
	}
	for i := range r.CertConfigs {
		cc := &r.CertConfigs[i]
		f := fmt.Sprintf("certConfigs[%d]", i)
		cc.Main = validate.NormalizeHostname(cc.Main)
		if err := validate.Hostname(cc.Main, true); err != nil {
			c.Add(f+".main", "%v", err)
		}
		if cc.SANs == nil {
			cc.SANs = []string{}
		}
		for j := range cc.SANs {
			cc.SANs[j] = validate.NormalizeHostname(cc.SANs[j])
			if err := validate.Hostname(cc.SANs[j], true); err != nil {
				c.Add(fmt.Sprintf("%s.sans[%d]", f, j), "%v", err)
			}
		}
		cc.Resolver = strings.TrimSpace(cc.Resolver)
		if cc.Resolver == "" {
			cc.Resolver = r.CertResolver
		}
		if cc.Resolver == "" {
			c.Add(f+".resolver", "is required (or set the domain's certResolver)")
		} else if !validate.Resolver(cc.Resolver) {
			c.Add(f+".resolver", "%q is not a valid resolver name", cc.Resolver)
		}
	}
	validate.HSTS(&c, "https.hsts", validate.Policy(r.HTTPS.HSTS))
	return c.Err()
}

// Check normalizes and validates req as Create and Update do, for callers
// that write domains another way (the configuration import).
func Check(req *Request) error { return req.normalize() }
