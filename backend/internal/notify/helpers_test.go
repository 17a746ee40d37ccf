package notify

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type env struct {
	svc   *Service
	e     *echo.Echo
	clock *testutil.Clock
	logs  *strings.Builder
}

func newEnv(t *testing.T, opts ...func(*Deps)) *env {
	t.Helper()
	box, err := sealbox.Ephemeral()
	if err != nil {
		t.Fatal(err)
	}
	clock := testutil.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	logs := &strings.Builder{}
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := Deps{DB: testutil.NewDB(t), Secrets: box, Now: clock.Now, Logger: logger, Backoff: []time.Duration{time.Millisecond}}
	for _, f := range opts {
		f(&o)
	}
	svc := NewService(o)
	e := httpapi.New(httpapi.Deps{
		Logger:        logger,
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{NewHandler(svc)},
	}).Echo
	return &env{svc: svc, e: e, clock: clock, logs: logs}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (v *env) do(t *testing.T, method, path string, body any) (int, map[string]any, string) {
	t.Helper()
	var s string
	if body != nil {
		b, _ := json.Marshal(body)
		s = string(b)
	}
	rec := testutil.Request(v.e, method, path, s)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out, rec.Body.String()
}

// receiver is a local webhook endpoint that keeps what it receives.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []map[string]any
	path []string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(req.Body).Decode(&m)
		r.mu.Lock()
		r.got = append(r.got, m)
		r.path = append(r.path, req.URL.RequestURI())
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) messages() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.got...)
}

// eventually polls cond until it holds or the test times out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
