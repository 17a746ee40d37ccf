package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
// after that connection is lost.
func (c *Cluster) Serving() func(ctx context.Context) {
	return func(ctx context.Context) {
		for {
			if err := c.serve(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("cluster: hold the serving lock", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(LeaderRetry):
			}
		}
	}
}

func (c *Cluster) serve(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	conn, err := c.connect(cctx, "serving")
	cancel()
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	for {
		var ok bool
		qctx, cancel := context.WithTimeout(ctx, LeaderRetry)
		err := conn.QueryRow(qctx, "SELECT pg_try_advisory_lock_shared($1, $2)", leaderClass, lockKey(servingLock)).Scan(&ok)
		cancel()
		if err != nil {
			return err
		}
		if ok {
			break
		}
		// An import holds it alone for a moment: wait for it to finish.
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(LeaderRetry):
		}
	}
	t := time.NewTicker(LeaderRetry)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, LeaderRetry)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return fmt.Errorf("ping: %w", err)
			}
		}
	}
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
