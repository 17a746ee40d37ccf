package provider

import (
	"testing"

	"gorm.io/gorm"
)

type gormDB = gorm.DB

// registerCounter counts every statement the database runs from now on.
func registerCounter(t *testing.T, db *gorm.DB, f func(*gorm.DB)) {
	t.Helper()
	cb := db.Callback()
	for name, err := range map[string]error{
		"query": cb.Query().Before("gorm:query").Register("test:count_query", f),
		"row":   cb.Row().Before("gorm:row").Register("test:count_row", f),
		"raw":   cb.Raw().Before("gorm:raw").Register("test:count_raw", f),
	} {
		if err != nil {
			t.Fatalf("register %s counter: %v", name, err)
		}
	}
}
