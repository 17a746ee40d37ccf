package traefikfile

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// merge makes one Gatehouse service of routers matching the same requests.
func merge(g []*candidate) (document.Service, error) {
	var servers, redirectors []*candidate
	for _, c := range g {
		if c.eff.httpsRedirect && c.eff.redirect == nil {
			redirectors = append(redirectors, c)
		} else {
			servers = append(servers, c)
		}
	}
	if len(servers) == 0 {
		for _, c := range redirectors {
			if c.up != nil {
				servers = append(servers, c)
			}
		}
	}
	if len(servers) == 0 {
		return document.Service{}, fmt.Errorf("it only redirects to https, and no router in this file serves the same hosts; " +
			"in Gatehouse the redirect is an option of the service that serves them")
	}
	for _, c := range servers {
		c.notes = append(c.notes, c.up.notesIfAny()...)
	}
	first := servers[0]
	for _, c := range servers[1:] {
		if c.service != first.service || !sameEffects(c.eff, first.eff) {
			names := make([]string, len(servers))
			for i, s := range servers {
				names[i] = s.router
			}
			return document.Service{}, fmt.Errorf("routers %s match the same requests with different services or middlewares; a Gatehouse service answers the same on every entrypoint",
				strings.Join(names, ", "))
		}
	}
	var eps []string
	all := false
	for _, c := range g {
		if c.eps == nil {
			all = true
		}
		for _, ep := range c.eps {
			if !slices.Contains(eps, ep) {
				eps = append(eps, ep)
			}
		}
	}
	if all {
		eps = []string{}
	}
	return first.service2(eps, len(redirectors) > 0), nil
}

// sameEffects compares what two routers' middlewares mean.
func sameEffects(a, b effects) bool {
	a.notes, b.notes = nil, nil
	return reflect.DeepEqual(a, b)
}

// service2 renders the candidate as a document service.
func (c *candidate) service2(eps []string, httpsRedirect bool) document.Service {
	name := c.router
	if r := []rune(name); len(r) > maxNameLen {
		name = string(r[:maxNameLen])
	}
	hsts := store.HSTS{}
	if c.eff.hsts != nil {
		hsts = *c.eff.hsts
	}
	headers := c.eff.headers
	if headers == nil {
		headers = map[string]string{}
	}
	s := document.Service{
		Name: name, Hostnames: make([]store.Hostname, len(c.hosts)), Targets: []store.Target{}, PassHostHeader: true,
		Entrypoints: eps, Rules: c.rules, Middlewares: []string{}, Headers: headers,
		HTTPSRedirect: &httpsRedirect, HSTS: &hsts, Kind: store.KindProxy, Enabled: true,
		Expiry: document.Expiry{Type: store.ExpiryNever}, Protections: []document.Protection{},
	}
	if s.Rules == nil {
		s.Rules = []store.Rule{}
	}
	for i, h := range c.hosts {
		s.Hostnames[i] = store.Hostname{Type: store.HostCustom, Value: h}
	}
	if c.up != nil {
		s.Targets, s.PassHostHeader, s.InsecureSkipVerify, s.LoadBalancer = c.up.targets, c.up.passHostHeader, c.up.insecureSkipVerify, c.up.lb
	}
	if c.eff.redirect != nil {
		s.Kind, s.Redirect = store.KindRedirect, c.eff.redirect
	}
	if c.eff.creds != nil {
		s.Protections = append(s.Protections, document.Protection{Type: store.SecurityBasicAuth, Enabled: true, CredentialSet: c.eff.creds.Name})
	}
	return s
}

// matchKey is a canonical form of what a router matches.
func matchKey(hosts []string, rules []store.Rule) string {
	h := slices.Clone(hosts)
	sort.Strings(h)
	r := make([]string, len(rules))
	for i, x := range rules {
		r[i] = x.Type + "\x00" + x.Name + "\x00" + x.Value
	}
	sort.Strings(r)
	return strings.Join(h, "\x01") + "\x02" + strings.Join(r, "\x01")
}
