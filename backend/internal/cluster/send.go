package cluster

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
)

// allPayload is the change.All event from this replica.
func (c *Cluster) allPayload() string {
	b, _ := json.Marshal(wireEvent{Origin: c.id, Entity: string(change.All)})
	return string(b)
}

// send writes the queued notifications on its own connection, one at a time,
// each bounded by notifyTimeout. When an event is lost (the queue was full,
// or a NOTIFY failed), change.All goes out before the next one, and every
// second until it does.
func (c *Cluster) send(ctx context.Context) {
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			_ = conn.Close(context.Background())
		}
	}()
	notify := func(m message) bool {
		// Bounded by its own timeout, not ctx: Close flushes the queue.
		nctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		if conn == nil {
			var err error
			if conn, err = c.connect(nctx, "notify"); err != nil {
				c.log.Warn("cluster: notify other replicas", "channel", m.channel, "err", err)
				return false
			}
		}
		if _, err := conn.Exec(nctx, "SELECT pg_notify($1, $2)", m.channel, m.payload); err != nil {
			c.log.Warn("cluster: notify other replicas", "channel", m.channel, "err", err)
			_ = conn.Close(context.Background())
			conn = nil
			return false
		}
		return true
	}
	// fail notes a lost event and empties the queue: change.All, sent once
	// the database answers again, stands for everything in it, and a
	// database that is down is not asked once per queued event.
	fail := func() {
		c.lost.Store(true)
		for {
			select {
			case <-c.out:
			default:
				return
			}
		}
	}
	deliver := func(m message) {
		if c.lost.Swap(false) && !notify(message{channel: ChangeChannel, payload: c.allPayload()}) {
			fail()
			return
		}
		if !notify(m) && m.channel == ChangeChannel {
			fail()
		}
	}
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		select {
		case m := <-c.out:
			deliver(m)
		case <-retry.C:
			if c.lost.Swap(false) && !notify(message{channel: ChangeChannel, payload: c.allPayload()}) {
				fail()
			}
		case <-ctx.Done():
			if c.lost.Swap(false) {
				notify(message{channel: ChangeChannel, payload: c.allPayload()})
			}
			for end := time.Now().Add(notifyTimeout); time.Now().Before(end); {
				select {
				case m := <-c.out:
					deliver(m)
				default:
					return
				}
			}
			return
		}
	}
}
