package app

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// testApp builds the whole application (every feature, the real route table)
// on a fresh database: a SQLite file, or a PostgreSQL database when the tests
// run on PostgreSQL.
type testApp struct {
	t       testing.TB
	c       *components
	handler http.Handler
	cookie  string
	logs    *bytes.Buffer
}

func newTestApp(t testing.TB, env map[string]string) *testApp {
	t.Helper()
	m := map[string]string{"PANEL_DATA_DIR": t.TempDir()}
	if testutil.OnPostgres() {
		// Set in the caller's map too: the commands a test runs with the
		// same environment must open the same database.
		if env == nil {
			env = map[string]string{}
		}
		if env["PANEL_DATABASE_URL"] == "" {
			env["PANEL_DATABASE_URL"] = testutil.NewDatabase(t)
		}
	}
	for k, v := range env {
		m[k] = v
	}
	cfg, err := config.Load(func(k string) string { return m[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.BcryptCost = bcrypt.MinCost
	logs := &bytes.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := build(context.Background(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return &testApp{t: t, c: c, handler: c.handler, logs: logs}
}

// signIn runs first-run setup and keeps the session cookie.
func (a *testApp) signIn() {
	a.t.Helper()
	rec := a.do("POST", "/api/admin/setup", `{"username":"admin","password":"correct-horse-battery"}`)
	if rec.Code != http.StatusCreated {
		a.t.Fatalf("setup: %d %s", rec.Code, rec.Body)
	}
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == "gatehouse_admin" {
			a.cookie = ck.Value
		}
	}
}

func (a *testApp) do(method, path, body string, headers ...string) *httptest.ResponseRecorder {
	a.t.Helper()
	if a.cookie != "" {
		headers = append([]string{"Cookie", "gatehouse_admin=" + a.cookie}, headers...)
	}
	return testutil.Request(a.handler, method, path, body, headers...)
}

type envelope struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Fields  []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
		} `json:"fields"`
		RequestID string `json:"requestId"`
	} `json:"error"`
}

func decodeEnvelope(t testing.TB, rec *httptest.ResponseRecorder) envelope {
	t.Helper()
	var e envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error envelope (%d): %s", rec.Code, rec.Body)
	}
	return e
}

func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %s: %v", rec.Body, err)
	}
	return v
}

func decodeJSON(resp *http.Response, v any) error {
	return json.NewDecoder(resp.Body).Decode(v)
}
