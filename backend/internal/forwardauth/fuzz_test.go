package forwardauth

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// FuzzVerify feeds arbitrary forwarded headers, cookies, credentials and
// query strings to verify: it must never answer 5xx or panic.
func FuzzVerify(f *testing.F) {
	f.Add("service=x", "GET", "https", "app.example.com", "/?gh_link=abc", "gatehouse_session=abc", "Basic YTpi", "text/html", "10.0.0.1")
	f.Add("service=%zz", "POST", "http", "app.example.com:8080", "/a?gh_exchange=%", "gatehouse_session=\"", "Basic", "*/*", "1.2.3.4, ::1")
	f.Add("service=x", "GET", "https", "links.example.com", "/?gh_link=abc&gh_pin=1234", "", "", "text/html", "10.0.0.1")
	f.Add("", "", "", "", "", "", "", "", "")
	f.Add("", "PROPFIND", "https", "rules.example.com", "/public/%2e%2e/admin", "", "Bearer ght_x", "", "[::1]:80")
	r := newRuleEnv(f, "10.0.0.0/8")
	v := r.env
	basicID, _ := basicService(f, v, "app.example.com")
	linkID := linkService(f, v, "links.example.com")
	ssoID := v.service("sso.example.com")
	protect(f, v, ssoID, map[string]any{"type": "sso"})
	rulesID := v.service("rules.example.com")
	protect(f, v, rulesID, map[string]any{"type": "tokens", "header": "X-Api-Key"})
	r.setRules(rulesID, rules.Deny,
		rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}},
		rules.Rule{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "glob", Value: "/public/**"}}, Sources: []string{"private"}},
		rules.Rule{Action: rules.Authenticate, Paths: []rules.PathMatch{{Type: "regex", Value: "/dav/.*"}}, Methods: []string{"PROPFIND"}},
		rules.Rule{Action: rules.Allow, Headers: []rules.HeaderMatch{{Name: "Accept", Match: "contains", Value: "json"}}})
	ids := []string{basicID, linkID, ssoID, rulesID}
	f.Fuzz(func(t *testing.T, query, method, proto, host, uri, cookie, auth, accept, xff string) {
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
			req.Header["X-Forwarded-For"] = []string{xff}
			req.Header["X-Api-Key"] = []string{auth}
			rec := httptest.NewRecorder()
			v.h.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("status %d for %q %q %q %q %q: %s", rec.Code, method, proto, host, uri, query, rec.Body.String())
			}
		}
	})
}

// FuzzPinFormTarget: any request URI splits into a path and at most 32
// hidden fields, none of them the answer, without panicking.
func FuzzPinFormTarget(f *testing.F) {
	f.Add("/?gh_link=abc&gh_pin=1")
	f.Add("/p?%zz=1&&=&a=%")
	f.Add("")
	f.Fuzz(func(t *testing.T, uri string) {
		_, hidden := pinFormTarget(uri)
		if len(hidden) > 32 {
			t.Fatalf("%d hidden fields", len(hidden))
		}
		for _, h := range hidden {
			if h.Name == PinParam {
				t.Fatal("the answer is carried again")
			}
		}
	})
}
