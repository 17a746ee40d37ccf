package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const testMetricsToken = "metrics-token-0123456789abcdef0123456789" //nolint:gosec // a test's token

// TestMetricsAccess: /metrics answers the internal network directly and a
// scraper with the token, and never the admin domain or the portal host,
// from loopback, through a proxy, or with the token.
func TestMetricsAccess(t *testing.T) {
	a := newTestApp(t, map[string]string{"PANEL_METRICS_TOKEN": testMetricsToken, "PANEL_ADMIN_DOMAIN": "panel.example.com"})
	a.signIn()
	portal := decode[map[string]any](t, a.do("GET", "/api/config/portal", ""))
	portal["host"] = "login.example.com"
	body, _ := json.Marshal(portal)
	if rec := a.do("PUT", "/api/config/portal", string(body)); rec.Code != http.StatusOK {
		t.Fatalf("portal host: %d %s", rec.Code, rec.Body)
	}
	a.cookie = ""
	bearer := "Bearer " + testMetricsToken
	cases := []struct {
		name    string
		headers []string
		want    int
	}{
		{"loopback directly", []string{"RemoteAddr", "127.0.0.1:5000"}, http.StatusOK},
		{"private network directly", []string{"RemoteAddr", "10.1.2.3:5000"}, http.StatusOK},
		{"public address", []string{"RemoteAddr", "203.0.113.9:5000"}, http.StatusUnauthorized},
		{"public address with the token", []string{"RemoteAddr", "203.0.113.9:5000", "Authorization", bearer}, http.StatusOK},
		{"wrong token from loopback", []string{"RemoteAddr", "127.0.0.1:5000", "Authorization", "Bearer nope"}, http.StatusUnauthorized},
		{"through a proxy from loopback", []string{"RemoteAddr", "127.0.0.1:5000", "X-Forwarded-For", "203.0.113.9"}, http.StatusUnauthorized},
		{"admin domain from loopback", []string{"RemoteAddr", "127.0.0.1:5000", "Host", "panel.example.com"}, http.StatusNotFound},
		{"admin domain with the token", []string{"RemoteAddr", "127.0.0.1:5000", "Host", "panel.example.com", "Authorization", bearer}, http.StatusNotFound},
		{"admin domain forwarded", []string{"RemoteAddr", "127.0.0.1:5000", "X-Forwarded-Host", "PANEL.example.com:443", "Authorization", bearer}, http.StatusNotFound},
		{"portal host from loopback", []string{"RemoteAddr", "127.0.0.1:5000", "Host", "login.example.com", "Authorization", bearer}, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.do("GET", "/metrics", "", tc.headers...)
			if rec.Code != tc.want {
				t.Fatalf("GET /metrics = %d, want %d: %s", rec.Code, tc.want, rec.Body)
			}
			if tc.want != http.StatusOK {
				decodeEnvelope(t, rec)
				if strings.Contains(rec.Body.String(), "go_goroutines") {
					t.Fatal("a refusal carried metrics")
				}
			}
		})
	}
	if rec := a.do("POST", "/metrics", "", "RemoteAddr", "127.0.0.1:5000"); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST /metrics = %d", rec.Code)
	}
}

// TestMetricsCount: what the panel did shows in the scrape (a configuration
// built and polled twice, the second time with its ETag; a sign-in and a
// failed one; database statements; the pool; Go and the process).
func TestMetricsCount(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	rec := a.do("GET", "/api/proxy/config", "", "RemoteAddr", "127.0.0.1:5000")
	if rec.Code != http.StatusOK {
		t.Fatalf("config: %d", rec.Code)
	}
	if rec := a.do("GET", "/api/proxy/config", "", "RemoteAddr", "127.0.0.1:5000", "If-None-Match", rec.Header().Get("ETag")); rec.Code != http.StatusNotModified {
		t.Fatalf("config with ETag: %d", rec.Code)
	}
	a.cookie = ""
	if rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password-here"}`); rec.Code != http.StatusUnauthorized {
		t.Fatalf("failed sign-in: %d", rec.Code)
	}
	if rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`); rec.Code != http.StatusOK {
		t.Fatalf("sign-in: %d %s", rec.Code, rec.Body)
	}
	rec = a.do("GET", "/metrics", "", "RemoteAddr", "127.0.0.1:5000")
	if rec.Code != http.StatusOK {
		t.Fatalf("metrics: %d", rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{
		"gatehouse_config_builds_total 1",
		"gatehouse_traefik_polls_total 2",
		"gatehouse_traefik_poll_etag_hits_total 1",
		`gatehouse_sign_ins_total{outcome="failure",where="panel"} 1`,
		`gatehouse_sign_ins_total{outcome="success",where="panel"} 2`, // setup, then the sign-in
		`gatehouse_db_query_duration_seconds_count{operation="query"}`,
		`go_sql_open_connections{db_name="gatehouse"}`,
		"gatehouse_cluster_leader 0",
		"gatehouse_cluster_replicas 1",
		`gatehouse_build_info{version=`,
		"go_goroutines", "process_resident_memory_bytes",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the scrape lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(body)
	}
}
