package store_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestMigrateIsIdempotent(t *testing.T) {
	database := testutil.NewDatabase(t)
	for i := 0; i < 2; i++ {
		if err := store.Migrate(database); err != nil {
			t.Fatalf("migrate #%d: %v", i+1, err)
		}
	}
}

// rawExec runs q on database outside the store, as an operator would.
func rawExec(t *testing.T, database, q string) {
	t.Helper()
	driver, dsn := "sqlite3", database
	if store.IsPostgres(database) {
		driver = "pgx"
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = raw.Close() }()
	if _, err := raw.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateRefusesDirtyAndNewerSchemas(t *testing.T) {
	tests := []struct {
		name, sql, want string
	}{
		{"dirty", "UPDATE schema_migrations SET dirty = TRUE", "dirty"},
		{"newer", "UPDATE schema_migrations SET version = 9999", "newer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			database := testutil.NewDatabase(t)
			if err := store.Migrate(database); err != nil {
				t.Fatal(err)
			}
			rawExec(t, database, tt.sql)
			_, err := store.Open(context.Background(), database)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open = %v; want an error saying %q", err, tt.want)
			}
		})
	}
}

func TestSingleDefaultDomainIsEnforced(t *testing.T) {
	db := testutil.NewDB(t)
	now := store.Now()
	mk := func(name string) store.Domain {
		return store.Domain{ID: store.NewID(), Name: name, Domain: name + ".test", IsDefault: true, CreatedAt: now, UpdatedAt: now}
	}
	a, b := mk("a"), mk("b")
	if err := db.Create(&a).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Create(&b).Error; !errors.Is(err, gorm.ErrDuplicatedKey) {
		t.Fatalf("a second default domain: %v; want gorm.ErrDuplicatedKey", err)
	}
}

func TestConfigRoundTrip(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	type doc struct{ A int }
	var got doc
	if ok, err := store.GetConfig(ctx, db, "x", &got); ok || err != nil {
		t.Fatalf("GetConfig on a missing key = %v, %v", ok, err)
	}
	for _, v := range []int{1, 2} {
		if err := store.PutConfig(ctx, db, "x", doc{A: v}); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := store.GetConfig(ctx, db, "x", &got); !ok || err != nil || got.A != 2 {
		t.Fatalf("GetConfig = %v, %v, %+v", ok, err, got)
	}
}
