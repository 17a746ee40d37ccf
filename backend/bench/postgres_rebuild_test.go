//go:build bench

package bench

import (
	"fmt"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestBenchDynconfRebuildPostgres is TestBenchDynconfRebuild at 10,000
// services on PostgreSQL (GATEHOUSE_E2E_DATABASE_URL; `make bench` starts a
// throwaway server), with the same figures on SQLite measured in the same
// run as the baseline, and their ratio.
func TestBenchDynconfRebuildPostgres(t *testing.T) {
	const n, writes = 10000, 20
	dbURL := harness.PostgresDatabase(t) // skips without a server
	base := measureRebuild(t, startSeeded(t, n, ""), writes)
	r := measureRebuild(t, startSeeded(t, n, dbURL), writes)

	fmt.Printf("\nFirst GET /api/proxy/config after a write at %d services: PostgreSQL vs SQLite (app.Run over HTTP, %d writes each; same run)\n",
		n, writes)
	fmt.Printf("(CPU: the panel process's CPU time for the GET, without PostgreSQL's own)\n")
	fmt.Printf("%-36s  %11s  %11s  %7s  %11s  %11s  %11s\n", "after", "PG median", "SQLite med", "ratio", "PG p95", "SQLite p95", "PG CPU med")
	for i, k := range r.kinds() {
		b := base.kinds()[i]
		pm, sm := quantile(k.d, 0.5), quantile(b.d, 0.5)
		fmt.Printf("%-36s  %11s  %11s  %6.2fx  %11s  %11s  %11s\n", k.name, ms3(pm), ms3(sm), float64(pm)/float64(sm),
			ms3(quantile(k.d, 0.95)), ms3(quantile(b.d, 0.95)), ms3(quantile(k.cpu, 0.5)))
	}
	fmt.Println("goal: first GET after a service or domain write at 10,000 services under 100 ms on both engines")
}
