//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// An administrator signs in to the panel through the OpenID provider end
// to end: a browser with a cookie jar follows the panel's start, the real
// provider and the callback to the panel's page, signed in with the role
// the rules give; password sign-in is off meanwhile.
func TestAdminSignsInWithSSO(t *testing.T) {
	p := harness.StartPanel(t, nil)
	m := startProvider(t, p, "openid", "email", "profile", "groups")
	var settings struct {
		RedirectURL string `json:"redirectUrl"`
	}
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/admin/sso", map[string]any{
		"enabled": true, "createAdmins": true, "localPasswords": false,
		"rules": []map[string]string{{"claim": "group", "value": "engineering", "role": "admin"}}}, &settings)
	if settings.RedirectURL != p.URL+"/api/admin/sso/callback" {
		t.Fatalf("redirect URL %q", settings.RedirectURL)
	}

	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	// get follows redirects and returns the last answer's status, address and body.
	type page struct {
		code int
		url  *url.URL
		body string
	}
	get := func(path string) page {
		t.Helper()
		resp, err := browser.Get(p.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		b, _ := io.ReadAll(resp.Body)
		return page{resp.StatusCode, resp.Request.URL, string(b)}
	}

	if pg := get("/api/system"); !strings.Contains(pg.body, `"adminSso":true`) || !strings.Contains(pg.body, `"localPasswords":false`) {
		t.Fatalf("system: %s", pg.body)
	}
	login, err := browser.Post(p.URL+"/api/admin/login", "application/json",
		strings.NewReader(`{"username":"`+harness.AdminUser+`","password":"`+harness.AdminPassword+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = login.Body.Close()
	if login.StatusCode != http.StatusForbidden {
		t.Fatalf("password sign-in while passwords are off: %d", login.StatusCode)
	}

	// Start -> provider (signs in its default user, in "engineering") ->
	// callback -> the panel's page.
	if pg := get("/api/admin/sso/start"); pg.code != http.StatusOK || pg.url.String() != p.URL+"/" {
		t.Fatalf("after sign-in: %d at %s: %.200s", pg.code, pg.url, pg.body)
	}
	var me struct {
		User struct{ Username, Role string } `json:"user"`
	}
	if pg := get("/api/admin/me"); pg.code != http.StatusOK || json.Unmarshal([]byte(pg.body), &me) != nil ||
		me.User.Username != "jane.doe" || me.User.Role != "admin" {
		t.Fatalf("me: %d %s", pg.code, pg.body)
	}

	// The second sign-in of the same person is the same administrator.
	if pg := get("/api/admin/sso/start"); pg.url.Path != "/" {
		t.Fatalf("second sign-in ended at %s", pg.url)
	}
	var list struct {
		Items []any `json:"items"`
	}
	if pg := get("/api/admin/me/sessions"); pg.code != http.StatusOK || json.Unmarshal([]byte(pg.body), &list) != nil || len(list.Items) != 2 {
		t.Fatalf("sessions: %d %s", pg.code, pg.body)
	}

	// Someone the rules do not name is sent back to the login page.
	m.QueueUser(&mockoidc.MockUser{Subject: "stranger", PreferredUsername: "stranger", Groups: []string{"sales"}})
	stranger, _ := cookiejar.New(nil)
	browser.Jar = stranger
	if pg := get("/api/admin/sso/start"); pg.url.Path != "/login" || pg.url.Query().Get("error") != "sso_not_allowed" {
		t.Fatalf("stranger ended at %s", pg.url)
	}
}
