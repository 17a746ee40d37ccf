package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// CertResolver is a certificate resolver name and where it was seen.
type CertResolver struct {
	Name    string   `json:"name"`
	Sources []string `json:"sources"` // "router:x@file", "entrypoint:websecure", "domain:example.com", "managed"
}

// CertResolversView is GET /api/proxy/cert-resolvers.
type CertResolversView struct {
	Status
	Items []CertResolver `json:"items"`
}

// CertResolvers infers the resolver names in use: Traefik has no resolver
// API, so they are collected from routers, entrypoints, the panel's domains
// and the managed-mode configuration. The panel's own sources answer even
// when Traefik is not reachable.
func (s *Service) CertResolvers(ctx context.Context) (CertResolversView, error) {
	v := CertResolversView{Items: []CertResolver{}}
	seen := map[string]map[string]bool{}
	add := func(name, source string) {
		if name = strings.TrimSpace(name); name == "" {
			return
		}
		if seen[name] == nil {
			seen[name] = map[string]bool{}
		}
		seen[name][source] = true
	}
	raw, st := s.fetchRaw(ctx)
	v.Status = st
	if raw != nil {
		for _, routers := range []map[string]rawRouter{raw.Routers, raw.TCPRouters} {
			for name, r := range routers {
				var t rawTLS
				if len(r.TLS) > 0 && json.Unmarshal(r.TLS, &t) == nil {
					add(t.CertResolver, "router:"+name)
				}
			}
		}
		if eps, err := s.d.Client.entrypoints(ctx); err == nil {
			for _, ep := range eps {
				if ep.HTTP != nil && ep.HTTP.TLS != nil {
					add(ep.HTTP.TLS.CertResolver, "entrypoint:"+ep.Name)
				}
			}
		}
	}
	if s.d.Domains != nil {
		ds, err := s.d.Domains.List(ctx)
		if err != nil {
			return v, err
		}
		for _, d := range ds {
			add(d.CertResolver, "domain:"+d.Domain)
			for _, cc := range d.CertConfigs {
				add(cc.Resolver, "domain:"+d.Domain)
			}
		}
	}
	managed, err := s.managedResolvers(ctx)
	if err != nil {
		return v, err
	}
	for _, name := range managed {
		add(name, "managed")
	}
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		v.Items = append(v.Items, CertResolver{Name: name, Sources: slices.Sorted(maps.Keys(seen[name]))})
	}
	return v, nil
}

// Certificate is one certificate Traefik serves.
type Certificate struct {
	Fingerprint string    `json:"fingerprint"` // SHA-256 of the DER certificate
	Subject     string    `json:"subject"`     // common name (or the first SAN when it has none)
	SANs        []string  `json:"sans"`
	Issuer      string    `json:"issuer"`
	NotBefore   time.Time `json:"notBefore"`
	NotAfter    time.Time `json:"notAfter"`
	DaysLeft    int       `json:"daysLeft"` // negative once expired
	Status      string    `json:"status"`   // valid, expiring (under 30 days), expired
	KeyType     string    `json:"keyType,omitempty"`
	ServiceIDs  []string  `json:"serviceIds"` // panel services whose hosts it covers
}

// CertificatesView is GET /api/proxy/certificates.
type CertificatesView struct {
	Status
	Supported bool          `json:"supported"`
	Version   string        `json:"version"`
	Message   string        `json:"message,omitempty"`
	Items     []Certificate `json:"items"`
}

// minCertsVersion is the first Traefik with GET /api/certificates.
const minCertsMajor, minCertsMinor = 3, 7

// expiringDays matches Traefik's own warning threshold (and ACME's renewal window).
const expiringDays = 30

// Certificates lists the certificates Traefik holds (Traefik 3.7 or later).
func (s *Service) Certificates(ctx context.Context) (CertificatesView, error) {
	v := CertificatesView{Items: []Certificate{}}
	if s.d.Client == nil {
		v.Status = s.status(nil)
		return v, nil
	}
	ver, err := s.d.Client.version(ctx)
	if err != nil {
		v.Status = s.status(err)
		return v, nil
	}
	v.Status, v.Version = s.status(nil), ver
	unsupported := fmt.Sprintf("requires Traefik %d.%d or later (running %s)", minCertsMajor, minCertsMinor, ver)
	if pv, ok := parseVersion(ver); ok && !pv.atLeast(minCertsMajor, minCertsMinor) {
		v.Message = unsupported
		return v, nil
	}
	certs, err := s.d.Client.certificates(ctx)
	switch {
	case errors.Is(err, errNotFound):
		// A development build whose version says nothing: trust the 404.
		v.Message = unsupported
		return v, nil
	case err != nil:
		v.Status = s.status(err)
		return v, nil
	}
	v.Supported = true
	panel, err := s.panelServices(ctx)
	if err != nil {
		return v, err
	}
	now := s.d.Now()
	for _, c := range certs {
		v.Items = append(v.Items, toCertificate(c, now, panel))
	}
	sort.SliceStable(v.Items, func(i, j int) bool { return v.Items[i].NotAfter.Before(v.Items[j].NotAfter) })
	return v, nil
}

func toCertificate(c rawCertificate, now time.Time, panel []panelService) Certificate {
	out := Certificate{
		Fingerprint: c.Name, Subject: c.CommonName, SANs: nonNil(c.SANs), Issuer: issuer(c),
		NotBefore: c.NotBefore.UTC(), NotAfter: c.NotAfter.UTC(), KeyType: c.KeyType, ServiceIDs: []string{},
	}
	if out.Subject == "" && len(c.SANs) > 0 {
		out.Subject = c.SANs[0]
	}
	out.DaysLeft = int(math.Floor(c.NotAfter.Sub(now).Hours() / 24))
	switch left := c.NotAfter.Sub(now); {
	case left <= 0:
		out.Status = "expired"
	case left < expiringDays*24*time.Hour:
		out.Status = "expiring"
	default:
		out.Status = "valid"
	}
	names := append([]string{c.CommonName}, c.SANs...)
	for _, ps := range panel {
		if coversAny(names, ps.hosts) {
			out.ServiceIDs = append(out.ServiceIDs, ps.id)
		}
	}
	return out
}

func issuer(c rawCertificate) string {
	switch {
	case c.IssuerOrg != "" && c.IssuerCN != "" && c.IssuerOrg != c.IssuerCN:
		return c.IssuerOrg + " (" + c.IssuerCN + ")"
	case c.IssuerOrg != "":
		return c.IssuerOrg
	}
	return c.IssuerCN
}

// coversAny reports whether a certificate name covers one of hosts; a
// wildcard covers exactly one label.
func coversAny(names, hosts []string) bool {
	for _, n := range names {
		n = strings.ToLower(n)
		for _, h := range hosts {
			h = strings.ToLower(h)
			if n == h {
				return true
			}
			if rest, ok := strings.CutPrefix(n, "*."); ok {
				if _, parent, found := strings.Cut(h, "."); found && parent == rest {
					return true
				}
			}
		}
	}
	return false
}

// managedResolvers asks managed mode for its resolvers, if it is on.
func (s *Service) managedResolvers(ctx context.Context) ([]string, error) {
	if s.d.Managed == nil {
		return nil, nil
	}
	return s.d.Managed.ResolverNames(ctx)
}
