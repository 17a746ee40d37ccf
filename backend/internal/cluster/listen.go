package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
)

// listen keeps a connection listening on both channels, connecting again
// with backoff when it is lost.
func (c *Cluster) listen(ctx context.Context) {
	backoff := minBackoff
	for {
		start := time.Now()
		err := c.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		c.log.Warn("cluster: listening for other replicas' changes", "err", err, "retry_in", backoff)
		if time.Since(start) > time.Minute {
			backoff = minBackoff // it was up for a while: a new outage starts short
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

func (c *Cluster) listenOnce(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	conn, err := c.connect(cctx, "listen")
	cancel()
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close(context.Background()) }()
	for _, ch := range []string{ChangeChannel, PollChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return fmt.Errorf("listen on %s: %w", ch, err)
		}
	}
	// Whatever changed while nobody listened is unknown: drop everything.
	c.bus.Deliver(change.Event{Entity: change.All})
	c.listeningOnce.Do(func() { close(c.listening) })
	c.log.Debug("cluster: listening for other replicas' changes", "replica", c.id)
	for {
		wctx, cancel := context.WithTimeout(ctx, idleCheck)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			c.receive(n.Channel, n.Payload)
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			pctx, cancel := context.WithTimeout(ctx, connectTimeout)
			err = conn.Ping(pctx)
			cancel()
			if err != nil {
				return fmt.Errorf("ping: %w", err)
			}
		default:
			return err
		}
	}
}

// receive applies one notification from another replica.
func (c *Cluster) receive(channel, payload string) {
	switch channel {
	case ChangeChannel:
		var w wireEvent
		if err := json.Unmarshal([]byte(payload), &w); err != nil || w.Entity == "" {
			c.log.Warn("cluster: unreadable change notification", "err", err)
			w = wireEvent{Entity: string(change.All)} // fail closed
		}
		if w.Origin == c.id {
			return
		}
		c.bus.Deliver(change.Event{Entity: change.Entity(w.Entity), Kind: change.Kind(w.Kind), ID: w.ID})
	case PollChannel:
		var w wirePoll
		if err := json.Unmarshal([]byte(payload), &w); err != nil || w.Origin == c.id {
			return
		}
		c.mu.Lock()
		fs := c.onPoll
		c.mu.Unlock()
		for _, f := range fs {
			f(status.Poll{At: w.At, Remote: w.Remote, ETag: w.ETag, Code: w.Code})
		}
	}
}
