package testutil

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx" for the server connection

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// OnPostgres reports whether the tests run on PostgreSQL (PostgresEnv is set).
func OnPostgres() bool { return os.Getenv(PostgresEnv) != "" }

// pgServer is the connection to the test server, shared by the tests of one
// process, and the migrated template their databases are copied from.
var pgServer = sync.OnceValues(func() (*pgTemplate, error) {
	serverURL := os.Getenv(PostgresEnv)
	db, err := sql.Open("pgx", serverURL)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	t := &pgTemplate{db: db, serverURL: serverURL, name: "gatehouse_tpl_" + store.MigrationsDigest()[:16]}
	var version int
	if err := db.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("connect to %s: %w", store.Redact(serverURL), err)
	}
	if version >= 150000 {
		// Copying the files is several times faster than PostgreSQL 15's
		// default (WAL_LOG) for a small database on a server without fsync.
		t.strategy = " STRATEGY FILE_COPY"
	}
	if err := t.ensure(context.Background()); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("prepare the template database on %s: %w", store.Redact(serverURL), err)
	}
	return t, nil
})

type pgTemplate struct {
	db        *sql.DB
	serverURL string
	name      string
	strategy  string // the CREATE DATABASE option that copies it fastest
}

// urlOf is the server's URL naming another database.
func (t *pgTemplate) urlOf(database string) string {
	u, err := url.Parse(t.serverURL)
	if err != nil {
		panic(err) // sql.Open accepted it
	}
	u.Path = "/" + database
	return u.String()
}

// templateLockKey serialises building the template across test processes.
const templateLockKey = 0x67682d74706c // "gh-tpl"

// ensure builds the template database once per migration set: migrated
// under another name, then renamed, so a half-built one is never copied.
func (t *pgTemplate) ensure(ctx context.Context) error {
	conn, err := t.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return err
	}
	defer func() { _, _ = conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", templateLockKey) }()
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", t.name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	build := t.name + "_build"
	for _, q := range []string{
		`DROP DATABASE IF EXISTS "` + build + `" WITH (FORCE)`,
		`CREATE DATABASE "` + build + `"`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	if err := store.Migrate(t.urlOf(build)); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `ALTER DATABASE "`+build+`" RENAME TO "`+t.name+`"`)
	return err
}

func newPostgresDatabase(tb testing.TB) string {
	tb.Helper()
	tpl, err := pgServer()
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	name := "gatehouse_test_" + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := tpl.db.ExecContext(ctx, `CREATE DATABASE "`+name+`" TEMPLATE "`+tpl.name+`"`+tpl.strategy); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		// FORCE ends connections a test left open (a server still shutting down).
		if _, err := tpl.db.ExecContext(context.Background(), `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`); err != nil {
			tb.Errorf("drop test database %s: %v", name, err)
		}
	})
	return tpl.urlOf(name)
}
