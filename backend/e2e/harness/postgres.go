package harness

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx" for the server connection
)

// PostgresEnv names the variable that points the replica scenarios at a
// PostgreSQL server: the URL of a superuser, as scripts/postgres.sh prints
// it. `make e2e` and `make bench` start a throwaway server and set it.
const PostgresEnv = "GATEHOUSE_E2E_DATABASE_URL"

// PostgresDatabase creates an empty database on the server PostgresEnv names
// and returns its URL; the panel migrates it when it starts. The database is
// dropped when the test ends. Without PostgresEnv the test skips.
func PostgresDatabase(t testing.TB) string {
	t.Helper()
	serverURL := os.Getenv(PostgresEnv)
	if serverURL == "" {
		t.Skipf("%s is not set: run `make e2e` or `make bench`, which start a throwaway PostgreSQL (backend/scripts/postgres.sh)", PostgresEnv)
	}
	db, err := sql.Open("pgx", serverURL)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := "gatehouse_e2e_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, `CREATE DATABASE "`+name+`"`); err != nil {
		_ = db.Close()
		t.Fatalf("create database on %s: %v", PostgresEnv, err)
	}
	t.Cleanup(func() {
		// FORCE ends the connections of replicas that were killed.
		if _, err := db.ExecContext(context.Background(), `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
		_ = db.Close()
	})
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String()
}
