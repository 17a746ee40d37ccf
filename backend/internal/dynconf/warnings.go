package dynconf

import (
	"fmt"
	"slices"
	"strings"
)

// Warning codes: the service is emitted, but it may not behave as expected.
const (
	// WarnDefaultCertificate: a TLS router has no certificate resolver and
	// no certificate domains, so Traefik answers with its default
	// (self-signed) certificate unless its own configuration holds one for
	// these hosts.
	WarnDefaultCertificate = "default_certificate"
	// WarnRedirectWithoutTLS: redirect to HTTPS is asked for, but the service
	// listens on no TLS entrypoint, so nothing is redirected.
	WarnRedirectWithoutTLS = "https_redirect_without_tls"
	// WarnRedirectWithoutPlain: redirect to HTTPS is asked for, the service
	// listens on TLS entrypoints only, and Traefik has no plain entrypoint
	// the panel could add a redirecting router on (see redirectEntrypoint).
	WarnRedirectWithoutPlain = "https_redirect_without_plain"
	// WarnHSTSWithoutTLS: HSTS is asked for, but browsers only honour it over
	// HTTPS and the service listens on no TLS entrypoint.
	WarnHSTSWithoutTLS = "hsts_without_tls"
)

// Warning is something about an emitted service worth telling its owner.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Warnings lists what may surprise about sv as Build emits it in s. It is
// pure, like Build.
func Warnings(s *Snapshot, sv ServiceSpec) []Warning {
	out := []Warning{}
	eps := sv.Entrypoints
	if len(eps) == 0 {
		eps = s.DefaultEntrypoints
	}
	eps = dedupe(eps)
	var tlsEPs []string
	for _, ep := range eps {
		if s.isTLS(ep) {
			tlsEPs = append(tlsEPs, ep)
		}
	}
	hosts := dedupe(sv.Hosts)
	if len(tlsEPs) > 0 {
		t := tlsFor(hosts, s.certDomain(sv.Domain, hosts))
		if t.CertResolver == "" && len(t.Domains) == 0 {
			why := "the service has no domain with a certificate resolver"
			if d := s.certDomain(sv.Domain, hosts); d != nil {
				why = fmt.Sprintf("its domain %s has no certificate resolver", d.Domain)
			}
			out = append(out, Warning{Code: WarnDefaultCertificate, Message: fmt.Sprintf(
				"On %s Traefik serves its default self-signed certificate: %s. Set a resolver on the domain, or give Traefik a certificate for these hosts.",
				strings.Join(tlsEPs, ", "), why)})
		}
	}
	redirect, hsts := sv.https()
	if len(tlsEPs) == 0 && redirect {
		out = append(out, Warning{Code: WarnRedirectWithoutTLS, Message: fmt.Sprintf(
			"Redirect to HTTPS is on, but the service listens on no TLS entrypoint (%s): nothing is redirected.", strings.Join(eps, ", "))})
	}
	if len(tlsEPs) == len(eps) && len(eps) > 0 && redirect && s.redirectEntrypoint() == "" {
		out = append(out, Warning{Code: WarnRedirectWithoutPlain, Message: fmt.Sprintf(
			"Redirect to HTTPS is on, but the service listens only on %s and Traefik has no plain-HTTP entrypoint named web or http to redirect from: nothing is redirected. Add a plain entrypoint to the service.",
			strings.Join(eps, ", "))})
	}
	if len(tlsEPs) == 0 && hsts.MaxAge > 0 {
		out = append(out, Warning{Code: WarnHSTSWithoutTLS, Message: "HSTS is on, but the service listens on no TLS entrypoint: browsers ignore it over plain HTTP."})
	}
	return out
}

// specByID finds a service in the snapshot.
func (s *Snapshot) specByID(id string) (ServiceSpec, bool) {
	i := slices.IndexFunc(s.Services, func(sv ServiceSpec) bool { return sv.ID == id })
	if i < 0 {
		return ServiceSpec{}, false
	}
	return s.Services[i], true
}
