//go:build bench

package bench

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestBenchBasicAuthColdStart measures the first second of basic-auth load:
// 64 connections sending the same credentials to GET /api/auth/verify right
// after the result cache was dropped (as any write to protections drops it),
// against the same load on a warm cache, in the same run, with the default
// bcrypt cost. Concurrent checks of the same credentials share one bcrypt
// comparison, so the cold p99 stays near one comparison's time.
func TestBenchBasicAuthColdStart(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "bench.db"))
	if err != nil {
		t.Fatal(err)
	}
	bus := change.NewBus()
	acc := forwardauth.New(forwardauth.Options{DB: db, Bus: bus, Now: store.Now, BcryptCost: bcrypt.DefaultCost,
		PanelURL: func(context.Context) (string, error) { return "https://panel.bench.test", nil }})
	for _, l := range acc.Loops() {
		go l(ctx)
	}
	svcs := services.NewService(db, bus, store.Now, nil)
	e := httpapi.New(httpapi.Deps{
		Logger:        slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Ping:          func(context.Context) error { return nil },
		SetupRequired: func(context.Context) (bool, error) { return false, nil },
		RequireAdmin:  testutil.AsAdmin,
		Features:      []httpapi.Feature{forwardauth.NewHandler(acc)},
	})
	panel := serve(t, acc.FastVerify(e))
	id := mkService(t, svcs, "basic.bench.test")
	var set struct{ ID string }
	call(t, panel, http.MethodPost, "/api/credential-sets", map[string]any{"name": "bench",
		"users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
	call(t, panel, http.MethodPost, "/api/services/"+id+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)
	u := panel + "/api/auth/verify?service=" + id
	headers := []string{"X-Forwarded-Method: GET", "X-Forwarded-Proto: https", "X-Forwarded-Host: basic.bench.test",
		"X-Forwarded-Uri: /", "X-Forwarded-For: 203.0.113.7", "Accept: application/json",
		"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("alice:correct horse"))}
	if code, _ := probe(t, u, headers); code != http.StatusOK {
		t.Fatalf("verify answered %d, want 200", code)
	}

	// One comparison at this cost, for scale.
	hash, _ := bcrypt.GenerateFromPassword([]byte("correct horse"), bcrypt.DefaultCost)
	start := time.Now()
	_ = bcrypt.CompareHashAndPassword(hash, []byte("correct horse"))
	one := time.Since(start)

	const runs, conns = 5, 64
	var cold, warm []time.Duration
	for range runs {
		// Any protection or credential-set change drops the cache.
		bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: set.ID})
		cold = append(cold, wrkFirstSecond(t, u, conns, headers).p99)
		warm = append(warm, wrkFirstSecond(t, u, conns, headers).p99)
	}
	slices.Sort(cold)
	slices.Sort(warm)
	fmt.Printf("\nbasic auth, first second of load: %d connections, same credentials (wrk -t2 -d1s, %d runs, same run)\n", conns, runs)
	fmt.Printf("one bcrypt comparison (cost %d): %.1fms; %d unshared comparisons on %d cores would need >= %.0fms\n",
		bcrypt.DefaultCost, ms(one), conns, runtime.NumCPU(), ms(one)*conns/float64(runtime.NumCPU()))
	fmt.Printf("%-28s %12s %12s\n", "cache", "median p99", "worst p99")
	fmt.Printf("%-28s %10.2fms %10.2fms\n", "cold (dropped just before)", ms(cold[runs/2]), ms(cold[runs-1]))
	fmt.Printf("%-28s %10.2fms %10.2fms\n", "warm", ms(warm[runs/2]), ms(warm[runs-1]))
}

// wrkFirstSecond is wrk for one second at conns connections.
func wrkFirstSecond(t *testing.T, u string, conns int, headers []string) wrkResult {
	t.Helper()
	args := []string{"-t2", "-c" + strconv.Itoa(conns), "-d1s", "--latency"}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	return parseWrk(t, u, args)
}
