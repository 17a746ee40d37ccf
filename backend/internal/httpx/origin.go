package httpx

import (
	"net"
	"net/http"
	"strings"
)

// ViaPublicDomain reports whether r came through the proxy on the panel's
// public admin domain: its Host, or any X-Forwarded-Host value, names that
// domain (any port, any case, with or without a trailing dot). An empty
// domain matches nothing.
func ViaPublicDomain(r *http.Request, domain string) bool {
	if domain == "" {
		return false
	}
	hosts := []string{r.Host}
	for _, v := range r.Header.Values("X-Forwarded-Host") {
		hosts = append(hosts, strings.Split(v, ",")...)
	}
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		if host, _, err := net.SplitHostPort(h); err == nil {
			h = host
		}
		if strings.EqualFold(strings.TrimSuffix(h, "."), domain) {
			return true
		}
	}
	return false
}
