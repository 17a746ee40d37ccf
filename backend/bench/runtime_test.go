//go:build bench

package bench

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestBenchRuntime measures the runtime views under UI-style polling load
// through the panel's real HTTP stack, against a Traefik that replays the
// answers recorded from Traefik 3.6.12 and takes 5 ms per answer, and
// against a bare Echo handler returning a body of the same size, in the same
// run. It also counts the requests that reached Traefik: the short cache and
// the shared in-flight fetch keep that to a handful per run whatever the load.
func TestBenchRuntime(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	var hits atomic.Int64
	files := map[string]string{
		"/api/rawdata": "traefik-3.6-rawdata.json", "/api/entrypoints": "traefik-3.6-entrypoints.json",
		"/api/version": "traefik-3.6-version.json",
	}
	traefik := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		time.Sleep(5 * time.Millisecond)
		b, err := os.ReadFile(filepath.Join("..", "internal", "runtime", "testdata", files[r.URL.Path]))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Next-Page", "1")
		_, _ = w.Write(b)
	}))
	defer traefik.Close()

	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "bench.db"))
	if err != nil {
		t.Fatal(err)
	}
	bus := change.NewBus()
	svcs := services.NewService(db, bus, store.Now, nil)
	for i := range 20 {
		mkService(t, svcs, fmt.Sprintf("app%d.bench.test", i))
	}
	client, err := runtime.NewClient(traefik.URL, runtime.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	panel := serve(t, httpapi.New(httpapi.Deps{
		Logger: quiet, RequireAdmin: testutil.AsAdmin,
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		Features: []httpapi.Feature{runtime.NewHandler(runtime.NewService(runtime.Deps{
			Client: client, Services: svcs, Domains: domains.NewService(db, bus, store.Now),
			Settings: settings.NewService(db, bus), DB: db,
		}))},
	}))

	fmt.Printf("\nruntime views vs bare Echo with a same-size body (wrk -t2 -d5s, same machine, same run;\n")
	fmt.Printf("Traefik replays recorded 3.6.12 answers at 5 ms each; 20 panel services)\n")
	fmt.Printf("%-26s %5s %10s %10s %7s %10s %10s %16s\n", "view", "conns", "rps", "bare rps", "ratio", "p99", "bare p99", "traefik fetches")
	for _, view := range []string{"/api/proxy/runtime", "/api/proxy/conflicts", "/api/proxy/middlewares", "/api/proxy/health"} {
		resp, err := http.Get(panel + view)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		_, err = body.ReadFrom(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			t.Fatalf("GET %s: %v", view, err)
		}
		bare := echo.New()
		bare.GET(view, func(c echo.Context) error { return c.JSONBlob(http.StatusOK, body.Bytes()) })
		bareURL := serve(t, bare)
		for _, conns := range []int{8, 64} {
			before := hits.Load()
			v := wrk(t, panel+view, conns, nil)
			fetches := hits.Load() - before
			b := wrk(t, bareURL+view, conns, nil)
			fmt.Printf("%-26s %5d %10.0f %10.0f %6.2fx %10s %10s %16d\n", view, conns, v.rps, b.rps, v.rps/b.rps,
				v.p99.Round(10*time.Microsecond), b.p99.Round(10*time.Microsecond), fetches)
		}
	}
}
