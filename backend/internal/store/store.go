// Package store opens the database (SQLite by default, PostgreSQL when given
// a postgres:// URL), applies the embedded golang-migrate migrations, and
// defines the GORM models. One set of migrations serves both engines. Models
// never go over the wire: feature handlers map them to DTOs.
package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	"github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/database/sqlite3"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/google/uuid"
	_ "github.com/mattn/go-sqlite3" // the one SQLite driver, shared by GORM and migrate
	gormsqlite "gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// dsn turns a file path into a go-sqlite3 DSN. WAL lets readers (forward-auth,
// the config endpoint) run while a write commits; foreign keys are off by
// default in SQLite; the busy timeout makes concurrent writers queue instead of
// failing; _txlock=immediate takes the write lock at BEGIN so a read-then-write
// transaction cannot deadlock on lock upgrade. synchronous=NORMAL in WAL mode
// never loses a committed transaction to a process crash (only to power loss).
// Each connection keeps its own page cache (SQLite's default: up to 2 MiB);
// 256 KiB each bounds the pool's to 2 MiB, outside the Go runtime's memory
// limit: the hot paths answer from memory, and the operating system caches
// the file for the rest.
func dsn(path string) string {
	return "file:" + path + "?_foreign_keys=on&_journal_mode=WAL&_busy_timeout=10000" +
		"&_txlock=immediate&_synchronous=NORMAL&_cache_size=-256"
}

// Open migrates the database and opens it. database is a SQLite file path
// (its directory is created) or a postgres:// (postgresql://) URL.
func Open(ctx context.Context, database string) (*gorm.DB, error) {
	if IsPostgres(database) {
		return openPostgres(ctx, database)
	}
	return openSQLite(ctx, database)
}

func openSQLite(ctx context.Context, path string) (*gorm.DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("create data directory %q: %w", dir, err)
		}
	}
	if err := Migrate(path); err != nil {
		return nil, err
	}
	db, err := gorm.Open(gormsqlite.Dialector{DriverName: "sqlite3", DSN: dsn(path)}, gormConfig())
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	// Up to eight at once; past a burst, four stay open (each holds its page
	// cache and parsed schema in C memory).
	sqlDB.SetMaxOpenConns(8)
	sqlDB.SetMaxIdleConns(4)
	if err := sqlDB.PingContext(ctx); err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	return db, nil
}

func gormConfig() *gorm.Config {
	return &gorm.Config{
		Logger:                 logger.Discard, // SQL may carry hashes and tokens: never log it
		SkipDefaultTransaction: false,
		NowFunc:                Now,
		TranslateError:         true,
	}
}

// Migrate applies every embedded migration to a SQLite file or a PostgreSQL
// database (see Open). It refuses a dirty schema (a migration failed halfway)
// and a schema newer than this binary knows, saying what to do, rather than
// guessing.
func Migrate(database string) error {
	src, err := iofs.New(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	latest, err := latestVersion(src)
	if err != nil {
		return err
	}
	if IsPostgres(database) {
		return migratePostgres(database, src, latest)
	}
	sqlDB, err := sql.Open("sqlite3", dsn(database))
	if err != nil {
		return fmt.Errorf("open database %q: %w", database, err)
	}
	defer func() { _ = sqlDB.Close() }() // a separate handle for migrations only
	drv, err := sqlite3.WithInstance(sqlDB, &sqlite3.Config{})
	if err != nil {
		return fmt.Errorf("open database %q for migration: %w", database, err)
	}
	return migrateUp(src, "sqlite3", drv, database, latest)
}

// MigrateTo moves the schema of a SQLite file or a PostgreSQL database to
// version, up or down. Gatehouse itself only ever goes up (Migrate); tests
// use it to build a database as an older release left it.
func MigrateTo(dbName string, version uint) error {
	src, err := iofs.New(migrationFS, "migrations")
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	var sqlDB *sql.DB
	var drv database.Driver
	engine := "sqlite3"
	if IsPostgres(dbName) {
		engine = "pgx5"
		if sqlDB, err = openPGPool(dbName); err == nil {
			drv, err = pgx.WithInstance(sqlDB, &pgx.Config{})
		}
	} else if sqlDB, err = sql.Open("sqlite3", dsn(dbName)); err == nil {
		drv, err = sqlite3.WithInstance(sqlDB, &sqlite3.Config{})
	}
	if sqlDB != nil {
		defer func() { _ = sqlDB.Close() }()
	}
	if err != nil {
		return fmt.Errorf("open database for migration: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, engine, drv)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	defer func() { _, _ = m.Close() }()
	if err := m.Migrate(version); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate to %d: %w", version, err)
	}
	return nil
}

// migrateUp runs the migrations on an opened engine driver; name is how
// messages show the database.
func migrateUp(src source.Driver, engine string, drv database.Driver, name string, latest uint) error {
	m, err := migrate.NewWithInstance("iofs", src, engine, drv)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	// Close returns the connection the driver holds (PostgreSQL refuses to
	// copy or rename a database while one is open).
	defer func() { _, _ = m.Close() }()
	version, dirty, err := m.Version()
	switch {
	case errors.Is(err, migrate.ErrNilVersion):
	case err != nil:
		return fmt.Errorf("read schema version: %w", err)
	case dirty:
		return fmt.Errorf("database %q is dirty at schema version %d: a migration failed halfway; "+
			"restore the latest backup of the data directory and start again", name, version)
	case version > latest:
		return fmt.Errorf("database %q has schema version %d but this Gatehouse knows only up to %d: "+
			"run the newer Gatehouse that wrote it, or restore a backup", name, version, latest)
	}
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate database %q: %w", name, err)
	}
	return nil
}

// LatestVersion is the newest schema version this binary's migrations reach.
func LatestVersion() (uint, error) {
	src, err := iofs.New(migrationFS, "migrations")
	if err != nil {
		return 0, fmt.Errorf("load migrations: %w", err)
	}
	return latestVersion(src)
}

func latestVersion(src interface {
	First() (uint, error)
	Next(uint) (uint, error)
}) (uint, error) {
	v, err := src.First()
	if err != nil {
		return 0, fmt.Errorf("read migrations: %w", err)
	}
	for {
		n, err := src.Next(v)
		if errors.Is(err, os.ErrNotExist) {
			return v, nil
		}
		if err != nil {
			return 0, fmt.Errorf("read migrations: %w", err)
		}
		v = n
	}
}

// Now is the store's clock: UTC, truncated to milliseconds so that times
// stored as text (SQLite) compare correctly in SQL and survive PostgreSQL's
// microsecond timestamps unchanged.
func Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// NewID returns a new time-ordered opaque id.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// Ping checks that the database answers.
func Ping(ctx context.Context, db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// MigrationsDigest identifies the embedded migrations' content, so a copy of
// a migrated database (a test template) is reused only while they are
// unchanged.
func MigrationsDigest() string {
	h := sha256.New()
	entries, _ := fs.ReadDir(migrationFS, "migrations")
	for _, e := range entries {
		b, _ := fs.ReadFile(migrationFS, "migrations/"+e.Name())
		_, _ = fmt.Fprintf(h, "%s %d\n", e.Name(), len(b))
		_, _ = h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
