package forwardauth

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// Query parameters the panel adds to a service URL and verify consumes.
const (
	LinkParam     = "gh_link"     // one-use shared-link token
	ExchangeParam = "gh_exchange" // one-time token that ends the sign-in hop
	PinParam      = "gh_pin"      // a shared link's PIN or password, from its page's form
)

// fwdRequest is what Traefik's forwardAuth tells verify about the original request.
type fwdRequest struct {
	serviceID            string
	method, proto, host  string
	uri                  string // path and query, as the client sent it
	browser              bool
	token                string // session cookie
	authorization        string
	addr                 netip.Addr // the client; the zero Addr when unknown
	linkToken, exchToken string
	pin                  string // a shared link's PIN or password (PinParam)
	header               http.Header
}

// ipKey names the client in rate limits and logs ("unknown" when Traefik's
// X-Forwarded-For could not be read).
func (f *fwdRequest) ipKey() string {
	if !f.addr.IsValid() {
		return "unknown"
	}
	return f.addr.String()
}

// parseForwarded reads a verify request. ok is false when a forwarded header
// is missing or malformed; it never fails otherwise, whatever the input.
func parseForwarded(r *http.Request, trusted []netip.Prefix) (f fwdRequest, ok bool) {
	h := r.Header
	f.serviceID = queryValue(r.URL.RawQuery, contract.ServiceParam)
	f.method = first(h["X-Forwarded-Method"])
	f.proto = strings.ToLower(first(h["X-Forwarded-Proto"]))
	f.host = first(h["X-Forwarded-Host"])
	f.uri = first(h["X-Forwarded-Uri"])
	if f.serviceID == "" || !validMethod(f.method) || (f.proto != "http" && f.proto != "https") ||
		!validHost(f.host) || !validURI(f.uri) {
		return f, false
	}
	accept := first(h["Accept"])
	f.browser = strings.Contains(accept, "text/html") && !strings.EqualFold(first(h["X-Requested-With"]), "XMLHttpRequest")
	f.token = cookieValue(h["Cookie"], contract.SessionCookie)
	f.authorization = first(h["Authorization"])
	f.addr = rules.ClientAddr(h["X-Forwarded-For"], r.RemoteAddr, trusted)
	f.header = h
	if i := strings.IndexByte(f.uri, '?'); i >= 0 && strings.Contains(f.uri[i:], "gh_") {
		q := f.uri[i+1:]
		f.linkToken = queryValue(q, LinkParam)
		f.exchToken = queryValue(q, ExchangeParam)
		if f.linkToken != "" {
			f.pin = queryValue(q, PinParam)
		}
	}
	return f, true
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func validMethod(m string) bool {
	if m == "" || len(m) > 32 {
		return false
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

func validHost(h string) bool {
	if h == "" || len(h) > 300 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`/\@?#%"'<>`, c) >= 0 {
			return false
		}
	}
	return true
}

func validURI(u string) bool {
	if u == "" || u[0] != '/' || len(u) > 16384 {
		return false
	}
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// queryValue returns the first value of key in a raw query string without
// building a url.Values (verify runs on every proxied request).
func queryValue(raw, key string) string {
	for raw != "" {
		var part string
		part, raw, _ = strings.Cut(raw, "&")
		k, v, _ := strings.Cut(part, "=")
		if k != key {
			continue
		}
		if strings.ContainsAny(v, "%+") {
			u, err := url.QueryUnescape(v)
			if err != nil {
				return ""
			}
			return u
		}
		return v
	}
	return ""
}

// withoutParams removes the panel's token parameters from a request URI.
func withoutParams(uri string) string {
	path, q, ok := strings.Cut(uri, "?")
	if !ok {
		return uri
	}
	var kept []string
	for _, part := range strings.Split(q, "&") {
		k, _, _ := strings.Cut(part, "=")
		if k == LinkParam || k == ExchangeParam || k == PinParam || part == "" {
			continue
		}
		kept = append(kept, part)
	}
	if len(kept) == 0 {
		return path
	}
	return path + "?" + strings.Join(kept, "&")
}

// cookieValue finds one cookie in Cookie headers without parsing the others.
func cookieValue(headers []string, name string) string {
	for _, h := range headers {
		for h != "" {
			var part string
			part, h, _ = strings.Cut(h, ";")
			part = strings.TrimSpace(part)
			if len(part) > len(name) && part[len(name)] == '=' && part[:len(name)] == name {
				return strings.Trim(part[len(name)+1:], `"`)
			}
		}
	}
	return ""
}

// redirectStatus is 302 for safe methods and 303 for the rest, so a browser
// that POSTed follows up with a GET.
func redirectStatus(method string) int {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return http.StatusFound
	}
	return http.StatusSeeOther
}
