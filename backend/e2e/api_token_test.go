//go:build e2e

package e2e

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// An API token works from curl as a script would use it: a Bearer header,
// no cookie, no Origin. An admin token writes; a viewer token reads and is
// refused a write; a revoked token is refused.
func TestAPITokenWithCurl(t *testing.T) {
	curlPath, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	p := harness.StartPanel(t, nil)
	type created struct {
		Token struct {
			ID string `json:"id"`
		} `json:"token"`
		Value string `json:"value"`
	}
	var admin, viewer created
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/admin/tokens", map[string]any{"name": "ci", "role": "admin"}, &admin)
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/admin/tokens", map[string]any{"name": "dash", "role": "viewer"}, &viewer)

	// curl answers "<status> <body>" for one request.
	curl := func(token, method, path, body string) (string, string) {
		t.Helper()
		args := []string{"-sS", "-o", "-", "-w", "\n%{http_code}", "-X", method, "-H", "Authorization: Bearer " + token}
		if body != "" {
			args = append(args, "-H", "Content-Type: application/json", "--data", body)
		}
		out, err := exec.Command(curlPath, append(args, p.URL+path)...).Output() //nolint:gosec // the test's own curl and panel
		if err != nil {
			t.Fatalf("curl %s %s: %v", method, path, err)
		}
		text := strings.TrimRight(string(out), "\n")
		i := strings.LastIndex(text, "\n")
		return text[i+1:], text[:max(i, 0)]
	}
	domain := `{"name":"Example","domain":"example.test"}`
	if code, body := curl(admin.Value, "POST", "/api/domains", domain); code != "201" {
		t.Fatalf("admin token POST /api/domains = %s %s", code, body)
	}
	if code, body := curl(viewer.Value, "GET", "/api/domains", ""); code != "200" || !strings.Contains(body, "example.test") {
		t.Fatalf("viewer token GET /api/domains = %s %s", code, body)
	}
	if code, body := curl(viewer.Value, "POST", "/api/domains", `{"name":"Other","domain":"other.test"}`); code != "403" ||
		!strings.Contains(body, "read-only") {
		t.Fatalf("viewer token POST /api/domains = %s %s", code, body)
	}
	p.MustJSON(t, http.StatusNoContent, http.MethodDelete, "/api/admin/tokens/"+admin.Token.ID, nil, nil)
	if code, body := curl(admin.Value, "GET", "/api/domains", ""); code != "401" {
		t.Fatalf("revoked token GET /api/domains = %s %s", code, body)
	}
}
