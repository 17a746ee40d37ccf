package cluster

import (
	"context"
	"hash/crc32"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// leaderClass is the first key of the two-key advisory locks Leader takes.
// PostgreSQL keeps two-key locks apart from the one-key (bigint) locks the
// store's write lock and golang-migrate take, so they can never collide.
const leaderClass int32 = 0x67617465 // "gate"

// LeaderRetry is how often a replica that is not the leader tries to become
// it, and how often the leader checks that its lock connection is alive.
const LeaderRetry = 2 * time.Second

// lockKey is the second key of name's lock: the checksum's 32 bits, read as
// PostgreSQL's signed integer.
func lockKey(name string) int32 {
	return int32(crc32.ChecksumIEEE([]byte(name))) //nolint:gosec // the bits are the key; the sign does not matter
}

// Leader returns a loop that runs loops while this replica holds the advisory
// lock named name, on a connection of its own. A replica that does not hold
// it tries again every LeaderRetry. When the connection is lost (or ctx
// ends) the loops are cancelled and waited for, and the lock is free for
// another replica, which takes over within LeaderRetry. The loops must stop
// when their context ends, and should be safe to run twice for a moment: a
// leader that lost its connection notices within LeaderRetry, while the
// database may hand the lock on at once.
func (c *Cluster) Leader(name string, loops ...func(ctx context.Context)) func(ctx context.Context) {
	return func(ctx context.Context) {
		for {
			if err := c.lead(ctx, name, loops); err != nil && ctx.Err() == nil {
				c.log.Warn("cluster: leader election", "role", name, "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(LeaderRetry):
			}
		}
	}
}

// lead takes the lock (waiting for it as long as the connection lives),
// runs the loops while the connection answers, and returns when it does not.
func (c *Cluster) lead(ctx context.Context, name string, loops []func(ctx context.Context)) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	conn, err := c.connect(cctx, "leader "+name)
	cancel()
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	for {
		ok, err := tryLock(ctx, conn, name)
		if err != nil {
			return err
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(LeaderRetry):
		}
	}
	c.log.Info("cluster: this replica leads", "role", name, "replica", c.id)
	run, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, l := range loops {
		wg.Go(func() { l(run) })
	}
	defer wg.Wait()
	defer stop()
	// Checked twice as often as the others try: a leader cut off stops its
	// loops about when another replica can first take over.
	t := time.NewTicker(LeaderRetry / 2)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, LeaderRetry/2)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				c.log.Warn("cluster: this replica no longer leads", "role", name, "replica", c.id, "err", err)
				return nil
			}
		}
	}
}

func tryLock(ctx context.Context, conn *pgx.Conn, name string) (bool, error) {
	qctx, cancel := context.WithTimeout(ctx, LeaderRetry)
	defer cancel()
	var ok bool
	err := conn.QueryRow(qctx, "SELECT pg_try_advisory_lock($1, $2)", leaderClass, lockKey(name)).Scan(&ok)
	return ok, err
}
