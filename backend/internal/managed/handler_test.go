package managed

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

const testToken = "wrapper-token-0123456789abcdef"

type handlerEnv struct {
	t    *testing.T
	h    http.Handler
	svc  *Service
	logs *bytes.Buffer
	dir  string
}

// newHandlerEnv serves the managed handler through the real HTTP stack
// (error envelope, request logging, the routes' declared access). The admin guard lets
// everything through: these tests are about the feature's own guards.
func newHandlerEnv(t *testing.T, managed bool, token string, mutate ...func(*Options)) *handlerEnv {
	t.Helper()
	logs := &bytes.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	dir := t.TempDir()
	var svc *Service
	if managed {
		svc = newTestService(t, testutil.NewDB(t), dir, append([]func(*Options){func(o *Options) { o.Logger = log }}, mutate...)...)
	}
	h := NewHandler(svc, token, func(context.Context) (string, error) { return "panel.gatehouse.dev", nil }, nil)
	e := httpapi.New(httpapi.Deps{
		Logger: log, Version: "test", Managed: managed,
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{h},
	})
	return &handlerEnv{t: t, h: e, svc: svc, logs: logs, dir: dir}
}

// do sends a request; headers are name/value pairs ("Host" sets the host).
func (e *handlerEnv) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	e.t.Helper()
	return testutil.Request(e.h, method, path, body, append([]string{"Host", "gatehouse:8080"}, headers...)...)
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var env httpx.ErrorEnvelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("not an error envelope: %s", rec.Body)
	}
	return string(env.Error.Code)
}

func TestManagedOffAnswers404Everywhere(t *testing.T) {
	e := newHandlerEnv(t, false, testToken)
	for _, r := range []struct{ method, path, body string }{
		{"GET", "/api/proxy/managed", ""},
		{"PUT", "/api/proxy/managed", `{}`},
		{"PUT", "/api/proxy/managed/secrets", `{}`},
		{"GET", "/api/proxy/managed/dns-providers", ""},
		{"GET", "/api/proxy/static-config", ""},
		{"GET", "/api/proxy/managed/secrets-env", ""},
		{"POST", "/api/proxy/managed/wrapper-report", `{}`},
	} {
		rec := e.do(r.method, r.path, r.body, "Authorization", "Bearer "+testToken)
		if rec.Code != http.StatusNotFound || errorCode(t, rec) != "not_found" {
			t.Errorf("%s %s = %d %s; want 404 not_found", r.method, r.path, rec.Code, rec.Body)
		}
	}
}

func TestGetAndPutConfig(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	rec := e.do("GET", "/api/proxy/managed", "")
	var st State
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &st) != nil {
		t.Fatalf("GET = %d %s", rec.Code, rec.Body)
	}
	if st.Status != StatusWaiting || len(st.Config.Entrypoints) != 2 || st.Credentials == nil {
		t.Fatalf("GET state = %+v", st)
	}

	rec = e.do("PUT", "/api/proxy/managed", `{"entrypoints":[{"name":"web","port":80,"redirectTo":"web"}],"resolvers":[],"logLevel":"INFO"}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"field":"entrypoints[0].redirectTo"`) {
		t.Fatalf("PUT self-redirect = %d %s", rec.Code, rec.Body)
	}
	rec = e.do("PUT", "/api/proxy/managed", `{"entrypoints":[{"name":"web","port":"80"}]}`)
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("PUT wrong type = %d %s", rec.Code, rec.Body)
	}

	body := `{"entrypoints":[{"name":"web","port":80,"tls":false,"resolver":"","redirectTo":"websecure"},
		{"name":"websecure","port":443,"tls":true,"resolver":"le","redirectTo":""}],
		"resolvers":[{"name":"le","email":"ops@gatehouse.dev","challenge":"dns","httpEntrypoint":"","dnsProvider":"cloudflare",
		"dnsResolvers":["1.1.1.1:53"],"propagationDelaySeconds":10}],"logLevel":"warn"}`
	rec = e.do("PUT", "/api/proxy/managed", body)
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &st) != nil {
		t.Fatalf("PUT = %d %s", rec.Code, rec.Body)
	}
	if st.Config.LogLevel != "WARN" || st.Config.Resolvers[0].DNSProvider != "cloudflare" {
		t.Fatalf("PUT answer = %+v", st.Config)
	}
	rec = e.do("GET", "/api/proxy/static-config", "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/yaml; charset=utf-8" || len(rec.Header().Get(HashHeader)) != 64 {
		t.Fatalf("static-config = %d %v", rec.Code, rec.Header())
	}
	if !strings.Contains(rec.Body.String(), "provider: cloudflare") || !strings.Contains(rec.Body.String(), "level: WARN") {
		t.Fatalf("static-config does not reflect the PUT:\n%s", rec.Body)
	}
}

func TestProvidersEndpoint(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	rec := e.do("GET", "/api/proxy/managed/dns-providers", "")
	var out struct{ Items []DNSProvider }
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &out) != nil || len(out.Items) < 17 {
		t.Fatalf("dns-providers = %d %s", rec.Code, rec.Body)
	}
}

func TestSecretsEnvGuards(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	auth := []string{"Authorization", "Bearer " + testToken}
	tests := []struct {
		name    string
		headers []string
		status  int
	}{
		{"direct with token", auth, 200},
		{"no token", nil, 401},
		{"wrong token", []string{"Authorization", "Bearer nope"}, 401},
		{"basic instead of bearer", []string{"Authorization", "Basic " + testToken}, 401},
		{"via the admin domain", append([]string{"Host", "panel.gatehouse.dev"}, auth...), 403},
		{"via the admin domain with port", append([]string{"Host", "PANEL.gatehouse.dev:443"}, auth...), 403},
		{"forwarded host", append([]string{"X-Forwarded-Host", "panel.gatehouse.dev"}, auth...), 403},
		{"forwarded for", append([]string{"X-Forwarded-For", "203.0.113.9"}, auth...), 403},
		{"forwarded proto", append([]string{"X-Forwarded-Proto", "https"}, auth...), 403},
		{"rfc 7239", append([]string{"Forwarded", "for=203.0.113.9"}, auth...), 403},
		{"x-real-ip", append([]string{"X-Real-Ip", "203.0.113.9"}, auth...), 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := e.do("GET", "/api/proxy/managed/secrets-env", "", tt.headers...)
			if rec.Code != tt.status {
				t.Fatalf("status = %d %s; want %d", rec.Code, rec.Body, tt.status)
			}
		})
	}
	// The same guards protect the report and the static config (no token needed there).
	if rec := e.do("POST", "/api/proxy/managed/wrapper-report", `{"configHash":"x","secretsHash":"y"}`); rec.Code != 401 {
		t.Fatalf("report without token = %d", rec.Code)
	}
	if rec := e.do("GET", "/api/proxy/static-config", "", "X-Forwarded-For", "203.0.113.9"); rec.Code != 403 {
		t.Fatalf("static-config through the proxy = %d", rec.Code)
	}
}

func TestWrongTokenIsRateLimited(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	for i := 0; i < 10; i++ {
		e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer guess")
	}
	rec := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("after 10 wrong tokens = %d", rec.Code)
	}
}

func TestSecretsEnvWithoutConfiguredToken(t *testing.T) {
	e := newHandlerEnv(t, true, "")
	rec := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer anything")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "PANEL_WRAPPER_TOKEN") {
		t.Fatalf("without a configured token = %d %s", rec.Code, rec.Body)
	}
}

// TestNoValueEverLeaks stores credentials, then walks every GET the feature
// has, the write answers and the log, looking for the values.
func TestNoValueEverLeaks(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	values := []string{"sup3r-s3cret-cloudflare-token", "aws-secret-Zx81-value"}
	rec := e.do("PUT", "/api/proxy/managed/secrets",
		`{"upsert":{"CF_DNS_API_TOKEN":"`+values[0]+`","AWS_SECRET_ACCESS_KEY":"`+values[1]+`"},"remove":[]}`)
	if rec.Code != 200 {
		t.Fatalf("PUT secrets = %d %s", rec.Code, rec.Body)
	}
	var out struct{ Credentials []Credential }
	if json.Unmarshal(rec.Body.Bytes(), &out) != nil || len(out.Credentials) != 2 {
		t.Fatalf("PUT secrets answer = %s", rec.Body)
	}
	bodies := []string{rec.Body.String()}
	for _, p := range []string{"/api/proxy/managed", "/api/proxy/managed/dns-providers", "/api/proxy/static-config"} {
		bodies = append(bodies, e.do("GET", p, "").Body.String())
	}
	bodies = append(bodies, e.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"bad name":"`+values[0]+`"}}`).Body.String())
	// Through the proxy, even with the token: refused, nothing in the body.
	bodies = append(bodies, e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken,
		"X-Forwarded-Host", "panel.gatehouse.dev").Body.String())
	for _, b := range bodies {
		for _, v := range values {
			if strings.Contains(b, v) {
				t.Fatalf("a credential value leaked in a response: %s", b)
			}
		}
	}
	// The wrapper does get them.
	env := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken)
	if env.Code != 200 || !strings.Contains(env.Body.String(), "export CF_DNS_API_TOKEN='"+values[0]+"'") {
		t.Fatalf("secrets-env = %d %s", env.Code, env.Body)
	}
	for _, v := range append(values, testToken) {
		if strings.Contains(e.logs.String(), v) {
			t.Fatalf("a secret leaked into the log:\n%s", e.logs)
		}
	}
}

func TestWrongKeyAnswers500(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	if rec := e.do("PUT", "/api/proxy/managed/secrets", `{"upsert":{"A":"value-a"}}`); rec.Code != 200 {
		t.Fatalf("PUT secrets = %d", rec.Code)
	}
	// Replace the stored credentials with some encrypted to somebody else.
	ctx := context.Background()
	other := newTestService(t, testutil.NewDB(t), t.TempDir())
	if _, err := other.UpdateSecrets(ctx, map[string]string{"A": "other"}, nil); err != nil {
		t.Fatal(err)
	}
	sealed, _, err := store.GetSealedCredentials(ctx, other.db)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.PutSealedCredentials(ctx, e.svc.db, sealed); err != nil {
		t.Fatal(err)
	}
	rec := e.do("GET", "/api/proxy/managed/secrets-env", "", "Authorization", "Bearer "+testToken)
	if rec.Code != 500 || errorCode(t, rec) != "internal" || strings.Contains(rec.Body.String(), "export") {
		t.Fatalf("secrets-env with the wrong key = %d %s", rec.Code, rec.Body)
	}
	if rec := e.do("GET", "/api/proxy/managed", ""); rec.Code != 200 {
		t.Fatalf("GET managed must still work: %d", rec.Code)
	}
}

func TestWrapperReportMarksApplied(t *testing.T) {
	e := newHandlerEnv(t, true, testToken)
	auth := []string{"Authorization", "Bearer " + testToken}
	static := e.do("GET", "/api/proxy/static-config", "")
	env := e.do("GET", "/api/proxy/managed/secrets-env", "", auth...)
	var st State
	_ = json.Unmarshal(e.do("GET", "/api/proxy/managed", "").Body.Bytes(), &st)
	if st.Status != StatusWaiting {
		t.Fatalf("fetching must not mark the config applied: %s", st.Status)
	}
	body := `{"configHash":"` + static.Header().Get(HashHeader) + `","secretsHash":"` + env.Header().Get(SecretsHashHeader) + `"}`
	rec := e.do("POST", "/api/proxy/managed/wrapper-report", body, auth...)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"applied"`) {
		t.Fatalf("report = %d %s", rec.Code, rec.Body)
	}
	_ = json.Unmarshal(e.do("GET", "/api/proxy/managed", "").Body.Bytes(), &st)
	if st.Status != StatusApplied || st.AppliedAt == nil {
		t.Fatalf("after the report: %+v", st)
	}
}
