package forwardauth

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// linkSession opens a shared-link session and returns its cookie value.
func linkSession(t *testing.T, v *env, id, host string, body map[string]any) string {
	t.Helper()
	_, uri := newLink(t, v, id, body)
	ck := sessionCookie(t, v.verify(press(id, host, uri)))
	if ck == nil {
		t.Fatal("no session cookie")
	}
	return ck.Value
}

func TestSessionNeverOutlivesService(t *testing.T) {
	v := newEnv(t)
	req := servicesRequest("app.example.com", []string{"websecure"})
	req.Expiry = &services.Expiry{Type: store.ExpiryDuration, Seconds: 600}
	r, err := v.svcs.Create(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	protect(t, v, r.ID, map[string]any{"type": "shared_links"})
	token := linkSession(t, v, r.ID, "app.example.com", map[string]any{"sessionSeconds": 86400})
	var list httpx.List[SessionResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &list)
	if len(list.Items) != 1 || !list.Items[0].ExpiresAt.Equal(*r.ExpiresAt) {
		t.Fatalf("session expiry %v, service expiry %v", list.Items[0].ExpiresAt, r.ExpiresAt)
	}
	v.clock.Add(11 * time.Minute)
	if rec := v.verify(fwd{service: r.ID, host: "app.example.com", cookie: token}); rec.Code == 200 {
		t.Fatal("session outlived its service")
	}
}

func TestSessionsEndWithTheirService(t *testing.T) {
	tests := []struct {
		name string
		end  func(t *testing.T, v *env, id string)
	}{
		{"service disabled", func(t *testing.T, v *env, id string) {
			r, _ := v.svcs.Get(t.Context(), id)
			req := toRequest(r)
			off := false
			req.Enabled = &off
			if _, err := v.svcs.Update(t.Context(), id, req); err != nil {
				t.Fatal(err)
			}
			on := true
			req.Enabled = &on
			if _, err := v.svcs.Update(t.Context(), id, req); err != nil {
				t.Fatal(err)
			}
		}},
		{"service deleted", func(t *testing.T, v *env, id string) {
			if err := v.svcs.Delete(t.Context(), id); err != nil {
				t.Fatal(err)
			}
		}},
		{"protection removed", func(t *testing.T, v *env, id string) {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/security-configs/shared_links", nil, nil)
			protect(t, v, id, map[string]any{"type": "shared_links"})
		}},
		{"protection disabled", func(t *testing.T, v *env, id string) {
			protect(t, v, id, map[string]any{"type": "shared_links", "enabled": false})
			protect(t, v, id, map[string]any{"type": "shared_links", "enabled": true})
		}},
		{"all sessions deleted", func(_ *testing.T, v *env, _ string) {
			v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions", nil, nil)
		}},
		{"session deleted", func(_ *testing.T, v *env, id string) {
			var list httpx.List[SessionResponse]
			v.must(http.StatusOK, http.MethodGet, "/api/sessions?serviceId="+url.QueryEscape(id), nil, &list)
			v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions/"+list.Items[0].ID, nil, nil)
			v.must(http.StatusNotFound, http.MethodDelete, "/api/sessions/"+list.Items[0].ID, nil, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			id := linkService(t, v, "app.example.com")
			token := linkSession(t, v, id, "app.example.com", nil)
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code != 200 {
				t.Fatalf("before: %d", rec.Code)
			}
			tt.end(t, v, id)
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code == 200 {
				t.Fatalf("session survived")
			}
		})
	}
}

func TestSessionSweepAndTouch(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	token := linkSession(t, v, id, "app.example.com", map[string]any{"sessionSeconds": 120})
	sess, err := v.acc.sessions.lookup(t.Context(), token)
	if err != nil || sess == nil {
		t.Fatalf("lookup: %v %v", sess, err)
	}
	v.clock.Add(90 * time.Second)
	v.verify(fwd{service: id, host: "app.example.com", cookie: token})
	select {
	case got := <-v.acc.sessions.touches:
		if got != sess.id {
			t.Fatalf("touched %q", got)
		}
	default:
		t.Fatal("activity after a minute was not queued for a last-seen write")
	}
	v.verify(fwd{service: id, host: "app.example.com", cookie: token})
	if len(v.acc.sessions.touches) != 0 {
		t.Fatal("touched twice within a minute")
	}
	v.clock.Add(time.Minute)
	if err := v.acc.sessions.sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	var n int64
	v.db.Model(&store.Session{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d sessions left after sweep", n)
	}
}

func TestSecurityConfigAPI(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	v.must(http.StatusUnprocessableEntity, http.MethodPost, "/api/services/"+id+"/security-configs", map[string]any{"type": "magic"}, nil)
	v.must(http.StatusUnprocessableEntity, http.MethodPost, "/api/services/"+id+"/security-configs", map[string]any{"type": "basic_auth"}, nil)
	v.must(http.StatusUnprocessableEntity, http.MethodPost, "/api/services/"+id+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": "nope"}, nil)
	v.must(http.StatusNotFound, http.MethodPost, "/api/services/nope/security-configs", map[string]any{"type": "sso"}, nil)
	protect(t, v, id, map[string]any{"type": "sso", "users": []string{" alice ", "alice"}})
	var list httpx.List[SecurityConfigResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/security-configs", nil, &list)
	if len(list.Items) != 1 || list.Items[0].Users == nil || len(*list.Items[0].Users) != 1 || !list.Items[0].Enabled {
		t.Fatalf("list: %+v", list.Items)
	}
	v.must(http.StatusNotFound, http.MethodDelete, "/api/services/"+id+"/security-configs/basic_auth", nil, nil)
	v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/security-configs/sso", nil, nil)
}

func TestCredentialSetAPI(t *testing.T) {
	v := newEnv(t)
	var set CredentialSetResponse
	v.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "team",
		"users": []map[string]string{{"username": "bob", "password": "password-1"}}}, &set)
	rec := v.do(http.MethodGet, "/api/credential-sets/"+set.ID, nil, nil)
	if contains(rec.Body.String(), "password") || contains(rec.Body.String(), "$2a$") {
		t.Fatalf("secret in GET: %s", rec.Body.String())
	}
	tests := []struct {
		name   string
		method string
		path   string
		body   map[string]any
		want   int
	}{
		{"duplicate name", http.MethodPost, "/api/credential-sets", map[string]any{"name": "team"}, 409},
		{"colon in username", http.MethodPost, "/api/credential-sets", map[string]any{"name": "x",
			"users": []map[string]string{{"username": "a:b", "password": "password-1"}}}, 422},
		{"new user without password", http.MethodPut, "/api/credential-sets/" + set.ID, map[string]any{"name": "team",
			"users": []map[string]string{{"username": "carol"}}}, 422},
		{"short password", http.MethodPost, "/api/credential-sets", map[string]any{"name": "y",
			"users": []map[string]string{{"username": "a", "password": "short"}}}, 422},
		{"existing user keeps hash", http.MethodPut, "/api/credential-sets/" + set.ID, map[string]any{"name": "team",
			"users": []map[string]string{{"username": "bob"}}}, 200},
		{"unknown set", http.MethodPut, "/api/credential-sets/nope", map[string]any{"name": "z"}, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(*testing.T) { v.must(tt.want, tt.method, tt.path, tt.body, nil) })
	}
	// bob's password survived the PUT without one.
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	if rec := v.verify(fwd{service: id, host: "app.example.com", auth: basic("bob", "password-1")}); rec.Code != 200 {
		t.Fatalf("kept password: %d", rec.Code)
	}
	_ = httptest.NewRecorder
}

// A cookie for a session that was ended (or never existed) is answered from
// memory after the first miss: a browser that keeps sending it must not cost
// a query per request. A session ended by the admin stays ended.
func TestStaleCookieIsCachedAsMissing(t *testing.T) {
	v := newEnv(t)
	id := v.service("app.example.com")
	protect(t, v, id, map[string]any{"type": "shared_links"})
	token := linkSession(t, v, id, "app.example.com", nil)
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: token}); rec.Code != 200 {
		t.Fatalf("live session: %d", rec.Code)
	}
	v.must(http.StatusNoContent, http.MethodDelete, "/api/sessions", nil, nil)

	for _, ck := range []string{token, "never-issued-token"} {
		if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck}); rec.Code != 401 {
			t.Fatalf("ended or unknown session %q: %d", ck, rec.Code)
		}
		v.queries.Store(0)
		for range 5 {
			if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck}); rec.Code != 401 {
				t.Fatalf("repeat %q: %d", ck, rec.Code)
			}
		}
		if n := v.queries.Load(); n != 0 {
			t.Fatalf("stale cookie %q ran %d queries on repeat, want 0", ck, n)
		}
	}
}
