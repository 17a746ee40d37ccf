package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// servingLock names the advisory lock every serving replica holds shared and
// `gatehouse import -apply` takes alone: the data directory's file lock
// cannot see replicas on other hosts.
const servingLock = "serving"

// ErrServing says a replica is serving from the database.
var ErrServing = errors.New("a panel is serving from this PostgreSQL database")

// Serving returns a loop that holds the serving lock, shared with the other
// replicas, on a connection of its own while ctx lives, and takes it again
// after that connection is lost. While an import holds it alone, it waits.
func (c *Cluster) Serving() background.Loop {
	l := advisory{role: "serving", take: "SELECT pg_try_advisory_lock_shared($1, $2)", key: lockKey(servingLock), check: LeaderRetry}
	return background.Loop{Name: "cluster serving lock", Run: c.holding(l, func(ctx context.Context) { <-ctx.Done() })}
}

// Exclusive takes the serving lock alone, on a connection of its own, when no
// replica holds it, and returns ErrServing when one does. release gives it
// back.
func Exclusive(ctx context.Context, databaseURL string) (release func(), err error) {
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("database URL %s is not a valid PostgreSQL URL", store.Redact(databaseURL))
	}
	cfg.ConnectTimeout = connectTimeout
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	var ok bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", leaderClass, lockKey(servingLock)).Scan(&ok); err != nil {
		_ = conn.Close(context.Background())
		return nil, fmt.Errorf("take the serving lock: %w", err)
	}
	if !ok {
		_ = conn.Close(context.Background())
		return nil, ErrServing
	}
	return func() { _ = conn.Close(context.Background()) }, nil
}
