package forwardauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
)

// TestRulesNormalisedReadings: through verify, a deny rule refuses the
// readings Windows, IIS, Java and C upstreams normalise, an allow rule
// opens none of them, and a URI past verify's limit is refused whole.
func TestRulesNormalisedReadings(t *testing.T) {
	r := newRuleEnv(t)
	id := r.service("app.example.com")
	protect(t, r.env, id, map[string]any{"type": "shared_links"})
	r.setRules(id, "",
		rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}},
		rules.Rule{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/public"}}})
	hostile := "/public/" + strings.Repeat(`%c0%ae%EF%BC%8F.;x:\%252e%u002e `, 16384/32)
	for _, tt := range []struct {
		uri  string
		want int
	}{
		{"/public/app.css", http.StatusOK},
		{"/public/file.", http.StatusOK},
		{"/admin.", http.StatusForbidden},
		{"/admin%20", http.StatusForbidden},
		{"/admin%2e", http.StatusForbidden},
		{"/admin%00.jpg", http.StatusForbidden},
		{"/admin::$DATA", http.StatusForbidden},
		{"/%EF%BD%81dmin", http.StatusForbidden},
		{"/x\uff0f..\uff0fadmin", http.StatusForbidden},
		{"/x%E2%88%95..%E2%88%95admin", http.StatusForbidden},
		{"/%u0061dmin", http.StatusForbidden},
		{"/public/%c0%ae%c0%ae/admin", http.StatusForbidden},
		{"/public/%c0%ae%c0%ae/secret", http.StatusUnauthorized},
		{"/public/%EF%BC%8E%EF%BC%8E/secret", http.StatusUnauthorized},
		{"/public/..%20/secret", http.StatusUnauthorized},
		{"/public/..::$DATA/secret", http.StatusUnauthorized},
		{hostile[:16384], http.StatusForbidden}, // too many readings: every deny path condition matches
		{"/public/" + strings.Repeat("a", 16384), http.StatusBadRequest},
	} {
		rec := r.verify(fwd{service: id, host: "app.example.com", uri: tt.uri, ip: "203.0.113.9"})
		if rec.Code != tt.want {
			t.Errorf("%.60q: %d, want %d", tt.uri, rec.Code, tt.want)
		}
		if rec.Code == http.StatusBadRequest && !strings.Contains(rec.Body.String(), `"code":"invalid_request"`) {
			t.Errorf("%.60q: 400 without the envelope: %s", tt.uri, rec.Body.String())
		}
	}
}
