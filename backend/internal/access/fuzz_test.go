package access

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzVerify feeds arbitrary forwarded headers, cookies, credentials and
// query strings to verify: it must never answer 5xx or panic.
func FuzzVerify(f *testing.F) {
	f.Add("service=x", "GET", "https", "app.example.com", "/?gh_link=abc", "gatehouse_session=abc", "Basic YTpi", "text/html")
	f.Add("service=%zz", "POST", "http", "app.example.com:8080", "/a?gh_exchange=%", "gatehouse_session=\"", "Basic", "*/*")
	f.Add("", "", "", "", "", "", "", "")
	v := newEnv(f)
	basicID, _ := basicService(f, v, "app.example.com")
	linkID := linkService(f, v, "links.example.com")
	ssoID := v.service("sso.example.com")
	protect(f, v, ssoID, map[string]any{"type": "sso"})
	ids := []string{basicID, linkID, ssoID}
	f.Fuzz(func(t *testing.T, query, method, proto, host, uri, cookie, auth, accept string) {
		for _, id := range append(ids, "") {
			req := httptest.NewRequest(http.MethodGet, "/api/auth/verify", nil)
			req.URL.RawQuery = query
			if id != "" {
				req.URL.RawQuery = "service=" + id + "&" + query
			}
			req.Header["X-Forwarded-Method"] = []string{method}
			req.Header["X-Forwarded-Proto"] = []string{proto}
			req.Header["X-Forwarded-Host"] = []string{host}
			req.Header["X-Forwarded-Uri"] = []string{uri}
			req.Header["Cookie"] = []string{cookie}
			req.Header["Authorization"] = []string{auth}
			req.Header["Accept"] = []string{accept}
			rec := httptest.NewRecorder()
			v.h.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("status %d for %q %q %q %q %q: %s", rec.Code, method, proto, host, uri, query, rec.Body.String())
			}
		}
	})
}
