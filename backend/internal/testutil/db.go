// Package testutil holds helpers shared by tests across packages.
package testutil

import (
	"context"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// PostgresEnv names the variable that points the tests at a PostgreSQL
// server (a postgres:// URL of a superuser, as scripts/postgres.sh prints):
// each test then gets a new database there instead of a SQLite file.
const PostgresEnv = "GATEHOUSE_TEST_DATABASE_URL"

// NewDB returns a fresh database with every migration applied: a SQLite file
// in a temp dir, or a new PostgreSQL database when PostgresEnv is set. It is
// closed (and the PostgreSQL database dropped) when the test ends.
func NewDB(tb testing.TB) *gorm.DB {
	tb.Helper()
	return OpenDB(tb, NewDatabase(tb))
}

// OpenDB opens database (a NewDatabase answer) with connections of its own,
// as another replica on the same database would, and closes them when the
// test ends.
func OpenDB(tb testing.TB, database string) *gorm.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), database)
	if err != nil {
		tb.Fatalf("open test database: %v", err)
	}
	tb.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	})
	return db
}

// NewDatabase returns what store.Open takes for a fresh database of the
// engine the tests run on: the path of a new SQLite file in a temp dir, or
// the URL of a new, migrated PostgreSQL database dropped when the test ends.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	if OnPostgres() {
		return newPostgresDatabase(tb)
	}
	return filepath.Join(tb.TempDir(), "gatehouse.db")
}

// SQLiteOnly skips, on PostgreSQL, a test about SQLite itself (its files,
// VACUUM, its pragmas).
func SQLiteOnly(tb testing.TB) {
	tb.Helper()
	if OnPostgres() {
		tb.Skip("about SQLite itself: runs when the tests run on SQLite")
	}
}
