package runtime

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// fakeTraefik replays recorded Traefik API answers from testdata.
type fakeTraefik struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string]string // path -> testdata file; missing paths answer 404
	hits  atomic.Int64
	delay time.Duration
}

// traefik36 are the answers recorded from a real Traefik 3.6.12.
func traefik36() map[string]string {
	return map[string]string{
		"/api/rawdata":     "traefik-3.6-rawdata.json",
		"/api/entrypoints": "traefik-3.6-entrypoints.json",
		"/api/version":     "traefik-3.6-version.json",
		"/metrics":         "traefik-3.6-metrics-1.txt",
	}
}

// traefik37 adds the certificates API of Traefik 3.7.
func traefik37() map[string]string {
	f := traefik36()
	f["/api/version"] = "traefik-3.7-version.json"
	f["/api/certificates"] = "traefik-3.7-certificates.json"
	return f
}

func newFakeTraefik(t *testing.T, files map[string]string) *fakeTraefik {
	t.Helper()
	f := &fakeTraefik{files: files}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.mu.Lock()
		name, ok := f.files[r.URL.Path]
		delay := f.delay
		f.mu.Unlock()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if !ok {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		if strings.HasPrefix(name, "status:") {
			http.Error(w, "boom", map[string]int{"status:500": 500, "status:401": 401}[name])
			return
		}
		if strings.HasPrefix(name, "body:") {
			_, _ = io.WriteString(w, strings.TrimPrefix(name, "body:"))
			return
		}
		b, err := os.ReadFile(filepath.Join("testdata", name)) //nolint:gosec // the package's own fixtures
		if err != nil {
			t.Errorf("fixture %s: %v", name, err)
			return
		}
		w.Header().Set("X-Next-Page", "1")
		_, _ = w.Write(b)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTraefik) set(path, file string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[path] = file
}

// fakeOwners is a RouterOwners with a fixed answer.
type fakeOwners map[string]string

func (o fakeOwners) RouterOwner(context.Context) (func(string) string, error) {
	return func(name string) string { return o[name] }, nil
}

// env is a database with panel services and the runtime service under test.
type env struct {
	t        *testing.T
	services *services.Service
	domains  *domains.Service
	settings *settings.Service
	deps     Deps
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := testutil.NewDB(t)
	bus := change.NewBus()
	e := &env{
		t: t, services: services.NewService(services.Deps{DB: db, Bus: bus, Now: store.Now}),
		domains: domains.NewService(domains.Deps{DB: db, Bus: bus, Now: store.Now}), settings: settings.NewService(settings.Deps{DB: db, Bus: bus}),
	}
	e.deps = Deps{Services: e.services, Domains: e.domains, Settings: e.settings}
	return e
}

// addService creates an enabled service on custom hostnames and returns its id.
func (e *env) addService(name string, hosts, eps, mws []string, targets ...store.Target) string {
	e.t.Helper()
	hn := make([]store.Hostname, len(hosts))
	for i, h := range hosts {
		hn[i] = store.Hostname{Type: store.HostCustom, Value: h}
	}
	if len(targets) == 0 {
		targets = []store.Target{{Scheme: "http", Host: "127.0.0.1", Port: 28091}}
	}
	r, err := e.services.Create(context.Background(), services.Request{
		Name: name, Hostnames: hn, Targets: targets, Entrypoints: eps, Middlewares: mws,
	})
	if err != nil {
		e.t.Fatalf("create service %s: %v", name, err)
	}
	return r.ID
}

func (e *env) client(url string, o ClientOptions) *Client {
	e.t.Helper()
	c, err := NewClient(url, o)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// serve builds the runtime views behind the real Echo stack (error handler
// included) with an admin guard that lets every request through.
func serve(t *testing.T, d Deps) *echo.Echo {
	t.Helper()
	pass := testutil.AsAdmin
	return httpapi.New(httpapi.Deps{
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		RequireAdmin: pass,
		Features:     []httpapi.Feature{NewHandler(NewService(d))},
	}).Echo
}

// get calls path and decodes the JSON answer.
func get(t *testing.T, e *echo.Echo, path string, out any) int {
	t.Helper()
	rec := testutil.Request(e, http.MethodGet, path, "")
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("GET %s: %d %s: %v", path, rec.Code, rec.Body.String(), err)
		}
	}
	return rec.Code
}
