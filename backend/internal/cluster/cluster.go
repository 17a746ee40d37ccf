// Package cluster lets several Gatehouse replicas share one PostgreSQL
// database. Every change event a replica publishes on its bus is sent to the
// others with NOTIFY and delivered to their own subscribers, so their caches
// drop what the write made stale within milliseconds; the polls Traefik makes
// of any replica are relayed the same way, for every replica's status page.
// Leader elects one replica, with an advisory lock, to run the background
// jobs that must run once for all.
//
// There is no cluster on SQLite: one process owns the file.
package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The NOTIFY channels.
const (
	ChangeChannel = "gatehouse_change"
	PollChannel   = "gatehouse_poll"
)

const (
	// queueSize bounds the notifications waiting to be sent. A writer never
	// waits for the database: when the queue is full the event is replaced
	// by change.All (see Cluster.lost).
	queueSize = 1024
	// notifyTimeout bounds one NOTIFY, so a stuck connection delays the
	// other replicas' invalidation, never a write.
	notifyTimeout = 2 * time.Second
	// connectTimeout bounds a connection attempt.
	connectTimeout = 5 * time.Second
	// idleCheck is how long the listener waits for a notification before it
	// pings the server, so a connection that died silently is noticed.
	idleCheck = 15 * time.Second
	// maxPayload is PostgreSQL's limit on a NOTIFY payload (8000 bytes),
	// with a margin.
	maxPayload = 7900
	// Backoff between attempts to connect the listener again.
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
)

// Cluster relays events between the replicas on one PostgreSQL database.
type Cluster struct {
	cfg *pgx.ConnConfig
	bus *change.Bus
	log *slog.Logger
	id  string // this replica: its own notifications come back and are skipped

	out chan message
	// lost is set when an event could not be queued or sent: the other
	// replicas then receive change.All, as soon as a NOTIFY goes through.
	lost atomic.Bool

	mu     sync.Mutex
	onPoll []func(status.Poll)

	listening     chan struct{} // closed once the first LISTEN succeeded
	listeningOnce sync.Once

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// message is one NOTIFY to send.
type message struct {
	channel, payload string
}

// wireEvent is a change event on ChangeChannel.
type wireEvent struct {
	Origin string `json:"o"`
	Entity string `json:"e"`
	Kind   string `json:"k,omitempty"`
	ID     string `json:"i,omitempty"`
}

// wirePoll is a Traefik poll on PollChannel.
type wirePoll struct {
	Origin string    `json:"o"`
	At     time.Time `json:"a"`
	Remote string    `json:"r"`
	ETag   string    `json:"t"`
	Code   int       `json:"c"`
}

// New starts relaying bus's events through the PostgreSQL database at
// databaseURL: it sets itself as the bus's relay, listens on a dedicated
// connection (delivering change.All after every connect, since notifications
// may have been missed while it was down), and sends on another. It returns
// at once; connection failures are logged and retried until ctx ends or
// Close is called.
func New(ctx context.Context, databaseURL string, bus *change.Bus, log *slog.Logger) (*Cluster, error) {
	if !store.IsPostgres(databaseURL) {
		return nil, errors.New("cluster: the database is not PostgreSQL")
	}
	cfg, err := pgx.ParseConfig(databaseURL)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, fmt.Errorf("database URL %s is not a valid PostgreSQL URL", store.Redact(databaseURL))
	}
	cfg.ConnectTimeout = connectTimeout
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var raw [8]byte
	_, _ = rand.Read(raw[:]) // never fails (crypto/rand)
	ctx, cancel := context.WithCancel(ctx)
	c := &Cluster{cfg: cfg, bus: bus, log: log, id: hex.EncodeToString(raw[:]), out: make(chan message, queueSize), cancel: cancel,
		listening: make(chan struct{})}
	c.wg.Add(2)
	go func() { defer c.wg.Done(); c.listen(ctx) }()
	go func() { defer c.wg.Done(); c.send(ctx) }()
	bus.SetRelay(c.relay)
	return c, nil
}

// ID is this replica's random identity, for the logs.
func (c *Cluster) ID() string { return c.id }

// Listening is closed once this replica first listens: from then on it hears
// every event the others publish.
func (c *Cluster) Listening() <-chan struct{} { return c.listening }

// Close stops relaying. Notifications still queued are sent first, for at
// most notifyTimeout (a command that wrote and exits tells the running
// replicas).
func (c *Cluster) Close() {
	c.bus.SetRelay(nil)
	c.cancel()
	c.wg.Wait()
}

// connect opens a dedicated connection. Its application_name says what it is
// for and which replica holds it (pg_stat_activity).
func (c *Cluster) connect(ctx context.Context, role string) (*pgx.Conn, error) {
	cfg := c.cfg.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["application_name"] = appPrefix + role + " " + c.id
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// relay queues a locally published event for the other replicas. It runs on
// the writer's goroutine, after its commit: it never waits.
func (c *Cluster) relay(e change.Event) {
	b, _ := json.Marshal(wireEvent{Origin: c.id, Entity: string(e.Entity), Kind: string(e.Kind), ID: e.ID})
	if len(b) > maxPayload {
		c.lost.Store(true) // cannot happen with short ids; fail closed anyway
		return
	}
	select {
	case c.out <- message{channel: ChangeChannel, payload: string(b)}:
	default:
		c.lost.Store(true)
	}
}

// PublishPoll tells the other replicas of a poll Traefik made of this one.
// Polls are evidence for the status page, not state: when the queue is full
// the poll is dropped.
func (c *Cluster) PublishPoll(p status.Poll) {
	b, _ := json.Marshal(wirePoll{Origin: c.id, At: p.At, Remote: p.Remote, ETag: p.ETag, Code: p.Code})
	if len(b) > maxPayload {
		return
	}
	select {
	case c.out <- message{channel: PollChannel, payload: string(b)}:
	default:
	}
}

// OnPoll registers f for the polls other replicas relay.
func (c *Cluster) OnPoll(f func(status.Poll)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onPoll = append(c.onPoll, f)
}
