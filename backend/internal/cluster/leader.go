package cluster

import (
	"context"
	"fmt"
	"hash/crc32"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
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
func (c *Cluster) Leader(name string, loops ...background.Loop) background.Loop {
	// Checked twice as often as the others try: a leader cut off stops its
	// loops about when another replica can first take over.
	l := advisory{role: "leader " + name, take: "SELECT pg_try_advisory_lock($1, $2)", key: lockKey(name), check: LeaderRetry / 2}
	return background.Loop{Name: "cluster leader " + name, Run: c.holding(l, func(ctx context.Context) {
		c.log.Info("cluster: this replica leads", "role", name, "replica", c.id)
		var wg sync.WaitGroup
		for _, f := range loops {
			wg.Go(func() { f.Run(ctx) })
		}
		wg.Wait()
	})}
}

// advisory is a two-key advisory lock (leaderClass, key) held on a
// connection named role.
type advisory struct {
	role  string
	take  string // the statement that tries to take it, answering a boolean
	key   int32
	check time.Duration // how often the holder checks its connection
}

// holding returns a loop that takes l (waiting for it as long as the
// connection lives), runs held with a context that ends when the connection
// stops answering or ctx ends, and starts over LeaderRetry later.
func (c *Cluster) holding(l advisory, held func(ctx context.Context)) func(ctx context.Context) {
	return func(ctx context.Context) {
		for {
			if err := c.hold(ctx, l, held); err != nil && ctx.Err() == nil {
				c.log.Warn("cluster: advisory lock", "role", l.role, "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(LeaderRetry):
			}
		}
	}
}

func (c *Cluster) hold(ctx context.Context, l advisory, held func(ctx context.Context)) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	conn, err := c.connect(cctx, l.role)
	cancel()
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	for {
		ok, err := tryLock(ctx, conn, l)
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
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); held(run) }()
	defer func() { stop(); <-done }()
	t := time.NewTicker(l.check)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, l.check)
			err := conn.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("this replica no longer holds the lock: %w", err)
			}
		}
	}
}

func tryLock(ctx context.Context, conn *pgx.Conn, l advisory) (bool, error) {
	qctx, cancel := context.WithTimeout(ctx, LeaderRetry)
	defer cancel()
	var ok bool
	err := conn.QueryRow(qctx, l.take, leaderClass, l.key).Scan(&ok)
	return ok, err
}
