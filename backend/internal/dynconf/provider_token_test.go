package dynconf

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
)

const providerToken = "c2VjcmV0LXByb3ZpZGVyLXRva2VuLTAxMjM0NTY3ODk=" //nolint:gosec // the test's made-up token

// TestProviderTokenGuardsConfig: with a provider token set, GET
// /api/proxy/config answers 401 to every request without exactly that
// bearer token, reveals nothing and records no poll; the right token (and
// no token at all when none is set) gets the configuration.
func TestProviderTokenGuardsConfig(t *testing.T) {
	polls := 0
	v := newEnv(t, Deps{ProviderToken: providerToken, OnServe: func(string, string, int) { polls++ }})
	v.createService(t, "secret-app", "app.test", func(r *services.Request) {
		r.Headers = map[string]string{"X-Upstream-Key": "upstream-credential-value"}
	})
	refused := []struct {
		name string
		hdr  map[string]string
	}{
		{"no header", nil},
		{"empty bearer", map[string]string{"Authorization": "Bearer "}},
		{"wrong token", map[string]string{"Authorization": "Bearer wrong"}},
		{"token prefix", map[string]string{"Authorization": "Bearer " + providerToken[:20]}},
		{"token and more", map[string]string{"Authorization": "Bearer " + providerToken + "x"}},
		{"basic scheme", map[string]string{"Authorization": "Basic " + providerToken}},
		{"token alone", map[string]string{"Authorization": providerToken}},
		{"another header", map[string]string{"X-Provider-Token": providerToken}},
		{"with If-None-Match", map[string]string{"If-None-Match": "*"}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			rec := v.do(t, "/api/proxy/config", tt.hdr)
			if rec.Code != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401: %s", rec.Code, rec.Body)
			}
			var env httpx.ErrorEnvelope
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error.Code != "unauthenticated" {
				t.Fatalf("not the error envelope: %s", rec.Body)
			}
			if b := rec.Body.String(); strings.Contains(b, "upstream-credential-value") || strings.Contains(b, providerToken) ||
				rec.Header().Get("ETag") != "" {
				t.Fatalf("the refusal reveals something: %v %s", rec.Header(), b)
			}
		})
	}
	if polls != 0 {
		t.Fatalf("%d refused requests were recorded as polls", polls)
	}
	for _, auth := range []string{"Bearer " + providerToken, "bearer " + providerToken} {
		rec := v.do(t, "/api/proxy/config", map[string]string{"Authorization": auth})
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "upstream-credential-value") {
			t.Fatalf("%q: %d %s", auth[:7], rec.Code, rec.Body)
		}
	}
	if polls != 2 {
		t.Fatalf("%d polls recorded, want 2", polls)
	}
}

// TestNoProviderTokenKeepsConfigOpen: without a token the endpoint answers
// as it always did, whatever Authorization header comes along.
func TestNoProviderTokenKeepsConfigOpen(t *testing.T) {
	v := newEnv(t, Deps{})
	v.createService(t, "app", "app.test", nil)
	for _, hdr := range []map[string]string{nil, {"Authorization": "Bearer anything"}} {
		if rec := v.do(t, "/api/proxy/config", hdr); rec.Code != http.StatusOK {
			t.Fatalf("%v: %d %s", hdr, rec.Code, rec.Body)
		}
	}
}
