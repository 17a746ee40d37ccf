// Package metrics serves the panel's own Prometheus metrics on /metrics:
// forward-auth decisions and their latency by service, configuration
// builds, Traefik's polls, database queries and connections, the cluster,
// notification deliveries, backups and sign-ins, with Go's runtime and the
// process. Counters that change on a request path are plain client_golang
// counters touched by a hook; the verify path's figures are read from the
// traffic recorder at scrape time (DecisionsCollector), so verify itself
// never looks up a label.
package metrics

import (
	"context"
	"log/slog"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gatehouse-proxy/gatehouse/internal/background"
)

// Path is where the metrics are served.
const Path = "/metrics"

// namespace prefixes every panel metric.
const namespace = "gatehouse"

// Deps are the collaborators of the metrics; optional ones left zero.
type Deps struct {
	Version string
	Logger  *slog.Logger
	// Decisions reads the forward-auth recorder (cumulative since start).
	Decisions func() []Decisions
	// LatencyBounds are the recorder's bucket bounds in seconds.
	LatencyBounds []float64
	// ServiceNames maps service ids to names for the service label.
	ServiceNames func(ctx context.Context) (map[string]string, error)
	// Replicas counts the replicas sharing the database (nil: one).
	Replicas func(ctx context.Context) (int, error)
	// Token is PANEL_METRICS_TOKEN ("" for none).
	Token string
	// Addresses read /metrics without the token (PANEL_METRICS_ADDRESSES).
	Addresses []netip.Prefix
	// PublicHosts are the hosts /metrics never answers on: the admin
	// domain, the portal host and the public URL's host.
	PublicHosts func(ctx context.Context) ([]string, error)
	Now         func() time.Time
}

// Metrics holds the registry and the counters the panel's hooks update.
type Metrics struct {
	d   Deps
	log *slog.Logger
	reg *prometheus.Registry

	configBuilds   prometheus.Counter
	configBuildDur prometheus.Histogram
	polls          prometheus.Counter
	etagHits       prometheus.Counter
	leader         prometheus.Gauge
	deliveries     *prometheus.CounterVec
	backups        *prometheus.CounterVec
	backupDur      prometheus.Histogram
	backupLastOK   prometheus.Gauge
	backupSize     prometheus.Gauge
	signIns        *prometheus.CounterVec
	tokenSum       []byte
}

// New registers every metric on a registry of its own.
func New(d Deps) *Metrics {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	m := &Metrics{d: d, log: d.Logger, reg: prometheus.NewRegistry(), tokenSum: tokenSum(d.Token)}
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	build := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "build_info",
		Help: "Always 1; the version label is the panel's version.", ConstLabels: prometheus.Labels{"version": d.Version}})
	build.Set(1)
	f(build)

	m.configBuilds = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "config_builds_total",
		Help: "Dynamic configurations built for Traefik (a build happens after a change, not on every poll)."})
	m.configBuildDur = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "config_build_duration_seconds",
		Help: "Time to build the dynamic configuration.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)})
	m.polls = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "traefik_polls_total",
		Help: "Polls of /api/proxy/config answered to Traefik's HTTP provider (200 and 304)."})
	m.etagHits = prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: "traefik_poll_etag_hits_total",
		Help: "Polls answered 304 Not Modified because Traefik's ETag matched."})
	m.leader = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "cluster_leader",
		Help: "1 while this replica runs the leader's background work, else 0."})
	m.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "notifications_delivered_total",
		Help: "Notification deliveries by event kind and outcome (ok, failed), after retries."}, []string{"kind", "outcome"})
	m.backups = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "backups_total",
		Help: "Backups written by trigger (schedule, manual) and outcome (ok, failed)."}, []string{"trigger", "outcome"})
	m.backupDur = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: "backup_duration_seconds",
		Help: "Time to write a backup.", Buckets: prometheus.ExponentialBuckets(0.05, 2, 12)})
	m.backupLastOK = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "backup_last_success_timestamp_seconds",
		Help: "When this replica last wrote a backup (Unix seconds; 0 for never)."})
	m.backupSize = prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: "backup_last_size_bytes",
		Help: "Size of the last backup written."})
	m.signIns = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: "sign_ins_total",
		Help: "Sign-in attempts by where (panel, portal) and outcome (success, failure, step: a first factor accepted, a second one asked)."},
		[]string{"where", "outcome"})
	for _, c := range []prometheus.Collector{m.configBuilds, m.configBuildDur, m.polls, m.etagHits, m.leader,
		m.deliveries, m.backups, m.backupDur, m.backupLastOK, m.backupSize, m.signIns} {
		f(c)
	}
	for _, w := range []string{"panel", "portal"} {
		for _, o := range []string{"success", "failure"} {
			m.signIns.WithLabelValues(w, o)
		}
	}
	if d.Decisions != nil {
		f(newDecisionsCollector(d.Decisions, d.LatencyBounds, d.ServiceNames, d.Now, m.log))
	}
	f(&replicasCollector{replicas: d.Replicas, log: m.log})
	return m
}

// Registry is the registry /metrics serves (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ConfigBuilt counts a configuration build that started at start.
func (m *Metrics) ConfigBuilt(start time.Time) {
	m.configBuilds.Inc()
	m.configBuildDur.Observe(max(m.d.Now().Sub(start), 0).Seconds())
}

// Polled counts an answered poll of the configuration (code 200 or 304).
func (m *Metrics) Polled(code int) {
	m.polls.Inc()
	if code == 304 {
		m.etagHits.Inc()
	}
}

// Delivered counts a notification delivery.
func (m *Metrics) Delivered(kind string, ok bool) {
	m.deliveries.WithLabelValues(kind, outcome(ok, "ok", "failed")).Inc()
}

// BackedUp counts a backup that took d; size and the time are kept when it
// succeeded.
func (m *Metrics) BackedUp(trigger string, ok bool, d time.Duration, size int64) {
	m.backups.WithLabelValues(trigger, outcome(ok, "ok", "failed")).Inc()
	m.backupDur.Observe(d.Seconds())
	if ok {
		m.backupLastOK.Set(float64(m.d.Now().Unix()))
		m.backupSize.Set(float64(size))
	}
}

// SignIn counts a sign-in attempt: where is panel or portal, outcome
// success, failure or step.
func (m *Metrics) SignIn(where, outcome string) { m.signIns.WithLabelValues(where, outcome).Inc() }

// LeaderLoops is a loop run with the leader's: the leader gauge is 1 while
// it runs.
func (m *Metrics) LeaderLoops() []background.Loop {
	return []background.Loop{{Name: "metrics leader gauge", Run: func(ctx context.Context) {
		m.leader.Set(1)
		<-ctx.Done()
		m.leader.Set(0)
	}}}
}

func outcome(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

// replicasCollector reads the cluster's replicas at scrape time.
type replicasCollector struct {
	replicas func(ctx context.Context) (int, error)
	log      *slog.Logger
}

var replicasDesc = prometheus.NewDesc(namespace+"_cluster_replicas",
	"Replicas serving on the shared database (1 without a cluster).", nil, nil)

func (c *replicasCollector) Describe(ch chan<- *prometheus.Desc) { ch <- replicasDesc }

func (c *replicasCollector) Collect(ch chan<- prometheus.Metric) {
	n := 1
	if c.replicas != nil {
		ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
		defer cancel()
		v, err := c.replicas(ctx)
		if err != nil {
			c.log.Debug("metrics: replicas", "err", err)
			return
		}
		n = v
	}
	ch <- prometheus.MustNewConstMetric(replicasDesc, prometheus.GaugeValue, float64(n))
}

// scrapeTimeout bounds what a scrape reads from the database.
const scrapeTimeout = 2 * time.Second
