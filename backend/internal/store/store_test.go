package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func TestMigrateIsIdempotent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.db")
	for i := 0; i < 2; i++ {
		if err := store.Migrate(path); err != nil {
			t.Fatalf("migrate #%d: %v", i+1, err)
		}
	}
}

func TestMigrateRefusesDirtyAndNewerSchemas(t *testing.T) {
	tests := []struct {
		name, sql, want string
	}{
		{"dirty", "UPDATE schema_migrations SET dirty = 1", "dirty"},
		{"newer", "UPDATE schema_migrations SET version = 9999", "newer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.db")
			if err := store.Migrate(path); err != nil {
				t.Fatal(err)
			}
			raw, err := sql.Open("sqlite3", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := raw.Exec(tt.sql); err != nil {
				t.Fatal(err)
			}
			_ = raw.Close()
			_, err = store.Open(context.Background(), path)
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
	if err := db.Create(&b).Error; err == nil {
		t.Fatal("a second default domain was accepted")
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
