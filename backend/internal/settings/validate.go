package settings

import (
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/hostname"
	"github.com/gatehouse-proxy/gatehouse/internal/traefikname"
)

// Validate normalizes g and checks every field.
func (g *Global) Validate() error {
	var c apperr.Collector
	g.AdminDomain = hostname.Normalize(g.AdminDomain)
	if g.AdminDomain != "" {
		if err := hostname.Validate(g.AdminDomain, false); err != nil {
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
	traefikname.CheckList(&c, "defaultEntrypoints", g.DefaultEntrypoints, traefikname.Entrypoint, "entrypoint")
	traefikname.CheckList(&c, "globalMiddlewares", g.GlobalMiddlewares, traefikname.Middleware, "middleware")
	if g.DefaultLifetimeSeconds < 0 || g.DefaultLifetimeSeconds > 10*365*24*3600 {
		c.Add("defaultLifetimeSeconds", "must be between 0 (never) and 10 years")
	}
	return c.Err()
}
