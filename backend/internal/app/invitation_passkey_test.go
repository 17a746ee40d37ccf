package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// An invited person registers a passkey instead of a password (the same
// registration code administrators use) and then signs in with it alone.
func TestInvitationWithPasskey(t *testing.T) {
	const origin = "https://panel.example.com"
	a := newTestApp(t, map[string]string{"PANEL_PUBLIC_URL": origin})
	a.signIn()
	rec := a.do("POST", "/api/invitations", `{"username":"bea","panelRole":"viewer"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("invite = %d %s", rec.Code, rec.Body)
	}
	tok := tokenIn(t, decode[struct{ Link string }](t, rec).Link)
	a.cookie = ""
	rec = a.do("POST", "/api/invitations/passkey", `{"token":"`+tok+`"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("begin = %d %s", rec.Code, rec.Body)
	}
	begin := decode[struct {
		Options   json.RawMessage
		Challenge string
	}](t, rec)
	key := testutil.NewAuthenticator(t, origin)
	body, _ := json.Marshal(map[string]any{"token": tok, "passkey": map[string]any{
		"challenge": begin.Challenge, "name": "Phone", "credential": key.Create(begin.Options)}})
	if rec := a.do("POST", "/api/invitations/accept", string(body)); rec.Code != http.StatusOK {
		t.Fatalf("accept = %d %s", rec.Code, rec.Body)
	}
	var p store.Person
	if err := a.c.db.Where("username = ?", "bea").Take(&p).Error; err != nil || p.DisabledAt != nil || p.PasswordHash != "" {
		t.Fatalf("bea = %+v, %v; want enabled, without a password", p, err)
	}
	// The passkey alone signs bea in.
	rec = a.do("POST", "/api/admin/login/passkey/begin", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("login begin = %d %s", rec.Code, rec.Body)
	}
	var cookies []string
	for _, c := range rec.Result().Cookies() {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	body, _ = json.Marshal(map[string]any{"credential": key.Get(rec.Body.Bytes())})
	rec = a.do("POST", "/api/admin/login/passkey/finish", string(body), "Cookie", strings.Join(cookies, "; "))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"username":"bea"`) {
		t.Fatalf("passkey sign-in = %d %s", rec.Code, rec.Body)
	}
	// A passkey answer for a used invitation is refused.
	if rec := a.do("POST", "/api/invitations/passkey", `{"token":"`+tok+`"}`); rec.Code != http.StatusNotFound {
		t.Fatalf("begin after use = %d", rec.Code)
	}
}
