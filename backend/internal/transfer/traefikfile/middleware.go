package traefikfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Middlewares of the file cannot come over as objects Gatehouse owns; the
// ones Gatehouse has a native option for become that option, and the rest
// are listed. A middleware that limits who reaches the service (an
// authentication or an address list) is never silently dropped: the router
// is skipped instead, since importing it without would open the service.

// restricting lists the middleware kinds that limit who reaches a service.
var restricting = map[string]bool{"digestauth": true, "forwardauth": true, "ipallowlist": true, "ipwhitelist": true}

const maxChainDepth = 8

// effects is what a router's middlewares mean in Gatehouse's terms.
type effects struct {
	httpsRedirect bool // redirectScheme to https
	hsts          *store.HSTS
	headers       map[string]string
	creds         *document.CredentialSet
	redirect      *store.Redirect
	notes         []string // middlewares (or options) left out that change behaviour, not access
}

// effectsOf reads a router's middleware chain.
func (f *file) effectsOf(names []string) (effects, error) {
	var e effects
	return e, f.walk(&e, names, 0, map[string]bool{})
}

func (f *file) walk(e *effects, names []string, depth int, seen map[string]bool) error {
	if depth > maxChainDepth {
		return fmt.Errorf("its middleware chains nest deeper than %d levels", maxChainDepth)
	}
	for _, ref := range names {
		name, provider, _ := strings.Cut(ref, "@")
		if provider != "" && provider != "file" {
			return fmt.Errorf("its middleware %q belongs to the %s provider: Gatehouse cannot tell what it does, and leaving it out could open the service wider than before", ref, provider)
		}
		if seen[name] {
			return fmt.Errorf("middleware %q is part of a chain that includes itself", name)
		}
		v, ok := f.middlewares[name]
		if !ok {
			return fmt.Errorf("its middleware %q is not defined in this file (Traefik reports the router in error)", ref)
		}
		at := path("http", "middlewares", name)
		m, err := asObj(v, at)
		if err != nil {
			return err
		}
		if len(m) != 1 {
			return fmt.Errorf("%s: a middleware defines exactly one kind, this one %d", at, len(m))
		}
		kind := sortedKeys(m)[0]
		kat := path(at, kind)
		switch lk := strings.ToLower(kind); {
		case lk == "chain":
			c, err := asObj(m[kind], kat)
			if err != nil {
				return err
			}
			var inner []string
			if iv, ok, _ := field(c, "middlewares"); ok {
				if inner, err = asStringList(iv, path(kat, "middlewares")); err != nil {
					return err
				}
			}
			seen[name] = true
			if err := f.walk(e, inner, depth+1, seen); err != nil {
				return err
			}
			delete(seen, name)
		case lk == "redirectscheme":
			if err := e.redirectScheme(name, m[kind], kat); err != nil {
				return err
			}
		case lk == "headers":
			if err := e.headersOf(name, m[kind], kat); err != nil {
				return err
			}
		case lk == "basicauth":
			if err := e.basicAuth(name, m[kind], kat); err != nil {
				return err
			}
		case lk == "redirectregex":
			if err := e.redirectRegex(name, m[kind], kat); err != nil {
				return err
			}
		case restricting[lk]:
			return fmt.Errorf("its middleware %q (%s) limits who can reach the service; Gatehouse cannot bring it over, and importing the router without it would open the service to everyone: recreate it with Gatehouse's protections or access rules", name, kind)
		default:
			e.notes = append(e.notes, fmt.Sprintf("middleware %q (%s) is not imported: Gatehouse has no equivalent option; if Traefik keeps reading this file, add %q to the service's middlewares", name, kind, name+"@file"))
		}
	}
	return nil
}

// redirectScheme maps a redirect to https (on the default port) onto the
// service's HTTPS redirect; other scheme redirects are only noted.
func (e *effects) redirectScheme(name string, v any, at string) error {
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	var scheme, port string
	permanent := false
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "scheme":
			scheme, err = asString(m[k], kat)
		case "port":
			port, err = asString(m[k], kat)
		case "permanent":
			permanent, err = asBool(m[k], kat)
		}
		if err != nil {
			return err
		}
	}
	if !strings.EqualFold(scheme, "https") || (port != "" && port != "443") {
		e.notes = append(e.notes, fmt.Sprintf("middleware %q (redirectScheme to %s%s) is not imported: Gatehouse redirects to https on port 443 only", name, scheme, port))
		return nil
	}
	e.httpsRedirect = true
	if !permanent {
		e.notes = append(e.notes, fmt.Sprintf("middleware %q redirected to https temporarily; Gatehouse's HTTPS redirect is permanent (301)", name))
	}
	return nil
}

// headersOf maps the HSTS options and custom request headers; every other
// headers option is noted.
func (e *effects) headersOf(name string, v any, at string) error {
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	var h store.HSTS
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "stsseconds":
			h.MaxAge, err = asInt(m[k], kat)
		case "stsincludesubdomains":
			h.IncludeSubdomains, err = asBool(m[k], kat)
		case "stspreload":
			h.Preload, err = asBool(m[k], kat)
		case "customrequestheaders":
			err = e.requestHeaders(m[k], kat)
		default:
			e.notes = append(e.notes, fmt.Sprintf("%s of middleware %q is not imported: Gatehouse has no equivalent option", k, name))
		}
		if err != nil {
			return err
		}
	}
	if h != (store.HSTS{}) {
		var c apperr.Collector
		validate.HSTS(&c, "hsts", validate.Policy(h))
		if err := c.Err(); err != nil {
			return fmt.Errorf("%s: the HSTS policy is outside Gatehouse's limits (at most two years; preload needs includeSubdomains and one year)", at)
		}
		if e.hsts != nil && *e.hsts != h {
			return fmt.Errorf("its middlewares set two different HSTS policies")
		}
		e.hsts = &h
	}
	return nil
}

func (e *effects) requestHeaders(v any, at string) error {
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	if e.headers == nil {
		e.headers = map[string]string{}
	}
	for _, k := range sortedKeys(m) {
		s, err := asString(m[k], path(at, k))
		if err != nil {
			return err
		}
		if !validate.HeaderName(k) || !validate.HeaderValue(s) || len(s) > 4096 {
			return fmt.Errorf("%s: Gatehouse takes header names of token characters and printable values", path(at, k))
		}
		e.headers[k] = s
	}
	if len(e.headers) > 50 {
		return fmt.Errorf("%s: Gatehouse takes at most 50 request headers", at)
	}
	return nil
}

// Whole-host redirects: a regex that matches every URL, or one that keeps
// everything after the host, with a replacement that is a fixed URL (plus
// the kept part). Anything else rewrites selectively and is only noted.
var (
	matchAll  = []string{".*", "^.*", "^.*$", "(.*)", "^(.*)$"}
	matchPath = []string{`^https?://[^/]+(.*)`, `^https?://[^/]+(.*)$`, `^[a-z][a-z0-9+.-]*://[^/]+(.*)$`, `^https?://[^/]+(/.*)`, `^https?://[^/]+(/.*)$`}
)

func (e *effects) redirectRegex(name string, v any, at string) error {
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	var re, repl string
	permanent := false
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "regex":
			re, err = asString(m[k], kat)
		case "replacement":
			repl, err = asString(m[k], kat)
		case "permanent":
			permanent, err = asBool(m[k], kat)
		}
		if err != nil {
			return err
		}
	}
	r, ok := wholeHostRedirect(re, repl)
	if !ok {
		e.notes = append(e.notes, fmt.Sprintf("middleware %q (redirectRegex) is not imported: only a redirect of every request to one URL (keeping the path or not) has a Gatehouse equivalent", name))
		return nil
	}
	if e.redirect != nil {
		return fmt.Errorf("it chains two redirects")
	}
	r.Permanent = permanent
	e.redirect = &r
	return nil
}

// wholeHostRedirect recognises a redirectRegex Gatehouse can express.
func wholeHostRedirect(re, repl string) (store.Redirect, bool) {
	fixed := func(s string) (string, bool) {
		u := strings.ReplaceAll(s, "$$", "")
		if strings.Contains(u, "$") {
			return "", false
		}
		return strings.ReplaceAll(s, "$$", "$"), true
	}
	switch {
	case slices.Contains(matchAll, re):
		u, ok := fixed(repl)
		if !ok || validate.RedirectURL(u, false) != nil {
			return store.Redirect{}, false
		}
		return store.Redirect{URL: u}, true
	case slices.Contains(matchPath, re):
		var head string
		switch {
		case strings.HasSuffix(repl, "${1}"):
			head = strings.TrimSuffix(repl, "${1}")
		case strings.HasSuffix(repl, "$1"):
			head = strings.TrimSuffix(repl, "$1")
		default:
			return store.Redirect{}, false
		}
		u, ok := fixed(head)
		if !ok || strings.HasSuffix(head, "/") || validate.RedirectURL(u, true) != nil {
			return store.Redirect{}, false
		}
		return store.Redirect{URL: u, KeepPath: true}, true
	}
	return store.Redirect{}, false
}
