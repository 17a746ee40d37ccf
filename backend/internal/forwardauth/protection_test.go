package forwardauth

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func basicAuthHeader(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func TestProtectionGetAndPut(t *testing.T) {
	v := newEnv(t)
	id, set := basicService(t, v, "app.example.com")
	path := "/api/services/" + id + "/protection"

	var got Protection
	v.must(http.StatusOK, http.MethodGet, path, nil, &got)
	if !got.BasicAuth.Enabled || got.BasicAuth.CredentialSetID != set || got.SSO.Enabled || got.SharedLinks.Enabled || got.Tokens.Enabled {
		t.Fatalf("get: %+v", got)
	}
	// One save turns three protections on.
	v.must(http.StatusOK, http.MethodPut, path, map[string]any{
		"basicAuth":   map[string]any{"enabled": true, "credentialSetId": set},
		"sso":         map[string]any{"enabled": false, "users": []string{}, "groups": []string{}},
		"sharedLinks": map[string]any{"enabled": true},
		"tokens":      map[string]any{"enabled": true, "header": "x-api-key"},
	}, &got)
	if !got.SharedLinks.Enabled || !got.Tokens.Enabled || got.Tokens.Header != "X-Api-Key" || !got.BasicAuth.Enabled {
		t.Fatalf("put: %+v", got)
	}
	var list httpx.List[SecurityConfigResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/security-configs", nil, &list)
	if len(list.Items) != 3 { // sso off and never set: no row
		t.Fatalf("security-configs: %+v", list.Items)
	}
	// Basic auth still admits its credential set.
	if rec := v.verify(fwd{service: id, host: "app.example.com", auth: basicAuthHeader("alice", "correct horse")}); rec.Code != http.StatusOK {
		t.Fatalf("basic auth after save: %d", rec.Code)
	}
	// A section left out is left as it is; off with no set keeps the set.
	v.must(http.StatusOK, http.MethodPut, path, map[string]any{"basicAuth": map[string]any{"enabled": false}}, &got)
	if got.BasicAuth.Enabled || got.BasicAuth.CredentialSetID != set || !got.Tokens.Enabled {
		t.Fatalf("partial put: %+v", got)
	}
}

// TestProtectionAllOrNothing: one bad field anywhere saves nothing, and
// the error names it by its path in the document.
func TestProtectionAllOrNothing(t *testing.T) {
	v := newEnv(t)
	id, set := basicService(t, v, "app.example.com")
	path := "/api/services/" + id + "/protection"
	tests := []struct {
		name  string
		body  map[string]any
		field string
		code  int
	}{
		{"set missing", map[string]any{"sharedLinks": map[string]any{"enabled": true},
			"basicAuth": map[string]any{"enabled": true, "credentialSetId": ""}}, "basicAuth.credentialSetId", 422},
		{"unknown set", map[string]any{"sharedLinks": map[string]any{"enabled": true},
			"basicAuth": map[string]any{"enabled": true, "credentialSetId": "nope"}}, "basicAuth.credentialSetId", 422},
		{"bad header", map[string]any{"sharedLinks": map[string]any{"enabled": true},
			"tokens": map[string]any{"enabled": true, "header": "Bad Header"}}, "tokens.header", 422},
		{"reserved header while off", map[string]any{"sharedLinks": map[string]any{"enabled": true},
			"tokens": map[string]any{"enabled": false, "header": "Cookie"}}, "tokens.header", 422},
		{"single sign-on is replaced", map[string]any{"sharedLinks": map[string]any{"enabled": true},
			"sso": map[string]any{"enabled": true, "users": []string{"alice"}}}, "sso.enabled", 422},
		{"oversized header", map[string]any{"tokens": map[string]any{"enabled": true, "header": string(make([]byte, 200))}}, "tokens.header", 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := v.do(http.MethodPut, path, tt.body, nil)
			if rec.Code != tt.code || !contains(rec.Body.String(), `"field":"`+tt.field+`"`) {
				t.Fatalf("%d %s", rec.Code, rec.Body.String())
			}
			var got Protection
			v.must(http.StatusOK, http.MethodGet, path, nil, &got)
			if got.SharedLinks.Enabled || got.Tokens.Enabled || got.SSO.Enabled || got.BasicAuth.CredentialSetID != set {
				t.Fatalf("saved part of a refused document: %+v", got)
			}
		})
	}
	v.must(http.StatusNotFound, http.MethodPut, "/api/services/nope/protection", map[string]any{}, nil)
	v.must(http.StatusNotFound, http.MethodGet, "/api/services/nope/protection", nil, nil)
	if rec := v.do(http.MethodPut, path, []int{1}, nil); rec.Code != http.StatusBadRequest {
		t.Fatalf("not an object: %d", rec.Code)
	}
}

// TestProtectionUnchangedKeepsSessions: saving the form after editing one
// section does not end the sessions of another.
func TestProtectionUnchangedKeepsSessions(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	_, uri := newLink(t, v, id, nil)
	ck := sessionCookie(t, v.verify(press(id, "app.example.com", uri)))
	if ck == nil {
		t.Fatal("no session")
	}
	path := "/api/services/" + id + "/protection"
	var got Protection
	v.must(http.StatusOK, http.MethodGet, path, nil, &got)
	got.SSO.Groups = []string{"family"} // an edit of a section that stays off
	got.Tokens.Header = ""
	v.must(http.StatusOK, http.MethodPut, path, got, &got)
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck.Value}); rec.Code != http.StatusOK {
		t.Fatalf("session after an unrelated save: %d", rec.Code)
	}
	if got.SSO.Enabled || len(got.SSO.Groups) != 1 { // kept while off
		t.Fatalf("sso: %+v", got.SSO)
	}
	// Turning a protection on ends them, as the single-protection route does.
	got.Tokens.Enabled = true
	v.must(http.StatusOK, http.MethodPut, path, got, &got)
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck.Value}); rec.Code == http.StatusOK {
		t.Fatalf("session after a change: %d", rec.Code)
	}
	var n int64
	v.db.Model(&store.Session{}).Where("service_id = ?", id).Count(&n)
	if n != 0 {
		t.Fatalf("%d sessions left", n)
	}
}

// Saving the form after switching providers saves the SSO lists again
// under the new issuer, even unchanged: their sub: entries name its subjects.
func TestProtectionSavesSSOListsUnderTheNewIssuer(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "sso", "users": []string{"sub:42"}})
	m := provider(t, v)
	path := "/api/services/" + id + "/protection"
	var got Protection
	v.must(http.StatusOK, http.MethodGet, path, nil, &got)
	v.must(http.StatusOK, http.MethodPut, path, got, nil)
	var row store.SecurityConfig
	if err := v.db.Where("service_id = ? AND type = ?", id, store.SecuritySSO).Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	if st := decodeSSOSettings(row.Settings.V); st.Issuer != m.Config().Issuer || len(st.Users) != 1 {
		t.Fatalf("settings after the save: %+v", st)
	}
}

func TestProtectionEmailCodeSection(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	path := "/api/services/" + id + "/protection"
	var got Protection
	v.must(http.StatusOK, http.MethodGet, path, nil, &got)
	if got.EmailCode == nil || got.EmailCode.Enabled || got.EmailCode.SessionSeconds != DefaultEmailSessionSeconds {
		t.Fatalf("default: %+v", got.EmailCode)
	}
	got.EmailCode = &EmailCodeProtection{Enabled: true, AllowedEmails: []string{"Ann@Example.com", "family.example"}, SessionSeconds: 7 * 24 * 3600}
	v.must(http.StatusOK, http.MethodPut, path, got, &got)
	if !got.EmailCode.Enabled || len(got.EmailCode.AllowedEmails) != 2 || got.EmailCode.SessionSeconds != 7*24*3600 {
		t.Fatalf("saved: %+v", got.EmailCode)
	}
	rec := v.do(http.MethodPut, path, map[string]any{"sharedLinks": map[string]any{"enabled": true},
		"emailCode": map[string]any{"enabled": true, "allowedEmails": []string{"ann@example.com", "not an address"}}}, nil)
	if rec.Code != http.StatusUnprocessableEntity || !contains(rec.Body.String(), `"field":"emailCode.allowedEmails[1]"`) {
		t.Fatalf("bad entry: %d %s", rec.Code, rec.Body.String())
	}
	v.must(http.StatusOK, http.MethodGet, path, nil, &got)
	if got.SharedLinks.Enabled {
		t.Fatal("saved part of a refused document")
	}
}
