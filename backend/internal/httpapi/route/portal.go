package route

import (
	"context"
	"strings"
)

type portalKey struct{}

// WithPortal marks ctx as a request made on the sign-in portal's host. The
// API's host check (package httpapi) sets it; the sign-in routes read it
// to open a portal session rather than a panel one.
func WithPortal(ctx context.Context) context.Context {
	return context.WithValue(ctx, portalKey{}, true)
}

// OnPortal reports whether ctx is a request made on the portal's host.
func OnPortal(ctx context.Context) bool {
	ok, _ := ctx.Value(portalKey{}).(bool)
	return ok
}

// IsPortalHost reports whether the Host header value host (with or without
// a port) names portalHost. An empty portalHost names no host.
func IsPortalHost(host, portalHost string) bool {
	if portalHost == "" {
		return false
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	return strings.EqualFold(strings.TrimSuffix(host, "."), portalHost)
}
