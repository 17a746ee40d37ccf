package app

import (
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// noMetrics is why the charts are empty when Traefik's metrics are not read.
const noMetrics = "Traefik's metrics are not configured: set PANEL_PROXY_API_URL (the panel reads its /metrics) " +
	"or PANEL_PROXY_METRICS_URL, with metrics.prometheus enabled in Traefik's static configuration " +
	"(or PANEL_PROMETHEUS_URL for a Prometheus that scrapes Traefik)."

// newTraffic builds the traffic history: its recorder counts verify's
// decisions on this replica, the leader stores Traefik's figures from the
// runtime scrape, and PANEL_PROMETHEUS_URL moves the queries to Prometheus.
func newTraffic(cfg config.Config, db *gorm.DB, cl *cluster.Cluster, now func() time.Time, log *slog.Logger,
	rt *runtime.Service, svcs *services.Service, scraping bool) (*traffic.Service, error) {
	prom, err := traffic.NewPrometheus(cfg.Traffic.PrometheusURL, 0)
	if err != nil {
		return nil, fmt.Errorf("PANEL_PROMETHEUS_URL: %w", err)
	}
	d := traffic.Deps{DB: db, Now: now, Logger: log, Recorder: traffic.NewRecorder(), Traefik: rt,
		Services: svcs, MinuteRetention: cfg.Traffic.MinuteRetention, HourRetention: cfg.Traffic.HourRetention,
		Prometheus: prom}
	if !scraping {
		d.MetricsReason = noMetrics
	}
	if cl != nil {
		d.Replica = cl.ID()
	}
	return traffic.NewService(d), nil
}
