// This file validates names that reference Traefik objects
// (entrypoints, middlewares, certificate resolvers). They appear inside
// generated configuration, so only a conservative character set is accepted.

package validate

import (
	"regexp"
	"strconv"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

var (
	entrypointRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$`)
	// name or name@provider, as Traefik's API lists them.
	middlewareRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,126}(@[A-Za-z0-9][A-Za-z0-9_-]{0,62})?$`)
	resolverRE   = entrypointRE
)

// Entrypoint reports whether s is a valid entrypoint name.
func Entrypoint(s string) bool { return entrypointRE.MatchString(s) }

// Middleware reports whether s is a valid middleware reference.
func Middleware(s string) bool { return middlewareRE.MatchString(s) }

// Resolver reports whether s is a valid certificate resolver name.
func Resolver(s string) bool { return resolverRE.MatchString(s) }

// NameList validates a list of names with ok, recording errors under
// field[i]; duplicates are rejected too.
func NameList(c *apperr.Collector, field string, names []string, ok func(string) bool, what string) {
	seen := map[string]bool{}
	for i, n := range names {
		switch {
		case !ok(n):
			c.Add(indexed(field, i), "%q is not a valid %s name", n, what)
		case seen[n]:
			c.Add(indexed(field, i), "%q is listed twice", n)
		}
		seen[n] = true
	}
}

func indexed(field string, i int) string {
	return field + "[" + strconv.Itoa(i) + "]"
}
