package settings

import (
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Validate normalizes g and checks every field.
func (g *Global) Validate() error {
	var c apperr.Collector
	g.AdminDomain = validate.NormalizeHostname(g.AdminDomain)
	if g.AdminDomain != "" {
		if err := validate.Hostname(g.AdminDomain, false); err != nil {
			c.Add("adminDomain", "%v", err)
		}
	}
	if g.DefaultEntrypoints == nil {
		g.DefaultEntrypoints = []string{}
	}
	if g.GlobalMiddlewares == nil {
		g.GlobalMiddlewares = []string{}
	}
	if len(g.DefaultEntrypoints) == 0 {
		c.Add("defaultEntrypoints", "must name at least one entrypoint")
	}
	validate.NameList(&c, "defaultEntrypoints", g.DefaultEntrypoints, validate.Entrypoint, "entrypoint")
	validate.NameList(&c, "globalMiddlewares", g.GlobalMiddlewares, validate.Middleware, "middleware")
	if g.DefaultLifetimeSeconds < 0 || g.DefaultLifetimeSeconds > 10*365*24*3600 {
		c.Add("defaultLifetimeSeconds", "must be between 0 (never) and 10 years")
	}
	return c.Err()
}
