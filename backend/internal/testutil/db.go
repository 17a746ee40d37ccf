// Package testutil holds helpers shared by tests across packages.
package testutil

import (
	"context"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// NewDB returns a fresh SQLite database file in a temp dir with every
// migration applied. It is closed when the test ends.
func NewDB(tb testing.TB) *gorm.DB {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "gatehouse.db")
	db, err := store.Open(context.Background(), path)
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
