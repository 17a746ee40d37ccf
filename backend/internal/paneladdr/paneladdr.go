// Package paneladdr answers, in one place, at which address the panel is
// reachable. Traefik reaches it (forward-auth, the HTTP provider, the admin
// router's upstream) at PANEL_INTERNAL_URL, else at the address the server
// is bound to; browsers reach it (the sign-in flows) at PANEL_PUBLIC_URL,
// else at https://<admin domain>, else where Traefik does. The features
// that need an address are handed the method that gives theirs.
package paneladdr

import (
	"context"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
)

// defaultListen is the address the panel listens on by default
// (PANEL_LISTEN), assumed until it is bound.
const defaultListen = "127.0.0.1:8080"

// Address is where the panel is reachable. Its zero value (or nil) knows no
// address.
type Address struct {
	internal    string // PANEL_INTERNAL_URL, no trailing slash
	public      string // PANEL_PUBLIC_URL, no trailing slash
	adminDomain func(ctx context.Context) (string, error)
	bound       atomic.Pointer[string]
}

// New returns the panel's address from PANEL_INTERNAL_URL, PANEL_PUBLIC_URL
// (both without a trailing slash, as config loads them; either may be
// empty) and the admin domain of the settings (nil: none).
func New(internalURL, publicURL string, adminDomain func(ctx context.Context) (string, error)) *Address {
	return &Address{internal: internalURL, public: publicURL, adminDomain: adminDomain}
}

// Bind records the address the server listens on, once it does.
func (a *Address) Bind(addr string) { a.bound.Store(&addr) }

// Listen is the bound address as a URL Traefik on this host can use (a
// wildcard bind is reachable on loopback), or "" before the server listens.
func (a *Address) Listen() string {
	if a == nil {
		return ""
	}
	p := a.bound.Load()
	if p == nil || *p == "" {
		return ""
	}
	host, port, err := net.SplitHostPort(*p)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Internal is how Traefik reaches the panel: PANEL_INTERNAL_URL, else
// Listen. The admin-panel router's upstream, which must never be the public
// admin domain (the proxy would route to itself).
func (a *Address) Internal() string {
	if a == nil {
		return ""
	}
	if a.internal != "" {
		return a.internal
	}
	return a.Listen()
}

// ForwardAuth is the base of the forwardAuth middlewares' address:
// PANEL_INTERNAL_URL, else https://<adminDomain> (the configuration being
// built carries it), else Listen.
func (a *Address) ForwardAuth(adminDomain string) string {
	switch {
	case a != nil && a.internal != "":
		return a.internal
	case adminDomain != "":
		return "https://" + adminDomain
	}
	return a.Listen()
}

// Provider is the URL Traefik's HTTP provider polls the configuration at
// (the static configuration managed mode writes, the snippet the status
// page shows): Internal, assuming the default listen address until the
// server listens.
func (a *Address) Provider() string {
	if u := a.Internal(); u != "" {
		return u
	}
	return "http://" + defaultListen
}

// Public is where browsers reach the panel to sign in: PANEL_PUBLIC_URL,
// else https://<admin domain>, else PANEL_INTERNAL_URL, else the bound
// address as it is; "" when none is known yet.
func (a *Address) Public(ctx context.Context) (string, error) {
	if a == nil {
		return "", nil
	}
	if a.public != "" {
		return a.public, nil
	}
	if a.adminDomain != nil {
		d, err := a.adminDomain(ctx)
		if err != nil {
			return "", err
		}
		if d != "" {
			return "https://" + d, nil
		}
	}
	if a.internal != "" {
		return a.internal, nil
	}
	if p := a.bound.Load(); p != nil {
		return "http://" + *p, nil
	}
	return "", nil
}

// PublicSetting is PANEL_PUBLIC_URL as configured, never derived: the
// passkeys' relying party is bound into every credential, so it must not
// change when the admin domain does.
func (a *Address) PublicSetting() string {
	if a == nil {
		return ""
	}
	return a.public
}

// PortalURL is the sign-in portal's address as browsers use it: override
// (PANEL_PORTAL_URL) when its host is the portal's host, else
// https://<host>; "" when there is no portal host.
func PortalURL(override, host string) string {
	if host == "" {
		return ""
	}
	if u, err := url.Parse(override); err == nil && override != "" && strings.EqualFold(u.Hostname(), host) {
		return u.Scheme + "://" + u.Host
	}
	return "https://" + host
}

// InternalSetting is PANEL_INTERNAL_URL as configured, "" when unset: the
// setup guide says whether to set it.
func (a *Address) InternalSetting() string {
	if a == nil {
		return ""
	}
	return a.internal
}

// Bound is the address the panel's listener is bound to as it was bound
// ("0.0.0.0:8080", "127.0.0.1:8080"), "" before it binds.
func (a *Address) Bound() string {
	if a == nil {
		return ""
	}
	if p := a.bound.Load(); p != nil {
		return *p
	}
	return ""
}
