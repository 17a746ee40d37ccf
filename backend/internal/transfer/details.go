package transfer

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// maxDetailItems bounds each detail line's list (a service may have many
// host names or targets).
const maxDetailItems = 5

// details says in a few lines what a service or a domain is or becomes:
// a service's host names, targets and entrypoints, a domain's certificates
// and HTTPS defaults; on an update, each changed line as it was and as it
// will be. Other kinds have none: their fields say enough.
func details(before, after any) []string {
	var lines func(any) [][2]string
	switch after.(type) {
	case document.Service:
		lines = serviceLines
	case document.Domain:
		lines = domainLines
	default:
		return nil
	}
	now := lines(after)
	var was [][2]string
	if before != nil {
		was = lines(before)
	}
	out := make([]string, 0, len(now))
	for i, l := range now {
		switch {
		case was == nil:
			out = append(out, l[0]+": "+l[1])
		case was[i][1] != l[1]:
			out = append(out, l[0]+": "+was[i][1]+" → "+l[1])
		}
	}
	return out
}

func serviceLines(v any) [][2]string {
	sv := v.(document.Service)
	hosts := make([]string, 0, len(sv.Hostnames))
	for _, h := range sv.Hostnames {
		switch h.Type {
		case store.HostSubdomain:
			hosts = append(hosts, h.Value+"."+sv.Domain)
		case store.HostApex:
			hosts = append(hosts, sv.Domain)
		default:
			hosts = append(hosts, h.Value)
		}
	}
	var to string
	if sv.Kind == store.KindRedirect && sv.Redirect != nil {
		to = "redirects to " + sv.Redirect.URL
	} else {
		targets := make([]string, 0, len(sv.Targets))
		for _, t := range sv.Targets {
			scheme := t.Scheme
			if scheme == "" {
				scheme = "http"
			}
			targets = append(targets, scheme+"://"+net.JoinHostPort(t.Host, strconv.Itoa(t.Port)))
		}
		to = list(targets)
	}
	eps := "the default entrypoints"
	if len(sv.Entrypoints) > 0 {
		eps = list(sv.Entrypoints)
	}
	served := servedOver(sv.Entrypoints)
	redirect := "as the domain says"
	if sv.HTTPSRedirect != nil {
		redirect = map[bool]string{true: "on", false: "off"}[*sv.HTTPSRedirect]
	}
	return [][2]string{{"hostnames", list(hosts)}, {"targets", to}, {"entrypoints", eps}, {"served over", served}, {"redirect to HTTPS", redirect}}
}

// servedOver says whether Traefik will serve a service over HTTPS, plain
// HTTP or both, by its entrypoints' names (the panel's heuristic when
// Traefik has not said; the default entrypoints are HTTPS unless Settings
// change them).
func servedOver(eps []string) string {
	if len(eps) == 0 {
		return "HTTPS (the default entrypoints)"
	}
	var tls, plain []string
	for _, ep := range eps {
		if dynconf.IsTLSByName(ep) {
			tls = append(tls, ep)
		} else {
			plain = append(plain, ep)
		}
	}
	switch {
	case len(plain) == 0:
		return "HTTPS (" + list(tls) + ")"
	case len(tls) == 0:
		return "plain HTTP only (" + list(plain) + ")"
	}
	return "HTTPS (" + list(tls) + ") and plain HTTP (" + list(plain) + ")"
}

func domainLines(v any) [][2]string {
	d := v.(document.Domain)
	certs := "no certificate resolver (Traefik's default certificate)"
	if d.CertResolver != "" {
		certs = "resolver " + d.CertResolver
		if d.Wildcard {
			certs += ", wildcard"
		}
	}
	if n := len(d.CertConfigs); n > 0 {
		certs += fmt.Sprintf(", %d extra certificate(s)", n)
	}
	https := map[bool]string{true: "redirect to HTTPS", false: "no redirect"}[d.HTTPSRedirect]
	if d.HSTS.MaxAge > 0 {
		https += fmt.Sprintf(", HSTS %ds", d.HSTS.MaxAge)
	}
	return [][2]string{{"certificates", certs}, {"HTTPS", https}}
}

// list joins at most maxDetailItems names and says how many more.
func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	if len(names) <= maxDetailItems {
		return strings.Join(names, ", ")
	}
	return strings.Join(slices.Clip(names[:maxDetailItems]), ", ") + fmt.Sprintf(" and %d more", len(names)-maxDetailItems)
}
