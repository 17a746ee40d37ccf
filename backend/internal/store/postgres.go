package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source"
	pgxdrv "github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// IsPostgres reports whether database names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgres(database string) bool {
	return strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://")
}

// Redact returns database fit for logs and messages: a PostgreSQL URL loses
// its password; a SQLite path is returned as it is.
func Redact(database string) string {
	if !IsPostgres(database) {
		return database
	}
	u, err := url.Parse(database)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// writeLockKey names the PostgreSQL advisory lock every transaction takes
// first (see lockingPool).
const writeLockKey = 0x67617465686f7573 // "gatehous"

// lockingPool makes every transaction take one transaction-scoped advisory
// lock before anything else, so transactions run one at a time as they do on
// SQLite, where BEGIN IMMEDIATE takes the single write lock. The code relies
// on that: read-then-write transactions (the audit chain's next seq and
// previous hash, "the last active administrator", one-use checks) would
// otherwise interleave under PostgreSQL's READ COMMITTED. Reads outside a
// transaction (forward-auth, lists) take no lock. Within one process the
// transactions also queue on turn before they take a connection, so a burst
// of writes leaves the pool's other connections to the reads.
type lockingPool struct {
	*sql.DB
	turn chan struct{} // holds one token while this process has a transaction open
}

func newLockingPool(db *sql.DB) *lockingPool {
	return &lockingPool{DB: db, turn: make(chan struct{}, 1)}
}

// busyTimeout bounds the wait for a turn, as SQLite's busy timeout (see dsn)
// bounds the wait for its write lock: a transaction left open by mistake
// turns into errors, not into a panel that hangs.
const busyTimeout = 10 * time.Second

// BeginTx starts a transaction holding the write lock.
func (p *lockingPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	wait := time.NewTimer(busyTimeout)
	defer wait.Stop()
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-wait.C:
		return nil, fmt.Errorf("database busy: another transaction has been open for %v", busyTimeout)
	}
	var once sync.Once
	release := func() { once.Do(func() { <-p.turn }) }
	tx, err := p.DB.BeginTx(ctx, opts)
	if err != nil {
		release()
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(writeLockKey)); err != nil {
		_ = tx.Rollback()
		release()
		return nil, fmt.Errorf("take the write lock: %w", err)
	}
	// database/sql rolls the transaction back itself when ctx ends first.
	stop := context.AfterFunc(ctx, release)
	return &lockedTx{Tx: tx, done: func() { stop(); release() }}, nil
}

// GetDBConn lets gorm.DB.DB return the pool.
func (p *lockingPool) GetDBConn() (*sql.DB, error) { return p.DB, nil }

// lockedTx gives the process's turn back when the transaction ends (the
// advisory lock ends with the transaction).
type lockedTx struct {
	*sql.Tx
	done func()
}

func (t *lockedTx) Commit() error {
	defer t.done()
	return t.Tx.Commit()
}

func (t *lockedTx) Rollback() error {
	defer t.done()
	return t.Tx.Rollback()
}

// pgxConfig parses a PostgreSQL URL for the pgx driver: sessions run in UTC,
// and TIMESTAMP columns (the migrations' portable type, "without time zone"
// on PostgreSQL) always receive UTC, as SQLite's text timestamps do.
func pgxConfig(dbURL string) (*pgxdrv.ConnConfig, error) {
	cfg, err := pgxdrv.ParseConfig(dbURL)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, fmt.Errorf("database URL %s is not a valid PostgreSQL URL", Redact(dbURL))
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["timezone"] = "UTC"
	return cfg, nil
}

func afterConnect(_ context.Context, conn *pgxdrv.Conn) error {
	conn.TypeMap().RegisterType(&pgtype.Type{Name: "timestamp", OID: pgtype.TimestampOID, Codec: utcTimestampCodec{&pgtype.TimestampCodec{}}})
	return nil
}

func openPGPool(dbURL string) (*sql.DB, error) {
	cfg, err := pgxConfig(dbURL)
	if err != nil {
		return nil, err
	}
	return stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(afterConnect)), nil
}

func openPostgres(ctx context.Context, dbURL string) (*gorm.DB, error) {
	name := Redact(dbURL)
	if err := Migrate(dbURL); err != nil {
		return nil, err
	}
	sqlDB, err := openPGPool(dbURL)
	if err != nil {
		return nil, err
	}
	// Enough connections for forward-auth reads while writes queue on the
	// write lock, well under PostgreSQL's default max_connections (100) with
	// a few replicas; idle ones are closed so a quiet panel holds few.
	sqlDB.SetMaxOpenConns(16)
	sqlDB.SetMaxIdleConns(4)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	sqlDB.SetConnMaxLifetime(time.Hour)
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: newLockingPool(sqlDB)}), gormConfig())
	if err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("open database %s: %w", name, err)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("open database %s: %w", name, err)
	}
	return db, nil
}

func migratePostgres(dbURL string, src source.Driver, latest uint) error {
	name := Redact(dbURL)
	sqlDB, err := openPGPool(dbURL)
	if err != nil {
		return err
	}
	defer func() { _ = sqlDB.Close() }() // a separate handle for migrations only
	// golang-migrate holds a PostgreSQL advisory lock while it migrates, so
	// several panels starting at once on one database apply each migration
	// once.
	drv, err := pgx.WithInstance(sqlDB, &pgx.Config{})
	if err != nil {
		return fmt.Errorf("open database %s for migration: %w", name, err)
	}
	return migrateUp(src, "pgx5", drv, name, latest)
}

// utcTimestampCodec is pgx's TIMESTAMP codec, except that a time.Time in
// another zone is converted to UTC before it is sent: pgx's own codec keeps
// the wall clock and drops the zone, which would store a different instant.
type utcTimestampCodec struct{ *pgtype.TimestampCodec }

func (c utcTimestampCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case time.Time, *time.Time:
		next := c.TimestampCodec.PlanEncode(m, oid, format, pgtype.Timestamp{})
		if next == nil {
			return nil
		}
		return utcEncodePlan{next: next}
	}
	return c.TimestampCodec.PlanEncode(m, oid, format, value)
}

type utcEncodePlan struct{ next pgtype.EncodePlan }

func (p utcEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	var t time.Time
	switch v := value.(type) {
	case time.Time:
		t = v
	case *time.Time:
		if v == nil {
			return nil, nil
		}
		t = *v
	}
	return p.next.Encode(pgtype.Timestamp{Time: t.UTC(), Valid: true}, buf)
}
