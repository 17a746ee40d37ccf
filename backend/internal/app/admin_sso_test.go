package app

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// `gatehouse admin local-passwords on` is the way back in when the panel's
// sign-in is SSO only and the provider fails; the running panel follows at
// once.
func TestAdminLocalPasswordsCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"PANEL_DATA_DIR": dir}
	a := newTestApp(t, env)
	a.signIn()
	// As the settings page leaves it once passwords are off.
	if err := store.PutConfig(t.Context(), a.c.db, store.KeyAdminSSO, map[string]any{
		"enabled": true, "localPasswords": false,
		"rules": []map[string]string{{"claim": "group", "value": "ops", "role": "admin"}},
	}); err != nil {
		t.Fatal(err)
	}
	login := func() int {
		return a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`, "RemoteAddr", owner).Code
	}
	if code := login(); code != http.StatusForbidden {
		t.Fatalf("password sign-in while passwords are off: %d", code)
	}
	if rec := a.do("GET", "/api/system", ""); !strings.Contains(rec.Body.String(), `"localPasswords":false`) {
		t.Fatalf("system: %s", rec.Body)
	}

	for _, args := range [][]string{{"admin", "local-passwords"}, {"admin", "local-passwords", "off"}} {
		var out, errOut bytes.Buffer
		if code := Run(context.Background(), Options{Args: args, Getenv: func(k string) string { return env[k] }, Stdout: &out, Stderr: &errOut}); code != 1 ||
			!strings.Contains(errOut.String(), "usage: gatehouse admin local-passwords on") {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	code := Run(context.Background(), Options{Args: []string{"admin", "local-passwords", "on"},
		Getenv: func(k string) string { return env[k] }, Stdout: &out, Stderr: &errOut})
	if code != 0 || !strings.Contains(out.String(), "passwords again") {
		t.Fatalf("local-passwords on: exit %d, %q %q", code, out.String(), errOut.String())
	}
	if code := login(); code != http.StatusOK {
		t.Fatalf("password sign-in after local-passwords on: %d", code)
	}
	cliActions(t, a, "update")
}

// cliActions checks the audit log holds exactly these actions by the
// command line, oldest first.
func cliActions(t *testing.T, a *testApp, want ...string) {
	t.Helper()
	var got []string
	if err := a.c.db.Raw("SELECT action FROM audit_entries WHERE actor_kind = 'system' AND actor_name = 'cli' ORDER BY seq").
		Scan(&got).Error; err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("audit entries by the command line = %v; want %v", got, want)
	}
}
