package metrics

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"gorm.io/gorm"
)

// startKey is where a statement keeps its start time between callbacks.
const startKey = "gatehouse:metrics_start"

// InstrumentDB measures every statement's duration by operation through
// GORM callbacks (one observer per operation, fixed when registered: no
// label look-up per query), and reports the connection pool (sql.DBStats)
// at scrape time.
func (m *Metrics) InstrumentDB(db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return fmt.Errorf("metrics: database: %w", err)
	}
	m.reg.MustRegister(collectors.NewDBStatsCollector(sqlDB, "gatehouse"))
	hist := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: "db_query_duration_seconds",
		Help:    "Database statements by operation (create, query, update, delete, row, raw).",
		Buckets: []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}},
		[]string{"operation"})
	m.reg.MustRegister(hist)
	before := func(tx *gorm.DB) { tx.Statement.Settings.Store(startKey, time.Now()) }
	after := func(obs prometheus.Observer) func(tx *gorm.DB) {
		return func(tx *gorm.DB) {
			if v, ok := tx.Statement.Settings.LoadAndDelete(startKey); ok {
				if t, ok := v.(time.Time); ok {
					obs.Observe(time.Since(t).Seconds())
				}
			}
		}
	}
	cb := db.Callback()
	const b, a = "gatehouse:metrics_before", "gatehouse:metrics_after"
	errs := []error{
		cb.Create().Before("*").Register(b, before),
		cb.Create().After("*").Register(a, after(hist.WithLabelValues("create"))),
		cb.Query().Before("*").Register(b, before),
		cb.Query().After("*").Register(a, after(hist.WithLabelValues("query"))),
		cb.Update().Before("*").Register(b, before),
		cb.Update().After("*").Register(a, after(hist.WithLabelValues("update"))),
		cb.Delete().Before("*").Register(b, before),
		cb.Delete().After("*").Register(a, after(hist.WithLabelValues("delete"))),
		cb.Row().Before("*").Register(b, before),
		cb.Row().After("*").Register(a, after(hist.WithLabelValues("row"))),
		cb.Raw().Before("*").Register(b, before),
		cb.Raw().After("*").Register(a, after(hist.WithLabelValues("raw"))),
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("metrics: database callbacks: %w", err)
		}
	}
	return nil
}
