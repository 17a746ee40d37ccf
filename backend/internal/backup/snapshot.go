package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Snapshotter copies the live database into dir while the panel keeps
// serving and writing. Each engine has its own (SQLite now; PostgreSQL's
// own dump would be another): the archive records which one made it.
type Snapshotter interface {
	Engine() string
	Snapshot(ctx context.Context, dir string) (Taken, error)
}

// Taken is a snapshot: the file written (named as in the archive) and the
// schema version it holds.
type Taken struct {
	Name          string
	Path          string
	SchemaVersion uint
}

// SQLite snapshots with VACUUM INTO: one read transaction copies a
// consistent state of the whole database into a new, compact file, while
// writers go on committing to the WAL.
type SQLite struct {
	DB *gorm.DB
}

// Engine names the engine in the manifest.
func (SQLite) Engine() string { return EngineSQLite }

// Snapshot writes dir/gatehouse.db.
func (s SQLite) Snapshot(ctx context.Context, dir string) (Taken, error) {
	path := filepath.Join(dir, DatabaseName)
	if err := s.DB.WithContext(ctx).Exec("VACUUM INTO ?", path).Error; err != nil {
		return Taken{}, fmt.Errorf("snapshot the database: %w", err)
	}
	v, err := fileSchemaVersion(ctx, path)
	if err != nil {
		return Taken{}, err
	}
	return Taken{Name: DatabaseName, Path: path, SchemaVersion: v}, nil
}

// openReadOnly opens a SQLite file without creating or changing anything.
func openReadOnly(path string) (*sql.DB, error) {
	return sql.Open("sqlite3", "file:"+path+"?mode=ro&immutable=1")
}

// fileSchemaVersion reads golang-migrate's version from a database file,
// refusing a dirty one (a migration stopped halfway).
func fileSchemaVersion(ctx context.Context, path string) (uint, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close() }() // read-only
	return schemaVersion(ctx, db)
}

func schemaVersion(ctx context.Context, db *sql.DB) (uint, error) {
	var v int64
	var dirty bool
	err := db.QueryRowContext(ctx, "SELECT version, dirty FROM schema_migrations LIMIT 1").Scan(&v, &dirty)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errors.New("the database has no schema version")
	}
	if err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	if dirty || v < 0 {
		return 0, fmt.Errorf("the database is dirty at schema version %d (a migration stopped halfway)", v)
	}
	return uint(v), nil
}

// integrityCheck runs PRAGMA integrity_check on a database file.
func integrityCheck(ctx context.Context, path string) error {
	db, err := openReadOnly(path)
	if err != nil {
		return err
	}
	defer func() { _ = db.Close() }() // read-only
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("the database cannot be read: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		if s != "ok" && len(problems) < 5 {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("the database cannot be read: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("the database fails its integrity check: %v", problems)
	}
	return nil
}

// ErrNoSnapshot is the answer of an engine the panel cannot snapshot itself.
var ErrNoSnapshot = errors.New("the panel's database is on PostgreSQL: back it up with pg_dump (docs/backups-and-migration.md, \"Backups and restore\", says how); the panel's own backups cover SQLite")

// Unsupported is the snapshotter of an engine without a built-in snapshot:
// every backup is refused with ErrNoSnapshot, as a conflict naming the engine.
type Unsupported struct{ Name string }

// Engine implements Snapshotter.
func (u Unsupported) Engine() string { return u.Name }

// Snapshot implements Snapshotter.
func (u Unsupported) Snapshot(context.Context, string) (Taken, error) {
	return Taken{}, apperr.Conflict("engine", "%s", ErrNoSnapshot.Error())
}
