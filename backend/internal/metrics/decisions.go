package metrics

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Decisions is one service's forward-auth figures, cumulative since the
// process started: the traffic recorder's snapshot, as app hands it over.
type Decisions struct {
	ServiceID string
	// Counts are by decision, in the order of DecisionNames.
	Counts [5]uint64
	// LatencyBuckets are cumulative counts per bound of Deps.LatencyBounds.
	LatencyBuckets []uint64
	LatencySum     float64
	LatencyCount   uint64
}

// DecisionNames are the decision label's values, in the recorder's order.
var DecisionNames = [5]string{"allowed", "signed_in", "challenged", "denied", "rate_limited"}

var (
	decisionsDesc = prometheus.NewDesc(namespace+"_verify_decisions_total",
		"Forward-auth decisions by service and decision.", []string{"service", "decision"}, nil)
	latencyDesc = prometheus.NewDesc(namespace+"_verify_duration_seconds",
		"Time forward-auth took to decide, by service.", []string{"service"}, nil)
)

// namesTTL is how long the service names are kept between scrapes.
const namesTTL = 30 * time.Second

// decisionsCollector turns the recorder's snapshot into metrics when
// Prometheus scrapes: the verify path only bumps the recorder's counters.
type decisionsCollector struct {
	snapshot func() []Decisions
	bounds   []float64
	names    func(ctx context.Context) (map[string]string, error)
	now      func() time.Time
	log      *slog.Logger

	mu      sync.Mutex
	cached  map[string]string
	fetched time.Time
}

func newDecisionsCollector(snapshot func() []Decisions, bounds []float64,
	names func(ctx context.Context) (map[string]string, error), now func() time.Time, log *slog.Logger) *decisionsCollector {
	return &decisionsCollector{snapshot: snapshot, bounds: bounds, names: names, now: now, log: log}
}

func (c *decisionsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- decisionsDesc
	ch <- latencyDesc
}

func (c *decisionsCollector) Collect(ch chan<- prometheus.Metric) {
	names := c.serviceNames()
	for _, s := range c.snapshot() {
		svc := s.ServiceID
		if n := names[s.ServiceID]; n != "" {
			svc = n
		}
		for i, n := range s.Counts {
			ch <- prometheus.MustNewConstMetric(decisionsDesc, prometheus.CounterValue, float64(n), svc, DecisionNames[i])
		}
		buckets := make(map[float64]uint64, len(c.bounds))
		for i, b := range c.bounds {
			if i < len(s.LatencyBuckets) {
				buckets[b] = s.LatencyBuckets[i]
			}
		}
		h, err := prometheus.NewConstHistogram(latencyDesc, s.LatencyCount, s.LatencySum, buckets, svc)
		if err != nil {
			c.log.Debug("metrics: verify latency", "service", s.ServiceID, "err", err)
			continue
		}
		ch <- h
	}
}

// serviceNames returns the id -> name map, read again at most every
// namesTTL; a failed read keeps the last one (ids stand in for unknown
// names).
func (c *decisionsCollector) serviceNames() map[string]string {
	if c.names == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cached != nil && c.now().Sub(c.fetched) < namesTTL {
		return c.cached
	}
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	m, err := c.names(ctx)
	if err != nil {
		c.log.Debug("metrics: service names", "err", err)
		return c.cached
	}
	c.cached, c.fetched = m, c.now()
	return m
}
