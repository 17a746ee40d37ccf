package traffic

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Default retention of the stored rows (PANEL_TRAFFIC_MINUTES_RETENTION,
// PANEL_TRAFFIC_HOURS_RETENTION).
const (
	DefaultMinuteRetention = 48 * time.Hour
	DefaultHourRetention   = 90 * 24 * time.Hour
)

// Traefik is where the per-minute figures come from: package runtime,
// which scrapes Traefik's metrics once for its live view and for this.
type Traefik interface {
	TakeTraffic(ctx context.Context) runtime.TrafficTake
	// TraefikNames maps panel service ids to their Traefik services (for
	// PromQL selectors).
	TraefikNames(ctx context.Context) (map[string][]string, error)
}

// ServiceLister lists the panel's enabled services and says whether an id
// is a service at all (package services).
type ServiceLister interface {
	EachEnabledOf(ctx context.Context, cols []string, fn func(store.Service) error) error
	Exists(ctx context.Context, id string) (bool, error)
}

// Deps are the traffic service's collaborators.
type Deps struct {
	DB     *gorm.DB
	Now    func() time.Time
	Logger *slog.Logger
	// Recorder is verify's counters (every replica has its own).
	Recorder *Recorder
	// Traefik gives the figures the leader stores each minute; nil stores
	// none.
	Traefik Traefik
	// MetricsReason says why Traefik's metrics are not read ("" when they
	// are): the charts' empty state shows it.
	MetricsReason string
	// Replica is this replica's cluster id ("" with one replica): each
	// replica writes its own decision rows.
	Replica  string
	Services ServiceLister
	// MinuteRetention and HourRetention say how long rows are kept (zero:
	// the defaults).
	MinuteRetention, HourRetention time.Duration
	// Prometheus, when set, answers the queries for Traefik's figures
	// (PANEL_PROMETHEUS_URL); the decisions still come from the database.
	Prometheus *Prometheus
}

// Service stores and answers traffic over time.
type Service struct {
	d Deps

	mu       sync.Mutex
	prev     map[string][numDecisions]uint64 // the recorder's counts at the last decisions write
	lastErr  string                          // the last take's error
	lastTake time.Time
	rolled   int64 // the last hour rolled up (unix seconds), 0 before the first
	series   seriesCache
}

// NewService returns the traffic service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Recorder == nil {
		d.Recorder = NewRecorder()
	}
	if d.MinuteRetention <= 0 {
		d.MinuteRetention = DefaultMinuteRetention
	}
	if d.HourRetention <= 0 {
		d.HourRetention = DefaultHourRetention
	}
	return &Service{d: d, prev: map[string][numDecisions]uint64{}}
}

// settle is how long after a minute ends its rows are written: the last
// scrape of the minute has come in by then.
const settle = 2 * time.Second

// everyMinute returns a loop calling f just after each minute ends, with
// that minute's start.
func everyMinute(name string, now func() time.Time, f func(ctx context.Context, minute time.Time)) background.Loop {
	return background.Loop{Name: name, Run: func(ctx context.Context) {
		for {
			t := now()
			next := t.Truncate(time.Minute).Add(time.Minute)
			timer := time.NewTimer(next.Sub(t) + settle)
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case <-timer.C:
			}
			f(ctx, next.Add(-time.Minute))
		}
	}}
}

// Loops are what every replica runs: writing the minute's decisions.
func (s *Service) Loops() []background.Loop {
	return []background.Loop{everyMinute("traffic decisions", s.d.Now, func(ctx context.Context, m time.Time) {
		if err := s.StoreDecisions(ctx, m); err != nil {
			s.d.Logger.Warn("cannot store the minute's forward-auth decisions", "err", err)
		}
	})}
}

// LeaderLoops are what one replica runs for all: storing Traefik's
// figures each minute, rolling finished hours up, and pruning every hour.
func (s *Service) LeaderLoops() []background.Loop {
	loops := []background.Loop{background.Every("traffic prune", time.Hour, func(ctx context.Context) {
		if _, err := s.Prune(ctx); err != nil {
			s.d.Logger.Warn("cannot prune traffic history", "err", err)
		}
	}), everyMinute("traffic roll-up", s.d.Now, func(ctx context.Context, _ time.Time) {
		if err := s.Rollup(ctx); err != nil {
			s.d.Logger.Warn("cannot roll the traffic history up", "err", err)
		}
	})}
	if s.d.Traefik != nil {
		loops = append(loops, everyMinute("traffic store", s.d.Now, func(ctx context.Context, m time.Time) {
			if err := s.StoreTraefik(ctx, m); err != nil {
				s.d.Logger.Warn("cannot store the minute's traffic", "err", err)
			}
		}))
	}
	return loops
}

// Prune deletes rows past their retention; it returns how many.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.d.Now()
	return prune(ctx, s.d.DB, now.Add(-s.d.MinuteRetention).Unix(), now.Add(-s.d.HourRetention).Unix())
}

// StoreDecisions writes, for minute, the decisions this replica counted
// since its last write: per service with any, and the global total.
func (s *Service) StoreDecisions(ctx context.Context, minute time.Time) error {
	snap := s.d.Recorder.Snapshot()
	s.mu.Lock()
	defer s.mu.Unlock()
	at := minute.Unix() / resMinute * resMinute
	counts := map[string][numDecisions]int64{}
	var total [numDecisions]int64
	next := make(map[string][numDecisions]uint64, len(snap))
	for _, sd := range snap {
		old := s.prev[sd.ServiceID]
		next[sd.ServiceID] = sd.Counts
		var c [numDecisions]int64
		var moved bool
		for k := range c {
			if cur := sd.Counts[k]; cur >= old[k] {
				c[k] = int64(cur - old[k]) //nolint:gosec // counts of requests, far below 2^63
			}
			total[k] += c[k]
			moved = moved || c[k] > 0
		}
		if moved {
			counts[boundedID(sd.ServiceID)] = c
		}
	}
	if total != ([numDecisions]int64{}) {
		counts[Global] = total
	}
	if len(counts) > 0 {
		keys := make([]seriesKey, 0, len(counts))
		for id := range counts {
			keys = append(keys, seriesKey{id, s.d.Replica})
		}
		ids, err := s.series.ids(ctx, s.d.DB, keys, true)
		if err != nil {
			return err
		}
		rows := make([]decisionRow, 0, len(counts))
		for _, k := range keys {
			r := decisionRow{Series: ids[k], Res: resMinute, At: at}
			r.set(counts[k.service])
			rows = append(rows, r)
		}
		err = s.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return writeDecisions(ctx, tx, rows, false) })
		if err != nil {
			return err // prev stays: the next minute writes these counts too
		}
	}
	s.prev = next
	return nil
}

// staleTake is how old a take may start and still be filed under one
// minute: a replica that just became the leader has scraped for longer
// than that, and its figures would show as one spike.
const staleTake = 3 * time.Minute

// StoreTraefik takes what Traefik did since the last call and writes it
// for minute: a row per service that carried traffic or has a backend
// down, and the global row.
func (s *Service) StoreTraefik(ctx context.Context, minute time.Time) error {
	take := s.d.Traefik.TakeTraffic(ctx)
	s.mu.Lock()
	s.lastErr, s.lastTake = take.Error, s.d.Now()
	s.mu.Unlock()
	if !take.Configured || take.Since.IsZero() || minute.Sub(take.Since) > staleTake {
		return nil
	}
	at := minute.Unix() / resMinute * resMinute
	byService := make(map[string]sampleRow, len(take.Services)+1)
	var gUp, gChecks int
	add := func(id string, d runtime.Delta, health [2]int) {
		r := sampleRow{Res: resMinute, At: at,
			Req2xx: toInt(d.Classes[0]), Req3xx: toInt(d.Classes[1]), Req4xx: toInt(d.Classes[2]), Req5xx: toInt(d.Classes[3]),
			BytesIn: toInt(d.BytesIn), BytesOut: toInt(d.BytesOut), Up: health[0], Checks: health[1]}
		if len(d.Buckets) > 0 {
			r.Latency = fromCumulative(d.Buckets).encode()
		}
		if r.requests() == 0 && r.Latency == "" && r.BytesIn == 0 && r.BytesOut == 0 && r.Up == r.Checks {
			return // nothing happened, nothing down: no row
		}
		byService[boundedID(id)] = r
	}
	for id, h := range take.Health {
		gUp, gChecks = gUp+h[0], gChecks+h[1]
		if _, busy := take.Services[id]; !busy {
			add(id, runtime.Delta{}, h)
		}
	}
	for id, d := range take.Services {
		add(id, d, take.Health[id])
	}
	add(Global, take.Global, [2]int{gUp, gChecks})
	if len(byService) == 0 {
		return nil
	}
	keys := make([]seriesKey, 0, len(byService))
	for id := range byService {
		keys = append(keys, seriesKey{id, ""})
	}
	ids, err := s.series.ids(ctx, s.d.DB, keys, true)
	if err != nil {
		return err
	}
	rows := make([]sampleRow, 0, len(byService))
	for _, k := range keys {
		r := byService[k.service]
		r.Series = ids[k]
		rows = append(rows, r)
	}
	return s.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return writeSamples(ctx, tx, rows, false) })
}

// Recorder returns the counters verify records decisions in.
func (s *Service) Recorder() *Recorder { return s.d.Recorder }
