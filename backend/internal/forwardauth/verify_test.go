package forwardauth

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// basicService creates a service protected by a set holding alice.
func basicService(t testing.TB, v *env, host string) (serviceID, setID string) {
	t.Helper()
	id := v.service(host)
	var set CredentialSetResponse
	v.must(http.StatusCreated, http.MethodPost, "/api/credential-sets",
		map[string]any{"name": "team " + host, "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	protect(t, v, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	return id, set.ID
}

func TestVerifyRequestShape(t *testing.T) {
	v := newEnv(t)
	open := v.service("open.example.com")
	tests := []struct {
		name string
		mut  func(r *http.Request)
		want int
	}{
		{"complete", func(*http.Request) {}, 200},
		{"no service parameter", func(r *http.Request) { r.URL.RawQuery = "" }, 400},
		{"no method", func(r *http.Request) { r.Header.Del("X-Forwarded-Method") }, 400},
		{"no proto", func(r *http.Request) { r.Header.Del("X-Forwarded-Proto") }, 400},
		{"bad proto", func(r *http.Request) { r.Header.Set("X-Forwarded-Proto", "ftp") }, 400},
		{"no host", func(r *http.Request) { r.Header.Del("X-Forwarded-Host") }, 400},
		{"no uri", func(r *http.Request) { r.Header.Del("X-Forwarded-Uri") }, 400},
		{"relative uri", func(r *http.Request) { r.Header.Set("X-Forwarded-Uri", "x") }, 400},
		{"unknown service", func(r *http.Request) { r.URL.RawQuery = "service=nope" }, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/api/auth/verify?service="+open, nil)
			req.Header.Set("X-Forwarded-Method", "GET")
			req.Header.Set("X-Forwarded-Proto", "https")
			req.Header.Set("X-Forwarded-Host", "open.example.com")
			req.Header.Set("X-Forwarded-Uri", "/x?y=1")
			tt.mut(req)
			rec := testutil.Serve(v.h, req)
			if rec.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.want, rec.Body.String())
			}
		})
	}
}

func TestVerifyDisabledServiceDenied(t *testing.T) {
	v := newEnv(t)
	id, _ := basicService(t, v, "app.example.com")
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/security-configs", nil, nil)
	if rec := v.verify(fwd{service: id, host: "app.example.com", auth: basic("alice", "correct horse")}); rec.Code != 200 {
		t.Fatalf("enabled: %d", rec.Code)
	}
	r, err := v.svcs.Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	req := toRequest(r)
	off := false
	req.Enabled = &off
	if _, err := v.svcs.Update(t.Context(), id, req); err != nil {
		t.Fatal(err)
	}
	if rec := v.verify(fwd{service: id, host: "app.example.com", auth: basic("alice", "correct horse")}); rec.Code != 403 {
		t.Fatalf("disabled: %d, want 403", rec.Code)
	}
}

func TestVerifyBasicAuth(t *testing.T) {
	v := newEnv(t)
	id, setID := basicService(t, v, "app.example.com")
	host := "app.example.com"

	rec := v.verify(fwd{service: id, host: host})
	if rec.Code != 401 || !contains(rec.Header().Get("WWW-Authenticate"), `Basic realm="App app.example.com"`) {
		t.Fatalf("no credentials: %d %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
	}
	if !contains(rec.Body.String(), `"code":"unauthenticated"`) {
		t.Fatalf("API client wants the JSON envelope: %s", rec.Body.String())
	}
	rec = v.verify(fwd{service: id, host: host, browser: true})
	if rec.Code != 401 || !contains(rec.Header().Get("Content-Type"), "text/html") || rec.Header().Get("WWW-Authenticate") == "" {
		t.Fatalf("browser without credentials: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "wrong password")}); rec.Code != 401 {
		t.Fatalf("wrong password: %d", rec.Code)
	}
	if rec := v.verify(fwd{service: id, host: host, auth: basic("mallory", "correct horse")}); rec.Code != 401 {
		t.Fatalf("unknown user: %d", rec.Code)
	}
	if rec := v.verify(fwd{service: id, host: host, auth: "Basic !!!"}); rec.Code != 401 {
		t.Fatalf("malformed header: %d", rec.Code)
	}

	rec = v.verify(fwd{service: id, host: host, auth: basic("alice", "correct horse")})
	if rec.Code != 200 || rec.Header().Get("Remote-User") != "alice" {
		t.Fatalf("good credentials: %d user %q", rec.Code, rec.Header().Get("Remote-User"))
	}
	// Cached: the next check runs no query and no bcrypt.
	v.queries.Store(0)
	for range 5 {
		if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "correct horse")}); rec.Code != 200 {
			t.Fatalf("cached: %d", rec.Code)
		}
	}
	if n := v.queries.Load(); n != 0 {
		t.Fatalf("cached basic auth ran %d queries, want 0", n)
	}

	// Changing the password drops the cached result at once.
	v.must(http.StatusOK, http.MethodPut, "/api/credential-sets/"+setID,
		map[string]any{"name": "team", "users": []map[string]string{{"username": "alice", "password": "new password"}}}, nil)
	if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "correct horse")}); rec.Code != 401 {
		t.Fatalf("old password after change: %d", rec.Code)
	}
	if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "new password")}); rec.Code != 200 {
		t.Fatalf("new password: %d", rec.Code)
	}
	// An empty set denies everyone.
	v.must(http.StatusOK, http.MethodPut, "/api/credential-sets/"+setID, map[string]any{"name": "team", "users": []any{}}, nil)
	if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "new password")}); rec.Code != 401 {
		t.Fatalf("empty set: %d", rec.Code)
	}
	// A deleted set denies everyone too.
	v.must(http.StatusNoContent, http.MethodDelete, "/api/credential-sets/"+setID, nil, nil)
	if rec := v.verify(fwd{service: id, host: host, auth: basic("alice", "new password")}); rec.Code != 401 {
		t.Fatalf("deleted set: %d", rec.Code)
	}
}

func TestVerifyBasicAuthRateLimited(t *testing.T) {
	v := newEnv(t)
	id, _ := basicService(t, v, "app.example.com")
	for i := range MaxFailures {
		if rec := v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.9", auth: basic("alice", "nope")}); rec.Code != 401 {
			t.Fatalf("attempt %d: %d", i, rec.Code)
		}
	}
	rec := v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.9", auth: basic("alice", "correct horse")})
	if rec.Code != 429 || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("after %d failures: %d (Retry-After %q)", MaxFailures, rec.Code, rec.Header().Get("Retry-After"))
	}
	// The user is locked from another address too.
	if rec := v.verify(fwd{service: id, host: "app.example.com", ip: "198.51.100.1", auth: basic("alice", "correct horse")}); rec.Code != 429 {
		t.Fatalf("other IP, same user: %d", rec.Code)
	}
	v.clock.Add(FailureWindow + time.Second)
	if rec := v.verify(fwd{service: id, host: "app.example.com", ip: "203.0.113.9", auth: basic("alice", "correct horse")}); rec.Code != 200 {
		t.Fatalf("after the window: %d", rec.Code)
	}
}

func TestVerifyUnprotectedServiceAllowed(t *testing.T) {
	v := newEnv(t)
	id := v.service("open.example.com")
	rec := v.verify(fwd{service: id, host: "open.example.com"})
	if rec.Code != 200 || rec.Header().Get("Remote-User") != "" {
		t.Fatalf("%d %q", rec.Code, rec.Header().Get("Remote-User"))
	}
	// A disabled protection is no protection.
	set := CredentialSetResponse{}
	v.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "s", "users": []any{}}, &set)
	protect(t, v, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID, "enabled": false})
	if rec := v.verify(fwd{service: id, host: "open.example.com"}); rec.Code != 200 {
		t.Fatalf("disabled protection: %d", rec.Code)
	}
	protect(t, v, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID, "enabled": true})
	if rec := v.verify(fwd{service: id, host: "open.example.com"}); rec.Code != 401 {
		t.Fatalf("enabled protection: %d", rec.Code)
	}
}
