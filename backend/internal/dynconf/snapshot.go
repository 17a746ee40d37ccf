// Package dynconf builds Traefik's dynamic configuration from the panel's
// state and serves it to Traefik's HTTP provider (GET /api/proxy/config).
//
// Build is pure: plain structs in, Traefik's JSON shape out, no I/O. The
// Service gathers a Snapshot from the database, caches the encoded bytes and
// invalidates them on every change-bus event and at the next expiry instant.
package dynconf

import "github.com/gatehouse-proxy/gatehouse/internal/store"

// Snapshot is everything Build needs, read at one moment.
type Snapshot struct {
	// Services are the enabled services in creation order (created_at, then
	// id): collision suffixes follow this order, so it must be stable.
	Services []ServiceSpec
	// Domains are every base domain, for certificate-trigger routers.
	Domains []DomainSpec

	DefaultEntrypoints []string // used by services that list none
	GlobalMiddlewares  []string // prepended to every service's chain

	// EntrypointTLS says which entrypoints terminate TLS, as far as a source
	// knows; entrypoints missing from it fall back to IsTLSByName.
	EntrypointTLS map[string]bool

	Managed     bool   // add the admin-panel router
	AdminDomain string // host of the admin panel
	// PortalDomain is the sign-in portal's host, routed to the panel like
	// AdminDomain in managed mode ("" for none).
	PortalDomain string
	// HasAdmin: an administrator exists. Until then the admin router is left
	// out, so first-run setup cannot be claimed from the public domain.
	HasAdmin bool

	// AuthBase is the panel's base URL as Traefik reaches it for forwardAuth
	// and certificate-trigger callbacks (no trailing slash).
	AuthBase string
	// PanelURL is the upstream of the admin-panel router. It must not be the
	// public admin domain (that would loop through the proxy).
	PanelURL string
	// PanelService, when set, is the admin-panel router's service instead of
	// one on PanelURL: managed mode with replicas names the load balancer
	// over them (gatehouse-panel@file), so requests from the admin domain go
	// straight to a replica rather than through Traefik's loopback entrypoint.
	PanelService string
	// PanelMiddlewares go on the admin-panel router with PanelService: the
	// retry over the replicas (gatehouse-retry@file), so a replica that just
	// stopped costs no request before the health check drops it.
	PanelMiddlewares []string
	// TrustForwardHeader goes into every forwardAuth middleware: set when
	// proxies in front of Traefik are trusted to report the client.
	TrustForwardHeader bool
}

// ServiceSpec is one enabled service joined with its domain.
type ServiceSpec struct {
	ID                 string
	Name               string
	Hosts              []string    // resolved host names (services.FQDNs)
	Domain             *DomainSpec // nil when the service has no domain
	Targets            []store.Target
	PassHostHeader     bool
	InsecureSkipVerify bool
	Entrypoints        []string // empty: DefaultEntrypoints
	Rules              []store.Rule
	Middlewares        []string
	Headers            map[string]string
	Protected          bool // has a protection or restricting access rules: add forwardAuth
	// HTTPSRedirect and HSTS override the domain's defaults; nil inherits.
	HTTPSRedirect *bool
	HSTS          *store.HSTS
	// Kind is store.KindRedirect for a redirect service (Redirect says
	// where to); anything else proxies to Targets.
	Kind     string
	Redirect store.Redirect
	// Maintenance sends every request to the panel's maintenance page for
	// the service, whatever its kind.
	Maintenance bool
	// LoadBalancer: health check, sticky cookie and upstream timeouts
	// (target weights are in Targets).
	LoadBalancer store.LoadBalancer
	// TCP: a tcp service's options (Kind store.KindTCP; its SNI names are
	// Hosts, none for HostSNI(`*`)).
	TCP store.TCP
}

// https resolves the service's HTTPS options against its domain's defaults.
func (sv *ServiceSpec) https() (redirect bool, hsts store.HSTS) {
	if sv.Domain != nil {
		redirect, hsts = sv.Domain.HTTPSRedirect, sv.Domain.HSTS
	}
	if sv.HTTPSRedirect != nil {
		redirect = *sv.HTTPSRedirect
	}
	if sv.HSTS != nil {
		hsts = *sv.HSTS
	}
	return redirect, hsts
}

// DomainSpec is a base domain and how its certificates are obtained.
type DomainSpec struct {
	ID           string
	Domain       string
	CertResolver string
	Wildcard     bool
	CertConfigs  []store.CertConfig
	// The HTTPS defaults of the domain's services.
	HTTPSRedirect bool
	HSTS          store.HSTS
}
