package backup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// BenchmarkBackup10kServices times a backup of a database with 10,000
// services and reports the archive's size.
func BenchmarkBackup10kServices(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	svcs := services.NewService(services.Deps{DB: f.db, Bus: change.NewBus(), Now: store.Now})
	for i := range 10000 {
		_, err := svcs.Create(ctx, services.Request{
			Name:      fmt.Sprintf("service-%05d", i),
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: fmt.Sprintf("s%05d.example.com", i)}},
			Targets:   []store.Target{{Host: "10.0.0.1", Port: 8080}},
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	dbSize := int64(0)
	if fi, err := os.Stat(f.dbPath); err == nil {
		dbSize = fi.Size()
	}
	snap := time.Now()
	if _, err := f.svc.o.Snap.Snapshot(ctx, b.TempDir()); err != nil {
		b.Fatal(err)
	}
	snapshotMs := float64(time.Since(snap).Microseconds()) / 1000
	b.ResetTimer()
	var size int64
	for range b.N {
		f.clock.Add(1e9)
		e, err := f.svc.Create(ctx, TriggerManual)
		if err != nil {
			b.Fatal(err)
		}
		size = e.Size
		b.StopTimer()
		_ = os.Remove(filepath.Join(f.svc.Dir(), e.Name))
		b.StartTimer()
	}
	b.ReportMetric(float64(size), "archive-bytes")
	b.ReportMetric(float64(dbSize), "db-bytes")
	b.ReportMetric(snapshotMs, "snapshot-ms")
}
