package metrics

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

func tokenSum(token string) []byte {
	if token == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// Front serves /metrics in front of next (the API and the UI), which
// answers every other path. /metrics answers:
//   - never on a public host (the admin domain, the portal host, the public
//     URL's host), whatever the credentials: 404, as if it did not exist;
//   - with PANEL_METRICS_TOKEN as a bearer token, from any address;
//   - without one, to a peer on PANEL_METRICS_ADDRESSES that reached the
//     panel directly: a request carrying forwarding headers came through a
//     proxy and is refused, as its peer's address is the proxy's.
func (m *Metrics) Front(next http.Handler) http.Handler {
	serve := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: nil, Timeout: 0})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			refuse(w, http.StatusMethodNotAllowed, "method_not_allowed", "metrics are read with GET")
			return
		}
		if code, msg := m.allowed(r); code != 0 {
			refuse(w, code, codeName(code), msg)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		serve.ServeHTTP(w, r)
	})
}

// allowed returns 0 when r may read the metrics, else the status and why.
func (m *Metrics) allowed(r *http.Request) (int, string) {
	if m.d.PublicHosts == nil {
		return http.StatusServiceUnavailable, "the public hosts are unknown"
	}
	ctx, cancel := context.WithTimeout(r.Context(), scrapeTimeout)
	defer cancel()
	hosts, err := m.d.PublicHosts(ctx)
	if err != nil {
		// Fail closed: without the list a public request could pass.
		m.log.Warn("metrics: read the public hosts", "err", err)
		return http.StatusServiceUnavailable, "the metrics are temporarily unavailable"
	}
	for _, h := range hosts {
		if httpx.ViaPublicDomain(r, h) {
			return http.StatusNotFound, "not found"
		}
	}
	if auth := r.Header.Get("Authorization"); auth != "" {
		if m.tokenOK(auth) {
			return 0, ""
		}
		return http.StatusUnauthorized, "the metrics token is wrong: send Authorization: Bearer <PANEL_METRICS_TOKEN>"
	}
	if !forwarded(r) && m.internalPeer(r.RemoteAddr) {
		return 0, ""
	}
	return http.StatusUnauthorized, "the metrics answer the internal network (PANEL_METRICS_ADDRESSES) directly, " +
		"or a scraper sending Authorization: Bearer <PANEL_METRICS_TOKEN>"
}

// tokenOK compares hashes, so the time taken says nothing of the token.
func (m *Metrics) tokenOK(auth string) bool {
	if m.tokenSum == nil {
		return false
	}
	scheme, token, _ := strings.Cut(auth, " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" || len(token) > 1024 {
		return false
	}
	got := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(got[:], m.tokenSum) == 1
}

func (m *Metrics) internalPeer(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range m.d.Addresses {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwarded reports whether a proxy (Traefik) carried the request.
func forwarded(r *http.Request) bool {
	for _, h := range []string{"X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Real-Ip", "Forwarded"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

func codeName(code int) string {
	switch code {
	case http.StatusNotFound:
		return "not_found"
	case http.StatusUnauthorized:
		return "unauthenticated"
	}
	return "internal"
}

// refuse writes the API's error envelope.
func refuse(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": msg}})
	_, _ = w.Write(append(body, '\n'))
}
